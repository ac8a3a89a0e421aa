// When to stop sampling: a fixed count, or the median's confidence interval within --max-noise
// after --min-samples and --min-time, or give up at --timeout (timing/stopping.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/statistics.hpp"
#include "cli/timing/stopping.hpp"

namespace gnbench {

struct SamplingOptions {
  uint32_t warmup = 3;
  // Then at least this much GPU time in batches of ~10 ms, and on until two batches in a
  // row have medians within 2 % (the clocks have ramped up: an idle GPU starts slow), for
  // at most 0.5 s or a quarter of the timeout of wall time; 0: none.
  double warmup_time_s = 0.05;
  // Before all that, keep the GPU busy for this many wall seconds. The runner sets it for a
  // timed entry that follows more than 2 s without sampling (the run's first included): an
  // H200 that has just been idle runs its first ~0.5 s of load in a slower state whose times
  // are steady, so settling alone cannot see it (gpu-log run 22).
  double device_warmup_s = 0;
  std::optional<uint32_t> fixed_samples;  // --samples N: exactly N, no criterion
  // Defaults for a run that answers in seconds (docs/compare.md, "Stopping"): a converged
  // median is within its interval of a long run's.
  uint32_t min_samples = 20;
  double min_time_s = 0.05;  // of accumulated GPU time
  double max_noise = 0.005;  // a fraction: the median's 95 % interval half-width / median
  double timeout_s = 0.5;    // wall clock for one entry (a noisy device stops here)
};

// A timing's throughput: set by derive_figures() (cli/bench/records.hpp) where the record is
// made or read, so that every printer shows the same figures and only formats them.
struct Throughput {
  double gbps = 0;             // required bytes / median (bytes per ns = GB/s); 0: no samples
  double actual_gbps = 0;      // the variant's own traffic model / median; 0: none declared
  double pct_copy = 0;         // gbps over the copy bandwidth, in %; 0: no copy bandwidth
  double pct_copy_actual = 0;  // actual_gbps over it
};

struct TimingResult {
  std::string mode;  // "cold" or "hot"
  Statistics total;
  std::vector<std::string> stage_names;
  std::vector<Statistics> stages;
  bool noise_target_reached = false;  // always true for a fixed count
  StopReason stop_reason = StopReason::kTimeout;
  double median_ci = 0;  // the median's 95 % interval half-width / median at the stop
  Modes modes;           // bimodality of the samples
  double wall_s = 0;
  std::vector<double> samples_ns;  // every sample's total, in order, for compare's tests
  double warmup_s = 0;             // wall seconds the settling warm-up took
  Throughput throughput;           // derived, not measured: see Throughput
};

// Runs `count` samples on the device and returns their times.
using SampleBatch = std::function<std::vector<SampleTimes>(uint32_t count)>;

TimingResult measure(const SampleBatch& run, const SamplingOptions& options,
                     const std::vector<std::string>& stage_names, const std::string& mode);

}  // namespace gnbench
