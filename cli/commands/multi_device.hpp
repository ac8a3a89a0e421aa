// run --device all / --device 0,2: the problems on several devices at once, one worker thread
// per device (each with its own BenchRunner and VulkanContext), round-robin slices like
// --shard, merged into one run with `gnbench merge`'s rules; each entry names its device.
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "cli/bench/bench_runner.hpp"

namespace gnbench {

// "all" -> every device's index; "0,2" -> {"0", "2"}; a single index or name -> {it}.
// An empty element is a ConfigError naming --device.
std::vector<std::string> device_list(const std::string& text);

// Runs problems over `devices`: worker k runs problems k, k+N, ... (N = devices.size()).
// Different device models are refused when timing (their times do not belong in one table)
// unless `mixed_devices`. Entries come back in problem order.
RunRecords run_on_devices(const BenchOptions& options, const std::vector<std::string>& devices,
                          const std::vector<Problem>& problems, const std::string& source,
                          bool mixed_devices, const Progress& progress,
                          const std::atomic<bool>* stop);

}  // namespace gnbench
