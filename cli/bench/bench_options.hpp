// Everything `gnbench run` is asked to do, gathered from the command line in main.cpp.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/problem.hpp"
#include "cli/timing/sampler.hpp"
#include "kernels/runtime/cache_flush.hpp"
#include "kernels/runtime/vulkan_context.hpp"

namespace gnbench {

struct BenchOptions {
  ContextOptions context;
  std::vector<std::filesystem::path> kernel_folders;  // built-in folder first, then --kernels
  std::vector<std::string> variants;                  // names or globs; empty = every variant
  uint32_t trials = 1;
  bool timing = true;
  bool cold = true;                        // flush caches between samples
  bool hot = false;                        // back-to-back samples
  FlushMethod flush = FlushMethod::kRead;  // how cold samples empty the caches (--flush)
  bool stage_times = false;  // a timestamp after every stage (they drain the pipeline)
  uint32_t hot_batch = 1;  // --hot-batch: runs per hot sample, back to back between its timestamps
  SamplingOptions sampling;
  double device_warmup_s = 1.0;        // --device-warmup: busy seconds after the GPU sat idle
  bool measure_copy_bandwidth = true;  // false: --copy-bandwidth off
  std::optional<double> copy_gbps;     // --copy-bandwidth GBPS: given, not measured
  // Seconds between copy probes between problems; unset: a minute and 50 times a probe's time.
  std::optional<double> copy_probe_gap_s;
  std::optional<std::filesystem::path> dump_dir;
  // run --variant best: each problem runs only the variant this returns ({name, how chosen};
  // name empty: none), given which selected variants admit the shape on the device.
  using Admits = std::function<bool(const std::string&)>;
  std::function<std::pair<std::string, std::string>(const Shape&, const Admits&)> choose;
};

}  // namespace gnbench
