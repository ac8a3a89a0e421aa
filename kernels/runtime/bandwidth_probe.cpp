#include "kernels/runtime/bandwidth_probe.hpp"

#include <chrono>
#include <random>
#include <span>

#include "kernels/runtime/compute_pipeline.hpp"
#include "kernels/runtime/gpu_buffer.hpp"

namespace gnbench {

namespace {

// One buffer pair: src holds `random`; `samples` timed copies into dst after at least one
// submission of `untimed` copies, repeated until `warm_up` has passed. Returns each timed
// copy's GPU time in ns.
std::vector<double> time_copies(VulkanContext& ctx, const ComputePipeline& pipeline,
                                std::span<const uint32_t> random, uint32_t samples,
                                uint32_t untimed, std::chrono::milliseconds warm_up) {
  const DeviceInfo& info = ctx.info();
  const uint64_t bytes = random.size_bytes();
  GpuBuffer src(ctx, bytes, GpuBuffer::Place::kDevice, "copy source");
  GpuBuffer dst(ctx, bytes, GpuBuffer::Place::kDevice, "copy destination");
  {
    Transfer transfer(ctx);
    transfer.upload(src, 0, std::as_bytes(random));
  }
  vk::DescriptorPoolSize size{vk::DescriptorType::eStorageBuffer, 2};
  vk::raii::DescriptorPool pool(ctx.device(),
                                {vk::DescriptorPoolCreateFlagBits::eFreeDescriptorSet, 1, size});
  vk::DescriptorSetLayout layout = *pipeline.set_layout();
  vk::raii::DescriptorSets sets(ctx.device(), {*pool, layout});
  std::array<vk::DescriptorBufferInfo, 2> infos{
      vk::DescriptorBufferInfo(*src.buffer(), 0, VK_WHOLE_SIZE),
      vk::DescriptorBufferInfo(*dst.buffer(), 0, VK_WHOLE_SIZE)};
  std::array<vk::WriteDescriptorSet, 2> writes{
      vk::WriteDescriptorSet(*sets[0], 0, 0, 1, vk::DescriptorType::eStorageBuffer, nullptr,
                             &infos[0]),
      vk::WriteDescriptorSet(*sets[0], 1, 0, 1, vk::DescriptorType::eStorageBuffer, nullptr,
                             &infos[1])};
  ctx.device().updateDescriptorSets(writes, {});

  // Enough workgroups to fill any current GPU; the grid-stride loop covers the rest.
  const uint32_t groups = static_cast<uint32_t>(std::min<uint64_t>(bytes / 16 / 256, 65535));
  vk::raii::QueryPool queries(ctx.device(), {{}, vk::QueryType::eTimestamp, 2 * samples});
  auto record_copies = [&](uint32_t count, bool timed) {
    auto cmd = ctx.allocate_command_buffer();
    cmd.begin({vk::CommandBufferUsageFlagBits::eOneTimeSubmit});
    if (timed) cmd.resetQueryPool(*queries, 0, 2 * count);
    cmd.bindPipeline(vk::PipelineBindPoint::eCompute, *pipeline.pipeline());
    cmd.bindDescriptorSets(vk::PipelineBindPoint::eCompute, *pipeline.layout(), 0, {*sets[0]}, {});
    vk::MemoryBarrier barrier{vk::AccessFlagBits::eShaderWrite, vk::AccessFlagBits::eShaderWrite};
    for (uint32_t i = 0; i < count; ++i) {
      cmd.pipelineBarrier(vk::PipelineStageFlagBits::eComputeShader,
                          vk::PipelineStageFlagBits::eComputeShader, {}, barrier, {}, {});
      if (timed) cmd.writeTimestamp(vk::PipelineStageFlagBits::eAllCommands, *queries, 2 * i);
      cmd.dispatch(groups, 1, 1);
      if (timed) cmd.writeTimestamp(vk::PipelineStageFlagBits::eAllCommands, *queries, 2 * i + 1);
    }
    cmd.end();
    ctx.submit_and_wait(cmd, "copy-bandwidth probe");
  };
  const auto start = std::chrono::steady_clock::now();
  int round = 0;
  do record_copies(untimed, false);
  while (++round < 100 && std::chrono::steady_clock::now() - start < warm_up);
  record_copies(samples, true);
  auto [result, ticks] =
      queries.getResults<uint64_t>(0, 2 * samples, 2 * samples * sizeof(uint64_t), sizeof(uint64_t),
                                   vk::QueryResultFlagBits::e64 | vk::QueryResultFlagBits::eWait);
  std::vector<double> times;
  for (uint32_t i = 0; i < samples; ++i)
    times.push_back(info.ticks_to_ns(ticks[2 * i], ticks[2 * i + 1]));
  return times;
}

// 8x the cache estimate (at least 256 MiB), capped by what one buffer may bind. A CPU device
// copies at a few GB/s: 4x its cache is past it and keeps the probe to a second.
std::vector<uint32_t> random_source(const DeviceInfo& info) {
  const bool cpu = info.type == "CPU";
  uint64_t bytes = cpu ? 4 * info.last_level_cache_bytes
                       : std::max<uint64_t>(8 * info.last_level_cache_bytes, 256ull << 20);
  bytes = std::min({bytes, info.limits.max_storage_buffer_range,
                    info.limits.max_memory_allocation_size, info.limits.device_local_memory / 4});
  std::vector<uint32_t> random(bytes / 16 * 4);  // whole vec4s
  std::mt19937 rng(12345);
  for (auto& v : random) v = rng();
  return random;
}

}  // namespace

CopyBandwidthProbe::CopyBandwidthProbe(VulkanContext& ctx,
                                       const std::filesystem::path& kernels_folder,
                                       uint32_t samples, uint32_t pairs)
    : ctx_(ctx),
      samples_(ctx.info().type == "CPU" ? std::min<uint32_t>(samples, 5) : samples),
      pairs_(ctx.info().type == "CPU" ? 1 : std::max<uint32_t>(pairs, 1)),
      random_(random_source(ctx.info())),
      pipeline_(ctx, tool_stage(kernels_folder, "copy", {"src", "dst"}),
                ctx.info().limits.subgroup_size) {}

CopyBandwidth CopyBandwidthProbe::measure() {
  const bool cpu = ctx_.info().type == "CPU";
  CopyBandwidth out;
  out.bytes_per_copy = 2 * uint64_t(random_.size()) * sizeof(uint32_t);
  for (uint32_t p = 0; p < pairs_; ++p) {
    // An idle GPU runs at low clocks: the first pair keeps it busy for a while before timing
    // anything, which also warms the device up for the first variant timed after the probe.
    const auto warm_up = std::chrono::milliseconds(p == 0 ? 300 : 0);
    const Statistics t =
        summarize(time_copies(ctx_, pipeline_, random_, samples_, cpu ? 1 : 8, warm_up));
    const double gbps = t.median > 0 ? double(out.bytes_per_copy) / t.median : 0;  // bytes/ns
    out.pairs_gbps.push_back(gbps);
    if (p == 0 || gbps > out.gbps) {
      out.gbps = gbps;
      out.time_ns = t;
    }
  }
  return out;
}

}  // namespace gnbench
