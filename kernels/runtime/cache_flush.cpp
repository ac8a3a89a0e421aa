#include "kernels/runtime/cache_flush.hpp"

#include <algorithm>
#include <array>

namespace gnbench {

CacheFlush::CacheFlush(VulkanContext& ctx, const std::filesystem::path& kernels_folder,
                       FlushMethod method)
    : method_(method) {
  const DeviceInfo& info = ctx.info();
  // Twice the last-level cache, within what one allocation and one binding may be.
  uint64_t bytes =
      std::min({2 * info.last_level_cache_bytes, info.limits.max_memory_allocation_size / 2,
                info.limits.max_storage_buffer_range});
  bytes &= ~uint64_t{15};
  buffer_ = std::make_unique<GpuBuffer>(ctx, bytes, GpuBuffer::Place::kDevice, "cache flush");
  if (method_ == FlushMethod::kFill) return;

  // Written once, so that its lines are clean when the flush reads them.
  {
    auto cmd = ctx.allocate_command_buffer();
    cmd.begin({vk::CommandBufferUsageFlagBits::eOneTimeSubmit});
    cmd.fillBuffer(*buffer_->buffer(), 0, VK_WHOLE_SIZE, 0x9E3779B9u);
    cmd.end();
    ctx.submit_and_wait(cmd, "cache flush buffer");
  }
  sink_ = std::make_unique<GpuBuffer>(ctx, 16, GpuBuffer::Place::kDevice, "cache flush sink");
  pipeline_ = std::make_unique<ComputePipeline>(
      ctx, tool_stage(kernels_folder, "flush", {"src", "sink"}), info.limits.subgroup_size);
  vk::DescriptorPoolSize size{vk::DescriptorType::eStorageBuffer, 2};
  pool_ = vk::raii::DescriptorPool(ctx.device(),
                                   {vk::DescriptorPoolCreateFlagBits::eFreeDescriptorSet, 1, size});
  vk::DescriptorSetLayout layout = *pipeline_->set_layout();
  vk::raii::DescriptorSets sets(ctx.device(), {*pool_, layout});
  set_ = std::move(sets.front());
  std::array<vk::DescriptorBufferInfo, 2> infos{
      vk::DescriptorBufferInfo(*buffer_->buffer(), 0, VK_WHOLE_SIZE),
      vk::DescriptorBufferInfo(*sink_->buffer(), 0, VK_WHOLE_SIZE)};
  std::array<vk::WriteDescriptorSet, 2> writes{
      vk::WriteDescriptorSet(*set_, 0, 0, 1, vk::DescriptorType::eStorageBuffer, nullptr,
                             &infos[0]),
      vk::WriteDescriptorSet(*set_, 1, 0, 1, vk::DescriptorType::eStorageBuffer, nullptr,
                             &infos[1])};
  ctx.device().updateDescriptorSets(writes, {});
  // Enough workgroups to fill any current GPU; the grid-stride loop covers the rest.
  groups_ = static_cast<uint32_t>(std::clamp<uint64_t>(bytes / 16 / 256, 1, 65535));
}

CacheFlush::~CacheFlush() = default;

void CacheFlush::record(const vk::raii::CommandBuffer& cmd, uint32_t sample) const {
  if (method_ == FlushMethod::kFill) {
    cmd.fillBuffer(*buffer_->buffer(), 0, VK_WHOLE_SIZE, sample);
    return;
  }
  cmd.bindPipeline(vk::PipelineBindPoint::eCompute, *pipeline_->pipeline());
  cmd.bindDescriptorSets(vk::PipelineBindPoint::eCompute, *pipeline_->layout(), 0, {*set_}, {});
  cmd.dispatch(groups_, 1, 1);
}

}  // namespace gnbench
