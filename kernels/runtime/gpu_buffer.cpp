#include "kernels/runtime/gpu_buffer.hpp"

#include <cstring>

#include "base/parallel_for.hpp"

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
    using F = vk::MemoryPropertyFlagBits;
    const auto cached = place == Place::kHostRead
                            ? ctx.memory_type(req.memoryTypeBits, F::eHostVisible | F::eHostCached)
                            : std::nullopt;
    const uint32_t type =
        place == Place::kDevice ? ctx.find_memory_type(req.memoryTypeBits, F::eDeviceLocal)
        : cached                ? *cached
                 : ctx.find_memory_type(req.memoryTypeBits, F::eHostVisible | F::eHostCoherent);
    coherent_ = bool(ctx.memory_type_flags(type) & F::eHostCoherent);
    memory_ = vk::raii::DeviceMemory(ctx.device(), {req.size, type});
    buffer_.bindMemory(*memory_, 0);
    if (place != Place::kDevice) mapped_ = memory_.mapMemory(0, VK_WHOLE_SIZE);
  } catch (const vk::SystemError& e) {
    throw std::runtime_error("allocating buffer '" + name + "' of " + std::to_string(bytes) +
                             " bytes failed: " + e.what());
  }
}

void GpuBuffer::invalidate() const {
  if (!coherent_ && mapped_)
    memory_.getDevice().invalidateMappedMemoryRanges(
        vk::MappedMemoryRange{*memory_, 0, VK_WHOLE_SIZE});
}

const GpuBuffer& Transfer::staging(std::unique_ptr<GpuBuffer>& slot, uint64_t bytes,
                                   GpuBuffer::Place place) {
  if (!slot || slot->bytes() < bytes) {
    slot.reset();  // freed before the larger one is allocated
    slot = std::make_unique<GpuBuffer>(ctx_, bytes, place, "staging");
  }
  return *slot;
}

namespace {

// A large copy to or from mapped memory on the thread pool: one thread reads host-cached
// staging memory at a few GB/s, and fresh destination pages fault in one at a time.
void parallel_copy(void* dst, const void* src, size_t bytes) {
  parallel_chunks(bytes, uint64_t{4} << 20, bytes / 4, [&](uint64_t begin, uint64_t size) {
    std::memcpy(static_cast<std::byte*>(dst) + begin, static_cast<const std::byte*>(src) + begin,
                size);
  });
}

}  // namespace

void Transfer::upload(const GpuBuffer& dst, uint64_t offset, std::span<const std::byte> data) {
  if (data.empty()) return;
  const GpuBuffer& s = staging(upload_staging_, data.size(), GpuBuffer::Place::kHost);
  parallel_copy(s.mapped(), data.data(), data.size());
  auto cmd = ctx_.allocate_command_buffer();
  cmd.begin({vk::CommandBufferUsageFlagBits::eOneTimeSubmit});
  cmd.copyBuffer(*s.buffer(), *dst.buffer(), vk::BufferCopy{0, offset, data.size()});
  cmd.end();
  ctx_.submit_and_wait(cmd, "upload of " + dst.name());
}

void Transfer::download(const GpuBuffer& src, uint64_t offset, std::span<std::byte> data) {
  if (data.empty()) return;
  const GpuBuffer& s = staging(download_staging_, data.size(), GpuBuffer::Place::kHostRead);
  auto cmd = ctx_.allocate_command_buffer();
  cmd.begin({vk::CommandBufferUsageFlagBits::eOneTimeSubmit});
  cmd.copyBuffer(*src.buffer(), *s.buffer(), vk::BufferCopy{offset, 0, data.size()});
  // The copy's writes made visible to the host's reads after the fence.
  cmd.pipelineBarrier(
      vk::PipelineStageFlagBits::eTransfer, vk::PipelineStageFlagBits::eHost, {},
      vk::MemoryBarrier{vk::AccessFlagBits::eTransferWrite, vk::AccessFlagBits::eHostRead}, {}, {});
  cmd.end();
  ctx_.submit_and_wait(cmd, "download of " + src.name());
  s.invalidate();
  parallel_copy(data.data(), s.mapped(), data.size());
}

}  // namespace gnbench
