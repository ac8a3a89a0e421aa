#include "runtime/gpu_buffer.hpp"

#include <cstring>

namespace gnbench {

GpuBuffer::GpuBuffer(const VulkanContext& ctx, uint64_t bytes, Place place, const std::string& name)
    : name_(name), bytes_(bytes) {
  using U = vk::BufferUsageFlagBits;
  vk::BufferUsageFlags usage = U::eTransferSrc | U::eTransferDst;
  if (place == Place::kDevice) usage |= U::eStorageBuffer | U::eUniformBuffer;
  // Vulkan forbids zero-sized buffers; a 4-byte minimum keeps empty scratch legal.
  uint64_t size = std::max<uint64_t>(bytes, 4);
  try {
    buffer_ = vk::raii::Buffer(ctx.device(), {{}, size, usage, vk::SharingMode::eExclusive});
    auto req = buffer_.getMemoryRequirements();
    auto props =
        place == Place::kDevice
            ? vk::MemoryPropertyFlags(vk::MemoryPropertyFlagBits::eDeviceLocal)
            : vk::MemoryPropertyFlagBits::eHostVisible | vk::MemoryPropertyFlagBits::eHostCoherent;
    memory_ = vk::raii::DeviceMemory(ctx.device(),
                                     {req.size, ctx.find_memory_type(req.memoryTypeBits, props)});
    buffer_.bindMemory(*memory_, 0);
    if (place == Place::kHost) mapped_ = memory_.mapMemory(0, VK_WHOLE_SIZE);
  } catch (const vk::SystemError& e) {
    throw std::runtime_error("allocating buffer '" + name + "' of " + std::to_string(bytes) +
                             " bytes failed: " + e.what());
  }
}

const GpuBuffer& Transfer::staging(uint64_t bytes) {
  if (!staging_ || staging_->bytes() < bytes)
    staging_ = std::make_unique<GpuBuffer>(ctx_, bytes, GpuBuffer::Place::kHost, "staging");
  return *staging_;
}

void Transfer::upload(const GpuBuffer& dst, uint64_t offset, std::span<const std::byte> data) {
  if (data.empty()) return;
  const GpuBuffer& s = staging(data.size());
  std::memcpy(s.mapped(), data.data(), data.size());
  auto cmd = ctx_.allocate_command_buffer();
  cmd.begin({vk::CommandBufferUsageFlagBits::eOneTimeSubmit});
  cmd.copyBuffer(*s.buffer(), *dst.buffer(), vk::BufferCopy{0, offset, data.size()});
  cmd.end();
  ctx_.submit_and_wait(cmd, "upload of " + dst.name());
}

void Transfer::download(const GpuBuffer& src, uint64_t offset, std::span<std::byte> data) {
  if (data.empty()) return;
  const GpuBuffer& s = staging(data.size());
  auto cmd = ctx_.allocate_command_buffer();
  cmd.begin({vk::CommandBufferUsageFlagBits::eOneTimeSubmit});
  cmd.copyBuffer(*src.buffer(), *s.buffer(), vk::BufferCopy{offset, 0, data.size()});
  cmd.end();
  ctx_.submit_and_wait(cmd, "download of " + src.name());
  std::memcpy(data.data(), s.mapped(), data.size());
}

}  // namespace gnbench
