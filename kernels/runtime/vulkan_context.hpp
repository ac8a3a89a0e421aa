// Instance, the chosen physical device, its logical device, one compute queue and a command
// pool; optionally the Khronos validation layer with a messenger that counts what it reports.
// Every Vulkan object is an RAII handle owned here or by the objects built from it.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>
#include <vulkan/vulkan_raii.hpp>

#include "base/errors.hpp"  // KernelTimeout, DeviceLost
#include "kernels/runtime/device_info.hpp"

namespace gnbench {

struct ContextOptions {
  std::string device;  // index or name substring; empty = the best device
  bool validation = false;
  std::chrono::milliseconds fence_timeout{60'000};
  // Polled while waiting on a submission past fence_timeout: once true (Ctrl-C, SIGTERM), the
  // wait is given up: the abandon handler saves what finished and the process exits 130
  // (the submission cannot be cancelled, and its buffers must not be freed while it runs).
  const std::atomic<bool>* stop = nullptr;
};

class VulkanContext {
 public:
  explicit VulkanContext(const ContextOptions& options);

  // Every physical device with its limits, for `gnbench devices` and device selection.
  static std::vector<DeviceInfo> list_devices();

  const DeviceInfo& info() const { return info_; }
  const vk::raii::Device& device() const { return device_; }
  const vk::raii::PhysicalDevice& physical_device() const { return physical_; }
  const vk::raii::Queue& queue() const { return queue_; }
  const vk::raii::CommandPool& command_pool() const { return pool_; }
  bool validation_enabled() const { return validation_; }
  uint64_t validation_messages() const { return *validation_count_; }
  std::chrono::milliseconds fence_timeout() const { return fence_timeout_; }

  vk::raii::CommandBuffer allocate_command_buffer() const;
  // Submits and waits on a fence. When the fence does not signal in time, waits on until the
  // submission ends (Vulkan cannot cancel it, and its buffers must outlive it) and then throws
  // KernelTimeout; throws DeviceLost when the driver reports the device lost, then and after.
  void submit_and_wait(const vk::raii::CommandBuffer& cmd, const std::string& what);
  // After VK_ERROR_DEVICE_LOST from any call: nothing more is submitted.
  bool lost() const { return !lost_reason_.empty(); }
  const std::string& lost_reason() const { return lost_reason_; }
  void mark_lost(const std::string& reason) {
    if (lost_reason_.empty()) lost_reason_ = reason.empty() ? "device lost" : reason;
  }
  uint32_t find_memory_type(uint32_t type_bits, vk::MemoryPropertyFlags wanted) const;
  // The first memory type allowed by type_bits with all of `wanted`, if any.
  std::optional<uint32_t> memory_type(uint32_t type_bits, vk::MemoryPropertyFlags wanted) const;
  vk::MemoryPropertyFlags memory_type_flags(uint32_t type) const;
  // Called (then _Exit(130)) when a stop is requested while a submission overruns.
  void set_abandon_handler(std::function<void()> handler) { abandon_ = std::move(handler); }

 private:
  vk::raii::Context context_;
  vk::raii::Instance instance_{nullptr};
  vk::raii::DebugUtilsMessengerEXT messenger_{nullptr};
  vk::raii::PhysicalDevice physical_{nullptr};
  vk::raii::Device device_{nullptr};
  vk::raii::Queue queue_{nullptr};
  vk::raii::CommandPool pool_{nullptr};
  uint32_t queue_family_ = 0;
  DeviceInfo info_;
  bool validation_ = false;
  std::shared_ptr<std::atomic<uint64_t>> validation_count_ =
      std::make_shared<std::atomic<uint64_t>>(0);
  std::chrono::milliseconds fence_timeout_;
  const std::atomic<bool>* stop_ = nullptr;
  std::function<void()> abandon_;
  std::string lost_reason_;  // empty while the device works
};

}  // namespace gnbench
