#include <iostream>

#include "cli/commands/commands.hpp"
#include "kernels/runtime/vulkan_context.hpp"

namespace gnbench {

int devices_command(bool json) {
  auto devices = VulkanContext::list_devices();
  if (json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& d : devices) out.push_back(d.to_json());
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  for (const auto& d : devices) {
    const auto& l = d.limits;
    std::cout << d.index << ": " << d.name << " (" << d.type << ", " << d.driver_name << " "
              << d.driver_version << ", Vulkan " << d.api_version << ")\n"
              << "   maxStorageBufferRange " << l.max_storage_buffer_range
              << ", maxMemoryAllocationSize " << l.max_memory_allocation_size
              << ", device-local memory " << l.device_local_memory << "\n"
              << "   maxComputeWorkGroupCount [" << l.max_workgroup_count[0] << ", "
              << l.max_workgroup_count[1] << ", " << l.max_workgroup_count[2] << "], shared memory "
              << l.max_shared_memory << " B, subgroup size " << l.subgroup_size
              << (d.subgroup_arithmetic
                      ? (d.subgroup_shuffle ? " (arithmetic, shuffle)" : " (arithmetic)")
                      : "")
              << (d.float_atomics ? ", float atomics" : "") << "\n"
              << "   timestamps: " << d.timestamp_period_ns << " ns/tick, "
              << d.timestamp_valid_bits << " valid bits\n";
  }
  return 0;
}

}  // namespace gnbench
