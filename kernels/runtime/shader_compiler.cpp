#include "kernels/runtime/shader_compiler.hpp"

#include <fstream>
#include <regex>
#include <set>
#include <shaderc/shaderc.hpp>
#include <sstream>
#include <vector>

#include "base/errors.hpp"
#include "base/read_file.hpp"
#include "kernels/runtime/spirv_cache.hpp"

namespace gnbench {

namespace {

std::string read_text(const std::filesystem::path& path) { return read_input_file(path, "shader"); }

class FolderIncluder : public shaderc::CompileOptions::IncluderInterface {
  struct Result {
    shaderc_include_result result;
    std::string name, content;
  };

 public:
  // A file that includes itself (or a cycle) would grow without end: 4 GB was seen.
  static constexpr size_t kMaxDepth = 32;
  static constexpr size_t kMaxTotalBytes = size_t{16} << 20;

  shaderc_include_result* GetInclude(const char* requested, shaderc_include_type,
                                     const char* requesting, size_t depth) override {
    auto* r = new Result;
    auto path = std::filesystem::path(requesting).parent_path() / requested;
    std::error_code ec;
    // shaderc reports `content` as the error when `name` is empty.
    if (depth > kMaxDepth) {
      r->content = "#include nested deeper than " + std::to_string(kMaxDepth) +
                   " levels (does a file include itself?) at " + path.string();
    } else if (!std::filesystem::is_regular_file(path, ec)) {
      // Only regular files: opening a FIFO or a device for reading could block forever.
      r->content = "cannot open " + path.string() + " (not a regular file)";
    } else {
      try {
        r->content = read_input_file(path, "shader include", kMaxTotalBytes - total_);
        r->name = path.string();
        total_ += r->content.size();
      } catch (const ConfigError& e) {
        r->content = std::string(e.what()) + " (includes add up to at most 16 MiB)";
      }
    }
    r->result = {r->name.c_str(), r->name.size(), r->content.c_str(), r->content.size(), r};
    return &r->result;
  }
  void ReleaseInclude(shaderc_include_result* data) override {
    delete static_cast<Result*>(data->user_data);
  }

 private:
  size_t total_ = 0;
};

// shaderc reports "<file>:<line>: error: <what>" lines and a closing "N errors generated.";
// the first error leads the one-line message ("<file>:<line>: shader compile error: <what>"),
// with how many more there are and the defines the shader was compiled with.
std::string one_line_error(const std::string& message, const std::string& shader,
                           const std::string& defs) {
  std::vector<std::string> errors;
  std::istringstream lines(message);
  for (std::string line; std::getline(lines, line);) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty() || line.find("errors generated") != std::string::npos ||
        line.find("error generated") != std::string::npos)
      continue;
    errors.push_back(line);
  }
  if (errors.empty()) errors.push_back(shader + ": shaderc failed without a message");
  std::string first = errors.front();
  const std::string tag = ": error: ";
  if (size_t at = first.find(tag); at != std::string::npos)
    first = first.substr(0, at) + ": shader compile error: " + first.substr(at + tag.size());
  else
    first = shader + ": shader compile error: " + first;
  std::string more;
  if (errors.size() > 1)
    more = " (and " + std::to_string(errors.size() - 1) + " more error" +
           (errors.size() > 2 ? "s" : "") + ")";
  return first + more + " [defines:" + defs + "]";
}

// The options every stage compiles with; `defines` on top. Each call has its own includer
// (its include budget counts one compile).
shaderc::CompileOptions compile_options(const std::map<std::string, std::string>& defines) {
  shaderc::CompileOptions options;
  // Vulkan 1.1 is where subgroup operations became core (SPIR-V 1.3).
  options.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
  options.SetOptimizationLevel(shaderc_optimization_level_performance);
  options.SetIncluder(std::make_unique<FolderIncluder>());
  for (const auto& [name, value] : defines) options.AddMacroDefinition(name, value);
  return options;
}

// Appends `text` and every file it names in an #include "..." or <...> line to `key`,
// resolved as FolderIncluder resolves them (relative to the including file), each file once,
// whatever #if surrounds the line; false when one cannot be read or there are more than
// kMaxKeyFiles.
// Textual on purpose: glslang's preprocessor costs most of a compile.
constexpr size_t kMaxKeyFiles = 64;

bool append_sources(std::string& key, const std::string& text, const std::filesystem::path& folder,
                    std::set<std::filesystem::path>& seen) {
  static const std::regex include(R"re(^[ \t]*#[ \t]*include[ \t]*["<]([^">]+)[">])re");
  key += std::to_string(text.size()) + "\n" + text;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (line.find("include") == std::string::npos || !std::regex_search(line, m, include)) continue;
    const std::filesystem::path path = (folder / m[1].str()).lexically_normal();
    key += "\ninclude " + m[1].str() + "\n";
    if (!seen.insert(path).second) continue;
    std::error_code ec;
    if (seen.size() > kMaxKeyFiles || !std::filesystem::is_regular_file(path, ec)) return false;
    try {
      if (!append_sources(key, read_input_file(path, "shader include", kMaxInputBytes),
                          path.parent_path(), seen))
        return false;
    } catch (const ConfigError&) {
      return false;
    }
  }
  return true;
}

// What a cached module is keyed on: the options of compile_options() (change the first line
// with them), the defines, the source and every file it may include; empty when a file cannot
// be read (the compile then reports it).
std::string cache_key(const std::string& source, const std::filesystem::path& shader,
                      const std::map<std::string, std::string>& defines) {
  uint32_t version = 0, revision = 0;
  shaderc_get_spv_version(&version, &revision);
  std::string key = "glsl compute, vulkan 1.1, optimization performance, shaderc spv " +
                    std::to_string(version) + "." + std::to_string(revision) + "\n";
  for (const auto& [name, value] : defines) key += "-D" + name + "=" + value + "\n";
  std::set<std::filesystem::path> seen;
  if (!append_sources(key, source, shader.parent_path(), seen)) return {};
  return key;
}

}  // namespace

std::vector<uint32_t> compile_glsl(const std::filesystem::path& shader,
                                   const std::map<std::string, std::string>& defines) {
  std::string source = read_text(shader);
  const std::filesystem::path cache = spirv_cache_folder();
  const std::string key = cache.empty() ? std::string() : cache_key(source, shader, defines);
  if (!key.empty())
    if (auto hit = load_cached_spirv(cache, key)) return std::move(*hit);
  shaderc::Compiler compiler;
  auto result = compiler.CompileGlslToSpv(source, shaderc_compute_shader, shader.string().c_str(),
                                          compile_options(defines));
  if (result.GetCompilationStatus() != shaderc_compilation_status_success) {
    std::string defs;
    for (const auto& [name, value] : defines) defs += " -D" + name + "=" + value;
    throw ConfigError(one_line_error(result.GetErrorMessage(), shader.string(), defs));
  }
  std::vector<uint32_t> spirv(result.cbegin(), result.cend());
  if (!key.empty()) store_cached_spirv(cache, key, spirv);
  return spirv;
}

}  // namespace gnbench
