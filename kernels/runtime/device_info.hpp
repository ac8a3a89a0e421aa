// What a Vulkan device is and can do: the fingerprint that results files carry and that
// `gnbench compare` matches on, plus the limits problems are checked against.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "base/device_limits.hpp"

namespace gnbench {

struct DeviceInfo {
  uint32_t index = 0;
  std::string name;
  std::string type;  // "discrete GPU", "integrated GPU", "CPU", ...
  uint32_t vendor_id = 0;
  uint32_t device_id = 0;
  std::string driver_name;
  std::string driver_info;
  std::string driver_version;  // decoded per vendor convention
  std::string api_version;     // "1.3.239"
  std::string uuid;            // pipeline cache UUID, hex
  DeviceLimits limits;
  bool subgroup_arithmetic = false;     // compute stage supports subgroupAdd etc.
  bool subgroup_shuffle = false;        // compute stage supports subgroupShuffleXor etc.
  bool float_atomics = false;           // shaderBufferFloat32AtomicAdd
  bool executable_statistics = false;   // VK_KHR_pipeline_executable_properties (registers...)
  double timestamp_period_ns = 0;       // ns per timestamp tick
  uint32_t timestamp_valid_bits = 0;    // of the compute queue family; 0 = no timestamps
  uint64_t last_level_cache_bytes = 0;  // estimate used to size the cache flush

  bool has(const std::string& feature) const {
    if (feature == "subgroup_arithmetic") return subgroup_arithmetic;
    if (feature == "subgroup_shuffle") return subgroup_shuffle;
    if (feature == "float_atomics") return float_atomics;
    return false;
  }
  // Nanoseconds between two timestamps, honouring timestampValidBits (the counter wraps
  // there) and timestampPeriod.
  double ticks_to_ns(uint64_t start, uint64_t end) const {
    const uint64_t mask =
        timestamp_valid_bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << timestamp_valid_bits) - 1;
    return double((end - start) & mask) * timestamp_period_ns;
  }
  // The identity `compare` matches on: same hardware and driver, not the index.
  std::string fingerprint() const;
  nlohmann::json to_json() const;
};

}  // namespace gnbench
