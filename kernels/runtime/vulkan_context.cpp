#include "kernels/runtime/vulkan_context.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <sstream>
#include <utility>

#include "base/errors.hpp"

namespace gnbench {

namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

VKAPI_ATTR VkBool32 VKAPI_CALL on_validation_message(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT,
    const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  auto* count = static_cast<std::atomic<uint64_t>*>(user);
  ++*count;
  const char* level =
      severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "error" : "warning";
  std::cerr << "gnbench: vulkan validation " << level << ": " << data->pMessage << "\n";
  return VK_FALSE;
}

std::string version_string(uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) +
         "." + std::to_string(VK_API_VERSION_PATCH(v));
}

std::string driver_version_string(uint32_t vendor, uint32_t v) {
  if (vendor == 0x10DE)  // NVIDIA packs 10.8.8.6 bits
    return std::to_string(v >> 22) + "." + std::to_string((v >> 14) & 0xff) + "." +
           std::to_string((v >> 6) & 0xff);
  return version_string(v);
}

std::string device_type_name(vk::PhysicalDeviceType t) {
  switch (t) {
    case vk::PhysicalDeviceType::eDiscreteGpu: return "discrete GPU";
    case vk::PhysicalDeviceType::eIntegratedGpu: return "integrated GPU";
    case vk::PhysicalDeviceType::eVirtualGpu: return "virtual GPU";
    case vk::PhysicalDeviceType::eCpu: return "CPU";
    default: return "other";
  }
}

int type_rank(const std::string& type) {
  if (type == "discrete GPU") return 0;
  if (type == "integrated GPU") return 1;
  if (type == "virtual GPU") return 2;
  if (type == "CPU") return 3;
  return 4;
}

bool has_extension(const vk::raii::PhysicalDevice& pd, const char* name) {
  for (const auto& e : pd.enumerateDeviceExtensionProperties())
    if (std::string(e.extensionName.data()) == name) return true;
  return false;
}

uint32_t compute_queue_family(const vk::raii::PhysicalDevice& pd) {
  auto families = pd.getQueueFamilyProperties();
  // Prefer a compute-only family (an async compute queue), else any family with compute.
  for (uint32_t i = 0; i < families.size(); ++i)
    if ((families[i].queueFlags & vk::QueueFlagBits::eCompute) &&
        !(families[i].queueFlags & vk::QueueFlagBits::eGraphics) && families[i].timestampValidBits)
      return i;
  for (uint32_t i = 0; i < families.size(); ++i)
    if (families[i].queueFlags & vk::QueueFlagBits::eCompute) return i;
  return UINT32_MAX;
}

DeviceInfo describe(const vk::raii::PhysicalDevice& pd, uint32_t index) {
  auto chain =
      pd.getProperties2<vk::PhysicalDeviceProperties2, vk::PhysicalDeviceSubgroupProperties,
                        vk::PhysicalDeviceDriverProperties>();
  const auto& props = chain.get<vk::PhysicalDeviceProperties2>().properties;
  const auto& subgroup = chain.get<vk::PhysicalDeviceSubgroupProperties>();
  const auto& driver = chain.get<vk::PhysicalDeviceDriverProperties>();
  DeviceInfo info;
  info.index = index;
  info.name = props.deviceName.data();
  info.type = device_type_name(props.deviceType);
  info.vendor_id = props.vendorID;
  info.device_id = props.deviceID;
  info.driver_name = driver.driverName.data();
  info.driver_info = driver.driverInfo.data();
  info.driver_version = driver_version_string(props.vendorID, props.driverVersion);
  info.api_version = version_string(props.apiVersion);
  std::ostringstream uuid;
  for (uint8_t b : props.pipelineCacheUUID) {
    char hex[3];
    std::snprintf(hex, sizeof hex, "%02x", b);
    uuid << hex;
  }
  info.uuid = uuid.str();
  const auto& l = props.limits;
  info.limits.max_storage_buffer_range = l.maxStorageBufferRange;
  info.limits.max_workgroup_count = {l.maxComputeWorkGroupCount[0], l.maxComputeWorkGroupCount[1],
                                     l.maxComputeWorkGroupCount[2]};
  info.limits.max_shared_memory = l.maxComputeSharedMemorySize;
  info.limits.subgroup_size = subgroup.subgroupSize;
  auto maint3 =
      pd.getProperties2<vk::PhysicalDeviceProperties2, vk::PhysicalDeviceMaintenance3Properties>();
  info.limits.max_memory_allocation_size =
      maint3.get<vk::PhysicalDeviceMaintenance3Properties>().maxMemoryAllocationSize;
  auto memory = pd.getMemoryProperties();
  for (uint32_t h = 0; h < memory.memoryHeapCount; ++h)
    if (memory.memoryHeaps[h].flags & vk::MemoryHeapFlagBits::eDeviceLocal)
      info.limits.device_local_memory =
          std::max<uint64_t>(info.limits.device_local_memory, memory.memoryHeaps[h].size);
  info.subgroup_arithmetic =
      (subgroup.supportedStages & vk::ShaderStageFlagBits::eCompute) &&
      (subgroup.supportedOperations & vk::SubgroupFeatureFlagBits::eArithmetic);
  info.subgroup_shuffle = (subgroup.supportedStages & vk::ShaderStageFlagBits::eCompute) &&
                          (subgroup.supportedOperations & vk::SubgroupFeatureFlagBits::eShuffle);
  if (has_extension(pd, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME)) {
    auto f = pd.getFeatures2<vk::PhysicalDeviceFeatures2,
                             vk::PhysicalDeviceShaderAtomicFloatFeaturesEXT>();
    info.float_atomics =
        f.get<vk::PhysicalDeviceShaderAtomicFloatFeaturesEXT>().shaderBufferFloat32AtomicAdd;
  }
  if (has_extension(pd, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME)) {
    auto f = pd.getFeatures2<vk::PhysicalDeviceFeatures2,
                             vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR>();
    info.executable_statistics =
        f.get<vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR>().pipelineExecutableInfo;
  }
  info.timestamp_period_ns = l.timestampPeriod;
  uint32_t family = compute_queue_family(pd);
  if (family != UINT32_MAX && l.timestampComputeAndGraphics)
    info.timestamp_valid_bits = pd.getQueueFamilyProperties()[family].timestampValidBits;
  // Vulkan does not report cache sizes. A CPU device's last level is the host's; for GPUs
  // assume 64 MiB, above the L2 of current data-centre parts (H100/H200: 50 MB).
  info.last_level_cache_bytes = 64ull << 20;
  if (info.type == "CPU") {
    long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    // Virtual machines report the whole host's L3 (hundreds of MB); a flush that size would
    // dominate every cold sample on a device that runs at a few GB/s. 32 MiB bounds it.
    if (l3 > 0)
      info.last_level_cache_bytes = std::min<uint64_t>(static_cast<uint64_t>(l3), 32ull << 20);
  }
  return info;
}

vk::raii::Instance make_instance(const vk::raii::Context& context, bool validation) {
  vk::ApplicationInfo app{"gnbench", 1, "gnbench", 1, VK_API_VERSION_1_2};
  std::vector<const char*> layers, extensions;
  if (validation) {
    bool found = false;
    for (const auto& l : context.enumerateInstanceLayerProperties())
      found |= std::string(l.layerName.data()) == kValidationLayer;
    if (!found)
      throw ConfigError(std::string("--validate: the layer ") + kValidationLayer +
                        " is not installed (Debian package vulkan-validationlayers)");
    layers.push_back(kValidationLayer);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  }
  // Core plus synchronization validation: the latter catches missing barriers between stages.
  std::array<vk::ValidationFeatureEnableEXT, 1> enables{
      vk::ValidationFeatureEnableEXT::eSynchronizationValidation};
  vk::ValidationFeaturesEXT features{enables, {}};
  vk::InstanceCreateInfo info{{}, &app, layers, extensions};
  if (validation) info.pNext = &features;
  return vk::raii::Instance(context, info);
}

}  // namespace

std::string DeviceInfo::fingerprint() const {
  return name + " | vendor " + std::to_string(vendor_id) + " device " + std::to_string(device_id) +
         " | " + driver_name + " " + driver_version;
}

nlohmann::json DeviceInfo::to_json() const {
  return {{"index", index},
          {"name", name},
          {"type", type},
          {"vendor_id", vendor_id},
          {"device_id", device_id},
          {"driver_name", driver_name},
          {"driver_info", driver_info},
          {"driver_version", driver_version},
          {"api_version", api_version},
          {"pipeline_cache_uuid", uuid},
          {"fingerprint", fingerprint()},
          {"subgroup_size", limits.subgroup_size},
          {"subgroup_arithmetic", subgroup_arithmetic},
          {"subgroup_shuffle", subgroup_shuffle},
          {"float_atomics", float_atomics},
          {"executable_statistics", executable_statistics},
          {"timestamp_period_ns", timestamp_period_ns},
          {"timestamp_valid_bits", timestamp_valid_bits},
          {"limits",
           {{"max_storage_buffer_range", limits.max_storage_buffer_range},
            {"max_memory_allocation_size", limits.max_memory_allocation_size},
            {"device_local_memory", limits.device_local_memory},
            {"max_compute_workgroup_count", limits.max_workgroup_count},
            {"max_compute_shared_memory", limits.max_shared_memory}}}};
}

std::vector<DeviceInfo> VulkanContext::list_devices() {
  vk::raii::Context context;
  vk::raii::Instance instance = make_instance(context, false);
  std::vector<DeviceInfo> out;
  uint32_t i = 0;
  for (const auto& pd : vk::raii::PhysicalDevices(instance)) out.push_back(describe(pd, i++));
  return out;
}

VulkanContext::VulkanContext(const ContextOptions& options)
    : validation_(options.validation), fence_timeout_(options.fence_timeout), stop_(options.stop) {
  instance_ = make_instance(context_, validation_);
  if (validation_) {
    using S = vk::DebugUtilsMessageSeverityFlagBitsEXT;
    using T = vk::DebugUtilsMessageTypeFlagBitsEXT;
    vk::DebugUtilsMessengerCreateInfoEXT info{{},
                                              S::eWarning | S::eError,
                                              T::eGeneral | T::eValidation | T::ePerformance,
                                              &on_validation_message,
                                              validation_count_.get()};
    messenger_ = vk::raii::DebugUtilsMessengerEXT(instance_, info);
  }
  vk::raii::PhysicalDevices devices(instance_);
  if (devices.empty())
    throw ConfigError("no Vulkan device found (install mesa-vulkan-drivers for lavapipe)");
  std::vector<DeviceInfo> infos;
  for (uint32_t i = 0; i < devices.size(); ++i) infos.push_back(describe(devices[i], i));

  std::optional<uint32_t> chosen;
  const std::string& want = options.device;
  if (want.empty()) {
    chosen = 0;
    for (uint32_t i = 1; i < infos.size(); ++i)
      if (type_rank(infos[i].type) < type_rank(infos[*chosen].type)) chosen = i;
  } else if (std::all_of(want.begin(), want.end(), ::isdigit)) {
    // At most 9 digits: a longer index is no device, and stoul would throw out_of_range.
    if (want.size() <= 9 && std::stoul(want) < infos.size()) chosen = std::stoul(want);
  } else {
    auto lower = [](std::string s) {
      std::transform(s.begin(), s.end(), s.begin(), ::tolower);
      return s;
    };
    for (uint32_t i = 0; i < infos.size() && !chosen; ++i)
      if (lower(infos[i].name).find(lower(want)) != std::string::npos) chosen = i;
  }
  if (!chosen) {
    std::string list;
    for (const auto& d : infos)
      list += (list.empty() ? "" : ", ") + std::to_string(d.index) + ": " + d.name;
    throw ConfigError("--device '" + want + "': no such device (devices: " + list + ")");
  }
  physical_ = std::move(devices[*chosen]);
  info_ = infos[*chosen];
  queue_family_ = compute_queue_family(physical_);
  if (queue_family_ == UINT32_MAX)
    throw ConfigError("device '" + info_.name + "' has no compute queue");

  float priority = 1.0f;
  vk::DeviceQueueCreateInfo queue_info{{}, queue_family_, 1, &priority};
  std::vector<const char*> extensions;
  vk::PhysicalDeviceShaderAtomicFloatFeaturesEXT atomic_float{};
  vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR executable{};
  void* features = nullptr;  // the chain of feature structs for the extensions enabled
  if (info_.float_atomics) {
    extensions.push_back(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
    atomic_float.shaderBufferFloat32AtomicAdd = VK_TRUE;
    atomic_float.pNext = std::exchange(features, &atomic_float);
  }
  if (info_.executable_statistics) {
    extensions.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    executable.pipelineExecutableInfo = VK_TRUE;
    executable.pNext = std::exchange(features, &executable);
  }
  vk::DeviceCreateInfo device_info{{}, queue_info, {}, {}, nullptr, features};
  device_info.setPEnabledExtensionNames(extensions);
  device_ = vk::raii::Device(physical_, device_info);
  queue_ = vk::raii::Queue(device_, queue_family_, 0);
  pool_ = vk::raii::CommandPool(
      device_, {vk::CommandPoolCreateFlagBits::eResetCommandBuffer, queue_family_});
}

vk::raii::CommandBuffer VulkanContext::allocate_command_buffer() const {
  vk::raii::CommandBuffers buffers(device_, {*pool_, vk::CommandBufferLevel::ePrimary, 1});
  return std::move(buffers.front());
}

void VulkanContext::submit_and_wait(const vk::raii::CommandBuffer& cmd, const std::string& what) {
  if (lost())
    throw DeviceLost(what + ": not run, the device was lost earlier (" + lost_reason() + ")");
  vk::raii::Fence fence(device_, vk::FenceCreateInfo{});
  vk::CommandBuffer handle = *cmd;
  const std::string limit = std::to_string(fence_timeout_.count()) + " ms (--kernel-timeout)";
  try {
    queue_.submit(vk::SubmitInfo{{}, {}, handle}, *fence);
    auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(fence_timeout_).count();
    vk::Result r = device_.waitForFences({*fence}, VK_TRUE, static_cast<uint64_t>(nanos));
    if (r == vk::Result::eTimeout) {
      // Vulkan has no way to cancel a submission, and freeing the command buffer or the
      // buffers it uses while it runs is undefined behaviour (lavapipe would crash). So wait
      // for its end: a driver with a watchdog reports the device lost instead (caught below).
      std::cerr << "gnbench: warning: " << what << " did not finish within " << limit
                << "; waiting for it to end (a Vulkan submission cannot be cancelled)\n";
      auto waited = std::chrono::steady_clock::now();
      while (device_.waitForFences({*fence}, VK_TRUE, 1'000'000'000ull) == vk::Result::eTimeout) {
        if (stop_ && *stop_) {
          std::cerr << "gnbench: stopping while " << what
                    << " still runs: saving what finished, then exiting\n";
          if (abandon_) abandon_();
          std::_Exit(130);  // no destructors: they would free buffers the GPU still uses
        }
      }
      double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - waited).count();
      char extra[64];
      std::snprintf(extra, sizeof extra, "%.1f", s);
      throw KernelTimeout(what + ": did not finish within " + limit + " (it ended " + extra +
                          " s later)");
    }
  } catch (const vk::DeviceLostError& e) {
    mark_lost(what + ": " + e.what());
    throw DeviceLost(what + ": device lost (" + e.what() + ")");
  }
}

std::optional<uint32_t> VulkanContext::memory_type(uint32_t type_bits,
                                                   vk::MemoryPropertyFlags wanted) const {
  auto memory = physical_.getMemoryProperties();
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i)
    if ((type_bits & (1u << i)) && (memory.memoryTypes[i].propertyFlags & wanted) == wanted)
      return i;
  return std::nullopt;
}

uint32_t VulkanContext::find_memory_type(uint32_t type_bits, vk::MemoryPropertyFlags wanted) const {
  if (auto type = memory_type(type_bits, wanted)) return *type;
  throw std::runtime_error("no Vulkan memory type with the wanted properties");
}

vk::MemoryPropertyFlags VulkanContext::memory_type_flags(uint32_t type) const {
  return physical_.getMemoryProperties().memoryTypes[type].propertyFlags;
}

}  // namespace gnbench
