#include "kernels/runtime/compute_pipeline.hpp"

#include "base/errors.hpp"
#include "kernels/runtime/shader_compiler.hpp"
#include "kernels/runtime/spirv_bindings.hpp"

namespace gnbench {

namespace {

// A shader whose descriptors differ from the layout built from the manifest is undefined
// behaviour in Vulkan (lavapipe may crash, others read garbage): reject it before the pipeline.
void check_bindings(const StageSpec& stage, const std::vector<uint32_t>& spirv,
                    const std::vector<vk::DescriptorType>& types) {
  const std::string where = stage.shader.string() + ": ";
  SpirvInterface shader;
  try {
    shader = reflect_spirv(spirv);
  } catch (const std::exception& e) {
    throw ConfigError(where + "cannot read the compiled SPIR-V: " + e.what());
  }
  if (shader.push_constants)
    throw ConfigError(
        where + "the shader declares push constants; gnbench binds only the manifest's buffers");
  for (const auto& b : shader.bindings) {
    const std::string what =
        "shader binding " + std::to_string(b.binding) + (b.name.empty() ? "" : " (" + b.name + ")");
    if (b.set != 0)
      throw ConfigError(where + what + " is in descriptor set " + std::to_string(b.set) +
                        "; the manifest's bindings are set 0");
    if (b.binding >= types.size())
      throw ConfigError(where + what + " has no buffer: the manifest's bindings list has " +
                        std::to_string(types.size()) + " entries (bindings 0.." +
                        std::to_string(types.size() - 1) + ")");
    if (b.array_size != 1)
      throw ConfigError(where + what +
                        " is an array of descriptors; gnbench binds one buffer per binding");
    const bool uniform = types[b.binding] == vk::DescriptorType::eUniformBuffer;
    const SpirvBinding::Kind expected =
        uniform ? SpirvBinding::Kind::kUniformBuffer : SpirvBinding::Kind::kStorageBuffer;
    if (b.kind != expected)
      throw ConfigError(
          where + what + " is " + to_string(b.kind) + " in the shader, but the manifest binds '" +
          stage.bindings[b.binding] + "' there, " + to_string(expected) +
          " ('params' is bound as a uniform buffer, every other name as a storage buffer)");
  }
}

// Every statistic of every executable of the pipeline (a compute pipeline has one; a second
// would be prefixed with its name).
nlohmann::json executable_statistics(const vk::raii::Device& device, vk::Pipeline pipeline) {
  nlohmann::json out = nlohmann::json::object();
  const auto executables = device.getPipelineExecutablePropertiesKHR({pipeline});
  for (uint32_t i = 0; i < executables.size(); ++i) {
    const std::string prefix =
        executables.size() == 1 ? "" : std::string(executables[i].name.data()) + ": ";
    for (const auto& st : device.getPipelineExecutableStatisticsKHR({pipeline, i})) {
      nlohmann::json value;
      switch (st.format) {
        case vk::PipelineExecutableStatisticFormatKHR::eBool32: value = bool(st.value.b32); break;
        case vk::PipelineExecutableStatisticFormatKHR::eInt64: value = st.value.i64; break;
        case vk::PipelineExecutableStatisticFormatKHR::eUint64: value = st.value.u64; break;
        case vk::PipelineExecutableStatisticFormatKHR::eFloat64: value = st.value.f64; break;
      }
      out[prefix + st.name.data()] = value;
    }
  }
  return out;
}

}  // namespace

std::vector<uint32_t> compile_stage(const StageSpec& stage, uint32_t subgroup_size) {
  auto defines = stage.defines;
  defines["WG_SIZE"] = std::to_string(stage.workgroup_size);
  defines["SUBGROUP_SIZE"] = std::to_string(subgroup_size);
  return compile_glsl(stage.shader, defines);
}

ComputePipeline::ComputePipeline(const VulkanContext& ctx, const StageSpec& stage,
                                 uint32_t subgroup_size) {
  std::vector<uint32_t> spirv = compile_stage(stage, subgroup_size);

  std::vector<vk::DescriptorSetLayoutBinding> bindings;
  for (uint32_t i = 0; i < stage.bindings.size(); ++i) {
    types_.push_back(stage.bindings[i] == "params" ? vk::DescriptorType::eUniformBuffer
                                                   : vk::DescriptorType::eStorageBuffer);
    bindings.push_back({i, types_.back(), 1, vk::ShaderStageFlagBits::eCompute});
  }
  check_bindings(stage, spirv, types_);
  set_layout_ = vk::raii::DescriptorSetLayout(ctx.device(), {{}, bindings});
  vk::DescriptorSetLayout set_layout = *set_layout_;
  layout_ = vk::raii::PipelineLayout(ctx.device(), {{}, set_layout});
  vk::raii::ShaderModule module(ctx.device(), {{}, spirv});
  const bool capture = ctx.info().executable_statistics;
  vk::ComputePipelineCreateInfo info{
      capture ? vk::PipelineCreateFlagBits::eCaptureStatisticsKHR : vk::PipelineCreateFlags{},
      {{}, vk::ShaderStageFlagBits::eCompute, *module, "main"},
      *layout_};
  pipeline_ = vk::raii::Pipeline(ctx.device(), nullptr, info);
  if (!capture) return;
  // Informational only: a driver that offers the extension but fails the query still runs.
  try {
    statistics_ = executable_statistics(ctx.device(), *pipeline_);
  } catch (const vk::SystemError&) {
    statistics_ = nlohmann::json::object();
  }
}

}  // namespace gnbench
