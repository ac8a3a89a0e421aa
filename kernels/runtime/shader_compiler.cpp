#include "runtime/shader_compiler.hpp"

#include <fstream>
#include <sstream>

#include <shaderc/shaderc.hpp>

#include "config/config_error.hpp"

namespace gnbench {

namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError(path.string() + ": cannot read shader");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class FolderIncluder : public shaderc::CompileOptions::IncluderInterface {
  struct Result {
    shaderc_include_result result;
    std::string name, content;
  };

 public:
  shaderc_include_result* GetInclude(const char* requested, shaderc_include_type,
                                     const char* requesting, size_t) override {
    auto* r = new Result;
    auto path = std::filesystem::path(requesting).parent_path() / requested;
    std::ifstream in(path);
    if (in) {
      std::stringstream s;
      s << in.rdbuf();
      r->name = path.string();
      r->content = s.str();
    } else {
      r->content = "cannot open " + path.string();  // shaderc reports content as the error
    }
    r->result = {r->name.c_str(), r->name.size(), r->content.c_str(), r->content.size(), r};
    return &r->result;
  }
  void ReleaseInclude(shaderc_include_result* data) override { delete static_cast<Result*>(data->user_data); }
};

}  // namespace

std::vector<uint32_t> compile_glsl(const std::filesystem::path& shader,
                                   const std::map<std::string, std::string>& defines) {
  std::string source = read_text(shader);
  shaderc::Compiler compiler;
  shaderc::CompileOptions options;
  // Vulkan 1.1 is where subgroup operations became core (SPIR-V 1.3).
  options.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
  options.SetOptimizationLevel(shaderc_optimization_level_performance);
  options.SetIncluder(std::make_unique<FolderIncluder>());
  for (const auto& [name, value] : defines) options.AddMacroDefinition(name, value);
  auto result = compiler.CompileGlslToSpv(source, shaderc_compute_shader, shader.string().c_str(), options);
  if (result.GetCompilationStatus() != shaderc_compilation_status_success) {
    std::string message = result.GetErrorMessage();
    std::string defs;
    for (const auto& [name, value] : defines) defs += " -D" + name + "=" + value;
    // shaderc's lines read "<file>:<line>: error: ..."; keep them, first line first.
    while (!message.empty() && message.back() == '\n') message.pop_back();
    throw ConfigError("shader compile error (defines:" + defs + "): " + message);
  }
  return {result.cbegin(), result.cend()};
}

}  // namespace gnbench
