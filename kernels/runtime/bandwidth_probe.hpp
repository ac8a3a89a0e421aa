// Measures the device's copy bandwidth with gnbench's own Vulkan kernel: random data (so no
// compression helps), vec4 loads, buffers well past the last-level cache, read + write counted.
// This is the ceiling every variant's GB/s is quoted against.
#pragma once

#include <filesystem>
#include <vector>

#include "base/statistics.hpp"
#include "kernels/runtime/compute_pipeline.hpp"
#include "kernels/runtime/vulkan_context.hpp"

namespace gnbench {

struct CopyBandwidth {
  uint64_t bytes_per_copy = 0;     // read + write
  Statistics time_ns;              // of the fastest buffer pair
  double gbps = 0;                 // bytes_per_copy / median, the fastest buffer pair
  std::vector<double> pairs_gbps;  // every buffer pair's reading, in order
};

// Copies between `pairs` freshly allocated buffer pairs in turn and keeps the fastest. On
// the H200 a pair copies at either ~4200 or ~1720 GB/s whatever its size, the mode changing
// between consecutive pairs or lasting a whole probe (GPU-host run 19: 48 pairs of 64 MiB
// to 1.5 GiB, a third slow; in other calls all four pairs of the first or of the second
// probe; cause not found). Nothing copies faster than the device can,
// so the fastest pair is its ceiling. A CPU device measures one pair. The copy kernel and its
// random source data are made once: a run probes several times.
class CopyBandwidthProbe {
 public:
  CopyBandwidthProbe(VulkanContext& ctx, const std::filesystem::path& kernels_folder,
                     uint32_t samples = 30, uint32_t pairs = 4);
  CopyBandwidth measure();

 private:
  VulkanContext& ctx_;
  uint32_t samples_;
  uint32_t pairs_;
  std::vector<uint32_t> random_;
  ComputePipeline pipeline_;
};

}  // namespace gnbench
