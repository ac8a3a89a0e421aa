// Runs one kernel variant on one problem: allocates the variant's output and scratch
// buffers, binds them per the manifest, records every stage with barriers between them and
// timestamps around them, and reads the outputs back. Outputs are poisoned before each run.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/problem.hpp"
#include "base/statistics.hpp"
#include "base/tensors.hpp"
#include "kernels/runtime/cache_flush.hpp"
#include "kernels/runtime/compute_pipeline.hpp"
#include "kernels/runtime/gpu_buffer.hpp"
#include "kernels/runtime/manifest.hpp"

namespace gnbench {

// The problem's inputs, uploaded once and shared by every variant run on them.
class DeviceInputs {
 public:
  DeviceInputs(VulkanContext& ctx, Transfer& transfer, const Inputs& inputs);
  const GpuBuffer& tensor(const std::string& name) const;

 private:
  GpuBuffer x_, grad_out_, weight_;
};

// Compiled stages of a variant; compile once, reuse for every problem.
struct CompiledVariant {
  const VariantSpec* spec;
  std::vector<std::unique_ptr<ComputePipeline>> stages;
};
CompiledVariant compile_variant(VulkanContext& ctx, const VariantSpec& spec);

// Why a variant does not run on a problem (empty when it does): its `when` condition, a
// feature the device lacks, a dispatch beyond the device's limits that cannot fold.
std::string not_applicable_reason(const VariantSpec& spec, const Shape& shape,
                                  const DeviceInfo& device);

// Bytes of scratch and packed buffers the variant needs beyond the standard tensors.
uint64_t variant_extra_bytes(const VariantSpec& spec, const Shape& shape, uint32_t subgroup_size);

class VariantRunner {
 public:
  VariantRunner(VulkanContext& ctx, Transfer& transfer, const CompiledVariant& variant,
                const Problem& problem, const DeviceInputs& inputs);

  // One poisoned run, outputs read back.
  GpuOutputs run_once();
  // `count` timed samples in one submission. Cold (a flush given): poison the outputs and
  // flush the caches before every sample, outside the timed region; hot (null): back to back
  // after one poisoning.
  // stage_times adds a timestamp after every stage (per-stage times); each one drains the
  // pipeline, so without it only the start and the end of a sample are stamped.
  // calls > 1 (hot only, no stage times): a sample is that many runs back to back between its
  // two timestamps, each after a barrier on the previous one's writes, and its time is the
  // total over `calls`: a run's time as a framework's consecutive calls see it, with no
  // timestamp draining the pipeline around each (as CUDA-graph replays are timed).
  std::vector<SampleTimes> sample(uint32_t count, const CacheFlush* flush, bool stage_times,
                                  uint32_t calls = 1);
  // The outputs the last run or sample left behind.
  GpuOutputs read_outputs();
  // The "zero" scratch buffers that are not all zero now. They are zero-filled before a
  // poisoned run only (the first of a batch of hot samples included); between hot samples the
  // variant must leave them zero itself (a counter reset by its last workgroup), as under a
  // framework that allocates them zeroed once. A fill per hot sample also costs the timed
  // region several microseconds on the H200 (run 31), which no framework would pay.
  std::vector<std::string> dirty_zero_scratch();

  std::vector<std::string> stage_names() const;
  // Workgroup counts actually dispatched per stage (after folding; 0 0 0: its `when` is false).
  const std::vector<std::array<uint32_t, 3>>& dispatches() const { return dispatch_; }

 private:
  // Poisons outputs (when `poison`) and zeroes the scratch buffers that ask for it.
  void record_fills(const vk::raii::CommandBuffer& cmd, bool poison) const;
  void record_stages(const vk::raii::CommandBuffer& cmd, const vk::raii::QueryPool* pool,
                     uint32_t first_query, bool stage_times, uint32_t calls = 1) const;
  void record_stage(const vk::raii::CommandBuffer& cmd, size_t s, bool& dispatched) const;

  VulkanContext& ctx_;
  Transfer& transfer_;
  const CompiledVariant& variant_;
  const Problem& problem_;
  const DeviceInputs& inputs_;
  std::map<std::string, std::unique_ptr<GpuBuffer>> owned_;  // outputs, packed, scratch
  std::unique_ptr<GpuBuffer> params_;
  vk::raii::DescriptorPool pool_{nullptr};
  std::vector<vk::raii::DescriptorSet> sets_;
  std::vector<std::array<uint32_t, 3>> dispatch_;
  vk::raii::QueryPool queries_{nullptr};
  uint32_t query_capacity_ = 0;
};

}  // namespace gnbench
