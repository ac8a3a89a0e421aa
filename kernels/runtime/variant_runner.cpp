#include "kernels/runtime/variant_runner.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include "base/errors.hpp"

namespace gnbench {

namespace {

uint64_t tensor_bytes(const std::string& tensor, const Shape& s) {
  bool per_channel = tensor == "weight" || tensor == "grad_weight" || tensor == "grad_bias";
  return (per_channel ? uint64_t{s.channels} : s.elements()) * sizeof(float);
}

uint64_t buffer_bytes(const BufferSpec& b, const Shape& s, const Variables& vars) {
  if (b.kind == BufferSpec::Kind::kScratch) {
    int64_t bytes = b.scratch_bytes->evaluate(vars);
    if (bytes < 0)
      throw ConfigError(b.scratch_bytes->text() + " = " + std::to_string(bytes) +
                        ": scratch size must be >= 0");
    return static_cast<uint64_t>(bytes);
  }
  uint64_t total = 0;
  for (const auto& t : b.tensors) total += tensor_bytes(t, s);
  return total;
}

// Workgroup counts per stage, with an x count beyond the device limit folded into y.
std::array<uint32_t, 3> stage_dispatch(const StageSpec& stage, const Variables& vars,
                                       const DeviceLimits& limits, std::string* why_not) {
  std::array<int64_t, 3> d{};
  for (int i = 0; i < 3; ++i) {
    d[i] = stage.dispatch[i].evaluate(vars);
    // Not a SKIP: a variant that applies must dispatch something (a manifest error).
    if (d[i] < 1 || d[i] > int64_t{UINT32_MAX})
      throw ConfigError(stage.dispatch[i].where() + ": expression '" + stage.dispatch[i].text() +
                        "' = " + std::to_string(d[i]) +
                        ": a workgroup count must be in [1, 4294967295]");
  }
  const auto& max = limits.max_workgroup_count;
  if (d[0] > max[0]) {
    if (!stage.foldable || d[1] != 1) {
      *why_not = "stage " + stage.name + ": " + std::to_string(d[0]) +
                 " workgroups exceed maxComputeWorkGroupCount[0] " + std::to_string(max[0]) +
                 " and the stage is not foldable";
      return {};
    }
    int64_t rows = (d[0] + max[0] - 1) / max[0];
    d[0] = (d[0] + rows - 1) / rows;
    d[1] = rows;
  }
  for (int i = 0; i < 3; ++i)
    if (d[i] > max[i]) {
      *why_not = "stage " + stage.name + ": dispatch[" + std::to_string(i) +
                 "] = " + std::to_string(d[i]) + " exceeds maxComputeWorkGroupCount[" +
                 std::to_string(i) + "] " + std::to_string(max[i]);
      return {};
    }
  return {static_cast<uint32_t>(d[0]), static_cast<uint32_t>(d[1]), static_cast<uint32_t>(d[2])};
}

void compute_to_compute_barrier(const vk::raii::CommandBuffer& cmd) {
  using A = vk::AccessFlagBits;
  vk::MemoryBarrier barrier{A::eShaderWrite | A::eTransferWrite, A::eShaderRead | A::eShaderWrite};
  cmd.pipelineBarrier(
      vk::PipelineStageFlagBits::eComputeShader | vk::PipelineStageFlagBits::eTransfer,
      vk::PipelineStageFlagBits::eComputeShader, {}, barrier, {}, {});
}

// Before refilling buffers that earlier commands of the same command buffer read or wrote
// (the next sample's cache flush, poison and zeroed scratch): without it the fills race the
// previous sample's dispatches (synchronization validation: WRITE_AFTER_WRITE/READ).
void compute_to_transfer_barrier(const vk::raii::CommandBuffer& cmd) {
  using A = vk::AccessFlagBits;
  vk::MemoryBarrier barrier{A::eShaderWrite | A::eTransferWrite, A::eTransferWrite};
  cmd.pipelineBarrier(
      vk::PipelineStageFlagBits::eComputeShader | vk::PipelineStageFlagBits::eTransfer,
      vk::PipelineStageFlagBits::eTransfer, {}, barrier, {}, {});
}

std::span<std::byte> bytes_of(Eigen::ArrayXf& a) {
  return {reinterpret_cast<std::byte*>(a.data()), static_cast<size_t>(a.size()) * sizeof(float)};
}
std::span<const std::byte> bytes_of(const Eigen::ArrayXf& a) {
  return {reinterpret_cast<const std::byte*>(a.data()),
          static_cast<size_t>(a.size()) * sizeof(float)};
}

}  // namespace

DeviceInputs::DeviceInputs(VulkanContext& ctx, Transfer& transfer, const Inputs& in)
    : x_(ctx, in.x.size() * 4, GpuBuffer::Place::kDevice, "x"),
      grad_out_(ctx, in.grad_out.size() * 4, GpuBuffer::Place::kDevice, "grad_out"),
      weight_(ctx, in.weight.size() * 4, GpuBuffer::Place::kDevice, "weight") {
  transfer.upload(x_, 0, bytes_of(in.x));
  transfer.upload(grad_out_, 0, bytes_of(in.grad_out));
  transfer.upload(weight_, 0, bytes_of(in.weight));
}

const GpuBuffer& DeviceInputs::tensor(const std::string& name) const {
  if (name == "x") return x_;
  if (name == "grad_out") return grad_out_;
  return weight_;
}

CompiledVariant compile_variant(VulkanContext& ctx, const VariantSpec& spec) {
  CompiledVariant compiled{&spec, {}};
  for (const auto& stage : spec.stages) {
    try {
      compiled.stages.push_back(
          std::make_unique<ComputePipeline>(ctx, stage, ctx.info().limits.subgroup_size));
    } catch (const ConfigError& e) {  // the shader's own message first, then which variant
      throw ConfigError(std::string(e.what()) + " (variant '" + spec.name + "', stage '" +
                        stage.name + "', " + spec.manifest.string() + ")");
    }
  }
  return compiled;
}

std::string not_applicable_reason(const VariantSpec& spec, const Shape& shape,
                                  const DeviceInfo& device) {
  for (const auto& f : spec.requires_features)
    if (!device.has(f)) return "device lacks " + f;
  Variables vars = problem_variables(shape, device.limits.subgroup_size);
  if (spec.when && !spec.when->evaluate(vars)) return spec.when->explain_false(vars);
  std::string why;
  for (const auto& stage : spec.stages) {
    if (!stage_runs(stage, vars)) continue;
    stage_dispatch(stage, vars, device.limits, &why);
    if (!why.empty()) return why;
  }
  for (const auto& b : spec.buffers)
    if (b.kind != BufferSpec::Kind::kTensor &&
        buffer_bytes(b, shape, vars) > device.limits.max_storage_buffer_range)
      return "buffer " + b.name + " (" + std::to_string(buffer_bytes(b, shape, vars)) +
             " bytes) exceeds maxStorageBufferRange " +
             std::to_string(device.limits.max_storage_buffer_range);
  return "";
}

uint64_t variant_extra_bytes(const VariantSpec& spec, const Shape& shape, uint32_t subgroup_size) {
  Variables vars = problem_variables(shape, subgroup_size);
  uint64_t total = 0;
  for (const auto& b : spec.buffers)
    if (b.kind == BufferSpec::Kind::kScratch) total += buffer_bytes(b, shape, vars);
  return total;
}

VariantRunner::VariantRunner(VulkanContext& ctx, Transfer& transfer, const CompiledVariant& variant,
                             const Problem& problem, const DeviceInputs& inputs)
    : ctx_(ctx), transfer_(transfer), variant_(variant), problem_(problem), inputs_(inputs) {
  const VariantSpec& spec = *variant.spec;
  const Shape& shape = problem.shape;
  Variables vars = problem_variables(shape, ctx.info().limits.subgroup_size);

  for (const auto& b : spec.buffers) {
    bool is_input = b.kind == BufferSpec::Kind::kTensor && !is_output_tensor(b.tensors[0]);
    if (!is_input)
      owned_[b.name] = std::make_unique<GpuBuffer>(ctx, buffer_bytes(b, shape, vars),
                                                   GpuBuffer::Place::kDevice, b.name);
  }

  // The seed's Params layout, then up to 8 variant-specific values.
  std::array<uint32_t, 16> params{shape.batch, shape.channels, shape.spatial, shape.groups,
                                  std::bit_cast<uint32_t>(problem.eps)};
  for (size_t i = 0; i < spec.params.size(); ++i) {
    int64_t v = spec.params[i].evaluate(vars);
    if (v < 0 || v > UINT32_MAX)
      throw ConfigError(spec.manifest.string() + ": params[" + std::to_string(i) +
                        "] = " + std::to_string(v) + " does not fit a u32");
    params[8 + i] = static_cast<uint32_t>(v);
  }
  params_ = std::make_unique<GpuBuffer>(ctx, sizeof params, GpuBuffer::Place::kDevice, "params");
  transfer.upload(*params_, 0, std::as_bytes(std::span(params)));

  std::string why;
  for (const auto& stage : spec.stages) {
    if (!stage_runs(stage, vars)) {
      dispatch_.push_back({0, 0, 0});
      continue;
    }
    dispatch_.push_back(stage_dispatch(stage, vars, ctx.info().limits, &why));
    if (!why.empty()) throw ConfigError(spec.manifest.string() + ": " + why);
  }

  uint32_t storage = 0, uniform = 0;
  for (const auto& p : variant.stages)
    for (auto t : p->binding_types())
      (t == vk::DescriptorType::eUniformBuffer ? uniform : storage)++;
  std::vector<vk::DescriptorPoolSize> sizes;
  if (storage) sizes.push_back({vk::DescriptorType::eStorageBuffer, storage});
  if (uniform) sizes.push_back({vk::DescriptorType::eUniformBuffer, uniform});
  pool_ =
      vk::raii::DescriptorPool(ctx.device(), {vk::DescriptorPoolCreateFlagBits::eFreeDescriptorSet,
                                              static_cast<uint32_t>(spec.stages.size()), sizes});
  for (size_t s = 0; s < spec.stages.size(); ++s) {
    vk::DescriptorSetLayout layout = *variant.stages[s]->set_layout();
    vk::raii::DescriptorSets sets(ctx.device(), {*pool_, layout});
    sets_.push_back(std::move(sets.front()));
    const auto& names = spec.stages[s].bindings;
    std::vector<vk::DescriptorBufferInfo> infos(names.size());
    std::vector<vk::WriteDescriptorSet> writes;
    for (uint32_t i = 0; i < names.size(); ++i) {
      const GpuBuffer* buf = names[i] == "params" ? params_.get() : nullptr;
      if (!buf) {
        const BufferSpec* b = spec.buffer(names[i]);
        buf = owned_.count(b->name) ? owned_.at(b->name).get() : &inputs.tensor(b->tensors[0]);
      }
      infos[i] = vk::DescriptorBufferInfo(*buf->buffer(), 0, VK_WHOLE_SIZE);
      writes.push_back(
          {*sets_.back(), i, 0, 1, variant.stages[s]->binding_types()[i], nullptr, &infos[i]});
    }
    ctx.device().updateDescriptorSets(writes, {});
  }
}

std::vector<std::string> VariantRunner::stage_names() const {
  std::vector<std::string> names;
  for (const auto& s : variant_.spec->stages) names.push_back(s.name);
  return names;
}

void VariantRunner::record_fills(const vk::raii::CommandBuffer& cmd, bool poison) const {
  for (const auto& b : variant_.spec->buffers) {
    auto it = owned_.find(b.name);
    if (it == owned_.end() || (!poison && !b.zero_fill)) continue;
    cmd.fillBuffer(*it->second->buffer(), 0, VK_WHOLE_SIZE, b.zero_fill ? 0u : kPoisonBits);
  }
}

void VariantRunner::record_stages(const vk::raii::CommandBuffer& cmd,
                                  const vk::raii::QueryPool* pool, uint32_t first_query,
                                  bool stage_times, uint32_t calls) const {
  // Every prior fill, flush or run completes before the first timestamp.
  compute_to_compute_barrier(cmd);
  if (pool) cmd.writeTimestamp(vk::PipelineStageFlagBits::eAllCommands, **pool, first_query);
  bool dispatched = false;
  // calls > 1: runs back to back, stamped only after the last one.
  for (uint32_t c = 0; c < calls; ++c) {
    for (size_t s = 0; s < variant_.stages.size(); ++s) {
      // A stage off for this problem (dispatch 0 0 0) still gets its timestamp: its time reads 0.
      record_stage(cmd, s, dispatched);
      const bool last = s + 1 == variant_.stages.size();
      if (pool && c + 1 == calls && (stage_times || last))
        cmd.writeTimestamp(vk::PipelineStageFlagBits::eAllCommands, **pool,
                           first_query + (stage_times ? 1 + s : 1));
    }
  }
}

// Stage s, after a barrier on the previous dispatch's writes (a previous run's last one
// included); nothing where the stage is off for this problem.
void VariantRunner::record_stage(const vk::raii::CommandBuffer& cmd, size_t s,
                                 bool& dispatched) const {
  if (dispatch_[s][0] == 0) return;
  if (dispatched) compute_to_compute_barrier(cmd);
  const auto& p = *variant_.stages[s];
  cmd.bindPipeline(vk::PipelineBindPoint::eCompute, *p.pipeline());
  cmd.bindDescriptorSets(vk::PipelineBindPoint::eCompute, *p.layout(), 0, {*sets_[s]}, {});
  cmd.dispatch(dispatch_[s][0], dispatch_[s][1], dispatch_[s][2]);
  dispatched = true;
}

GpuOutputs VariantRunner::run_once() {
  auto cmd = ctx_.allocate_command_buffer();
  cmd.begin({vk::CommandBufferUsageFlagBits::eOneTimeSubmit});
  record_fills(cmd, true);
  record_stages(cmd, nullptr, 0, false);
  cmd.end();
  ctx_.submit_and_wait(cmd, "variant " + variant_.spec->name + " on problem " + problem_.name);
  return read_outputs();
}

std::vector<SampleTimes> VariantRunner::sample(uint32_t count, const CacheFlush* flush,
                                               bool stage_times, uint32_t calls) {
  const DeviceInfo& info = ctx_.info();
  if (info.timestamp_valid_bits == 0)
    throw std::runtime_error(info.name + ": the compute queue has no timestamps");
  if (calls == 0 || (calls > 1 && (flush || stage_times)))
    throw std::logic_error(
        "runs per sample: at least 1, and more only for hot samples without "
        "stage times");
  const uint32_t per_sample = stage_times ? static_cast<uint32_t>(variant_.stages.size()) + 1 : 2;
  if (query_capacity_ < count * per_sample) {
    query_capacity_ = count * per_sample;
    queries_ = vk::raii::QueryPool(ctx_.device(), {{}, vk::QueryType::eTimestamp, query_capacity_});
  }
  const bool cold = flush != nullptr;
  auto cmd = ctx_.allocate_command_buffer();
  cmd.begin({vk::CommandBufferUsageFlagBits::eOneTimeSubmit});
  cmd.resetQueryPool(*queries_, 0, count * per_sample);
  for (uint32_t i = 0; i < count; ++i) {
    if (i) compute_to_transfer_barrier(cmd);
    // Hot samples poison and zero once; the variant keeps its "zero" scratch zero itself.
    if (cold && flush->method() == FlushMethod::kFill) {
      flush->record(cmd, i);
      record_fills(cmd, true);
    } else if (cold) {
      // Poison first, then the read flush evicts those dirty lines before the timed region.
      record_fills(cmd, true);
      compute_to_compute_barrier(cmd);
      flush->record(cmd, i);
    } else if (i == 0) {
      record_fills(cmd, true);
    }
    record_stages(cmd, &queries_, i * per_sample, stage_times, calls);
  }
  cmd.end();
  ctx_.submit_and_wait(cmd,
                       "timing variant " + variant_.spec->name + " on problem " + problem_.name);

  std::vector<uint64_t> ticks(count * per_sample);
  auto r = queries_.getResults<uint64_t>(
      0, count * per_sample, ticks.size() * sizeof(uint64_t), sizeof(uint64_t),
      vk::QueryResultFlagBits::e64 | vk::QueryResultFlagBits::eWait);
  ticks = r.second;
  auto elapsed = [&](uint64_t a, uint64_t b) { return info.ticks_to_ns(a, b); };
  std::vector<SampleTimes> out(count);
  for (uint32_t i = 0; i < count; ++i) {
    const uint64_t* t = &ticks[i * per_sample];
    out[i].total_ns = elapsed(t[0], t[per_sample - 1]) / calls;
    out[i].runs = calls;
    if (stage_times)
      for (uint32_t s = 0; s + 1 < per_sample; ++s)
        out[i].stage_ns.push_back(elapsed(t[s], t[s + 1]));
  }
  return out;
}

std::vector<std::string> VariantRunner::dirty_zero_scratch() {
  std::vector<std::string> dirty;
  for (const auto& b : variant_.spec->buffers) {
    if (!b.zero_fill) continue;
    const GpuBuffer& buf = *owned_.at(b.name);
    std::vector<uint32_t> words(buf.bytes() / sizeof(uint32_t));
    transfer_.download(buf, 0, std::as_writable_bytes(std::span(words)));
    if (std::ranges::any_of(words, [](uint32_t w) { return w != 0; })) dirty.push_back(b.name);
  }
  return dirty;
}

GpuOutputs VariantRunner::read_outputs() {
  const Shape& s = problem_.shape;
  GpuOutputs out{Eigen::ArrayXf(s.elements()), Eigen::ArrayXf(s.channels),
                 Eigen::ArrayXf(s.channels)};
  std::map<std::string, Eigen::ArrayXf*> dst{{"grad_input", &out.grad_input},
                                             {"grad_weight", &out.grad_weight},
                                             {"grad_bias", &out.grad_bias}};
  for (const auto& b : variant_.spec->buffers) {
    if (b.kind == BufferSpec::Kind::kScratch || !is_output_tensor(b.tensors[0])) continue;
    uint64_t offset = 0;
    for (const auto& t : b.tensors) {
      transfer_.download(*owned_.at(b.name), offset, bytes_of(*dst.at(t)));
      offset += tensor_bytes(t, s);
    }
  }
  return out;
}

}  // namespace gnbench
