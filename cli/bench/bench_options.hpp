// Everything `gnbench run` is asked to do, gathered from the command line in main.cpp.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "runtime/vulkan_context.hpp"
#include "timing/sampler.hpp"

namespace gnbench {

struct BenchOptions {
  ContextOptions context;
  std::vector<std::filesystem::path> kernel_folders;  // built-in folder first, then --kernels
  std::vector<std::string> variants;                  // names or globs; empty = every variant
  uint32_t trials = 1;
  bool timing = true;
  bool cold = true;          // flush caches between samples
  bool hot = false;          // back-to-back samples
  bool stage_times = false;  // a timestamp after every stage (they drain the pipeline)
  SamplingOptions sampling;
  bool measure_copy_bandwidth = true;
  std::optional<std::filesystem::path> dump_dir;
};

}  // namespace gnbench
