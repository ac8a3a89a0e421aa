// One compute stage turned into Vulkan objects: shader module, descriptor-set layout from the
// manifest's bindings (storage buffers, and the uniform for "params"), pipeline layout and
// pipeline. Built once per (variant, stage) and reused across problems.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>
#include <vulkan/vulkan_raii.hpp>

#include "kernels/runtime/manifest.hpp"
#include "kernels/runtime/vulkan_context.hpp"

namespace gnbench {

// The stage's GLSL compiled with its defines plus WG_SIZE and SUBGROUP_SIZE: exactly the
// module a pipeline is built from (also what `gnbench kernels --spirv` writes).
std::vector<uint32_t> compile_stage(const StageSpec& stage, uint32_t subgroup_size);

class ComputePipeline {
 public:
  ComputePipeline(const VulkanContext& ctx, const StageSpec& stage, uint32_t subgroup_size);

  const vk::raii::DescriptorSetLayout& set_layout() const { return set_layout_; }
  const vk::raii::PipelineLayout& layout() const { return layout_; }
  const vk::raii::Pipeline& pipeline() const { return pipeline_; }
  const std::vector<vk::DescriptorType>& binding_types() const { return types_; }
  // What the driver says about the compiled code (VK_KHR_pipeline_executable_properties):
  // {statistic name: value}, e.g. NVIDIA's register count; empty where not supported.
  const nlohmann::json& statistics() const { return statistics_; }

 private:
  std::vector<vk::DescriptorType> types_;
  vk::raii::DescriptorSetLayout set_layout_{nullptr};
  vk::raii::PipelineLayout layout_{nullptr};
  vk::raii::Pipeline pipeline_{nullptr};
  nlohmann::json statistics_ = nlohmann::json::object();
};

}  // namespace gnbench
