// What runs before every cold sample to take the problem's data out of the caches. `read`
// (the default) reads a buffer of twice the last-level cache with a compute dispatch after
// the outputs are poisoned, so the timed region starts with clean lines of unrelated data in
// the cache; `fill` is the flush before run 21 (vkCmdFillBuffer of that buffer, then the
// poison fills), which leaves the cache full of dirty lines that the timed kernel must write
// back as it evicts them. Kept to A/B the two on a GPU (docs/performance.md, "Cold samples").
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "kernels/runtime/compute_pipeline.hpp"
#include "kernels/runtime/gpu_buffer.hpp"

namespace gnbench {

enum class FlushMethod { kRead, kFill };

class CacheFlush {
 public:
  CacheFlush(VulkanContext& ctx, const std::filesystem::path& kernels_folder, FlushMethod method);
  ~CacheFlush();

  FlushMethod method() const { return method_; }
  // Records one flush; `sample` varies the fill value. The caller orders it with barriers.
  void record(const vk::raii::CommandBuffer& cmd, uint32_t sample) const;

 private:
  FlushMethod method_;
  std::unique_ptr<GpuBuffer> buffer_, sink_;
  std::unique_ptr<ComputePipeline> pipeline_;
  vk::raii::DescriptorPool pool_{nullptr};
  vk::raii::DescriptorSet set_{nullptr};
  uint32_t groups_ = 1;
};

}  // namespace gnbench
