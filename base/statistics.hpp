// Summary statistics of timing samples.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <vector>

namespace gnbench {

// GPU time of one sample: the whole variant and each stage, in nanoseconds.
struct SampleTimes {
  double total_ns = 0;  // one run's time (a sample of several runs: their total over the count)
  std::vector<double> stage_ns;
  uint32_t runs = 1;  // runs the sample timed: it occupied the GPU for total_ns * runs
};

struct Statistics {
  uint64_t samples = 0;
  double median = 0, q1 = 0, q3 = 0, min = 0, max = 0, mean = 0, stdev = 0;
  double rel_noise = 0;  // stdev / mean: nvbench's "stdrel"
};

// Quartiles by linear interpolation between order statistics (numpy's default).
Statistics summarize(std::vector<double> values);

nlohmann::json to_json(const Statistics& s);
Statistics statistics_from_json(const nlohmann::json& j);

}  // namespace gnbench
