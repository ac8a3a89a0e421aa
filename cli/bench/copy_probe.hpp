// The run's copy-bandwidth figure (the 100 % of "% copy"). The probe runs before the entries,
// again between problems once a minute has passed (and at most ~2 % of the run), and after
// them, each over several fresh buffer pairs; the highest reading counts (nothing copies faster
// than the device can). A probe can read low for a while (on an H100, run 43b: 2513 GB/s
// on every pair of the first probe, 2994 in the calls around it, kernels equally fast): the
// probes between problems keep that from standing for a run stopped before its last probe. On the
// H200 a copy runs at ~4200 or ~1720 GB/s, changing between buffer pairs and probes (gpu-log runs
// 12-19): a single reading could not tell that from a slow device.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
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
  // Whether a probe between problems is due: `gap_s` since the last, or when not given a
  // minute and 50 times as long as it took.
  bool due(std::optional<double> gap_s) const;

 private:
  VulkanContext& ctx_;
  std::filesystem::path kernels_folder_;
  std::optional<CopyBandwidthProbe> probe_;  // made at the first probe, kept for the others
  std::vector<CopyBandwidth> probes_;
  std::chrono::steady_clock::time_point last_end_{};
  std::chrono::steady_clock::duration last_took_{};
};

}  // namespace gnbench
