// When to stop sampling: a fixed count, or nvbench's stdrel criterion (relative noise under
// --max-noise after --min-samples and --min-time, or give up at --timeout).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "timing/statistics.hpp"

namespace gnbench {

struct SamplingOptions {
  uint32_t warmup = 3;
  std::optional<uint32_t> fixed_samples;  // --samples N: exactly N, no criterion
  uint32_t min_samples = 10;
  double min_time_s = 0.5;   // of accumulated GPU time
  double max_noise = 0.005;  // stdev / mean
  double timeout_s = 15.0;   // wall clock for one entry
};

struct TimingResult {
  std::string mode;  // "cold" or "hot"
  Statistics total;
  std::vector<std::string> stage_names;
  std::vector<Statistics> stages;
  bool noise_target_reached = false;  // always true for a fixed count
  double wall_s = 0;
  std::vector<double> samples_ns;  // every sample's total, in order, for compare's tests
};

// Runs `count` samples on the device and returns their times.
using SampleBatch = std::function<std::vector<SampleTimes>(uint32_t count)>;

TimingResult measure(const SampleBatch& run, const SamplingOptions& options,
                     const std::vector<std::string>& stage_names, const std::string& mode);

}  // namespace gnbench
