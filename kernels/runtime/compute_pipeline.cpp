#include "runtime/compute_pipeline.hpp"

#include "runtime/shader_compiler.hpp"

namespace gnbench {

ComputePipeline::ComputePipeline(const VulkanContext& ctx, const StageSpec& stage, uint32_t subgroup_size) {
  auto defines = stage.defines;
  defines["WG_SIZE"] = std::to_string(stage.workgroup_size);
  defines["SUBGROUP_SIZE"] = std::to_string(subgroup_size);
  std::vector<uint32_t> spirv = compile_glsl(stage.shader, defines);

  std::vector<vk::DescriptorSetLayoutBinding> bindings;
  for (uint32_t i = 0; i < stage.bindings.size(); ++i) {
    types_.push_back(stage.bindings[i] == "params" ? vk::DescriptorType::eUniformBuffer
                                                   : vk::DescriptorType::eStorageBuffer);
    bindings.push_back({i, types_.back(), 1, vk::ShaderStageFlagBits::eCompute});
  }
  set_layout_ = vk::raii::DescriptorSetLayout(ctx.device(), {{}, bindings});
  vk::DescriptorSetLayout set_layout = *set_layout_;
  layout_ = vk::raii::PipelineLayout(ctx.device(), {{}, set_layout});
  vk::raii::ShaderModule module(ctx.device(), {{}, spirv});
  vk::ComputePipelineCreateInfo info{
      {}, {{}, vk::ShaderStageFlagBits::eCompute, *module, "main"}, *layout_};
  pipeline_ = vk::raii::Pipeline(ctx.device(), nullptr, info);
}

}  // namespace gnbench
