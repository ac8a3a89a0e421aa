// The device limits a problem is checked against before anything is allocated.
// Filled from Vulkan by kernels/runtime; kept Vulkan-free so config code and tests need no device.
#pragma once

#include <array>
#include <cstdint>

namespace gnbench {

struct DeviceLimits {
  uint64_t max_storage_buffer_range = 0;
  uint64_t max_memory_allocation_size = 0;
  uint64_t device_local_memory = 0;  // the largest device-local heap
  std::array<uint32_t, 3> max_workgroup_count{};
  uint32_t max_shared_memory = 0;
  uint32_t subgroup_size = 0;
};

}  // namespace gnbench
