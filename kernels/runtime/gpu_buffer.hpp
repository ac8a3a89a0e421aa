// Buffers and their memory: device-local storage buffers for tensors and scratch, and
// host-visible staging buffers to move data in and out. One owner each (RAII).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vulkan/vulkan_raii.hpp>

#include "kernels/runtime/vulkan_context.hpp"

namespace gnbench {

class GpuBuffer {
 public:
  // kHost: written by the CPU (write-combined is fine); kHostRead: read by the CPU, so cached
  // memory where the device has it (reading uncached mapped memory runs at a fraction of a
  // GB/s, which made read-backs the largest cost of a verify-only run).
  enum class Place { kDevice, kHost, kHostRead };
  // Throws std::runtime_error naming `name` and the size when the driver refuses.
  GpuBuffer(const VulkanContext& ctx, uint64_t bytes, Place place, const std::string& name);

  const vk::raii::Buffer& buffer() const { return buffer_; }
  uint64_t bytes() const { return bytes_; }
  const std::string& name() const { return name_; }
  // Host buffers only: the persistently mapped pointer.
  void* mapped() const { return mapped_; }
  // Makes device writes visible to the host where the memory is not coherent.
  void invalidate() const;

 private:
  std::string name_;
  uint64_t bytes_;
  vk::raii::Buffer buffer_{nullptr};
  vk::raii::DeviceMemory memory_{nullptr};
  void* mapped_ = nullptr;
  bool coherent_ = true;
};

// Copies between host memory and device buffers through one reusable staging buffer.
class Transfer {
 public:
  explicit Transfer(VulkanContext& ctx) : ctx_(ctx) {}
  void upload(const GpuBuffer& dst, uint64_t offset, std::span<const std::byte> data);
  void download(const GpuBuffer& src, uint64_t offset, std::span<std::byte> data);

 private:
  const GpuBuffer& staging(std::unique_ptr<GpuBuffer>& slot, uint64_t bytes,
                           GpuBuffer::Place place);
  VulkanContext& ctx_;
  std::unique_ptr<GpuBuffer> upload_staging_, download_staging_;
};

}  // namespace gnbench
