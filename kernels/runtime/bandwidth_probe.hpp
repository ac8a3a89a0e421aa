// Measures the device's copy bandwidth with gnbench's own Vulkan kernel: random data (so no
// compression helps), vec4 loads, buffers well past the last-level cache, read + write counted.
// This is the ceiling every variant's GB/s is quoted against.
#pragma once

#include <filesystem>

#include "runtime/vulkan_context.hpp"
#include "timing/statistics.hpp"

namespace gnbench {

struct CopyBandwidth {
  uint64_t bytes_per_copy = 0;  // read + write
  Statistics time_ns;
  double gbps = 0;  // bytes_per_copy / median
};

CopyBandwidth measure_copy_bandwidth(const VulkanContext& ctx,
                                     const std::filesystem::path& kernels_folder,
                                     uint32_t samples = 30);

}  // namespace gnbench
