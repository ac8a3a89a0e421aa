// The run's copy-bandwidth figure (the 100 % of "% copy"). The probe runs before the entries
// and again after them, each over several fresh buffer pairs; the highest reading counts
// (nothing copies faster than the device can). On the H200 a copy runs at ~4200 or ~1720
// GB/s, changing between buffer pairs and probes (gpu-log runs 12-19): a single reading could
// not tell that from a slow device.
#pragma once

#include <filesystem>
#include <vector>

#include "cli/bench/records.hpp"
#include "kernels/runtime/bandwidth_probe.hpp"

namespace gnbench {

class VulkanContext;

class CopyProbe {
 public:
  CopyProbe(VulkanContext& ctx, std::filesystem::path kernels_folder)
      : ctx_(ctx), kernels_folder_(std::move(kernels_folder)) {}
  // One more probe; the context's copy_gbps and copy_bandwidth then hold the best so far.
  void measure(RunContext& context);

 private:
  VulkanContext& ctx_;
  std::filesystem::path kernels_folder_;
  std::vector<CopyBandwidth> probes_;
};

}  // namespace gnbench
