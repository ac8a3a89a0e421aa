#include <iostream>

#include "base/errors.hpp"
#include "base/output_target.hpp"
#include "cli/commands/commands.hpp"
#include "kernels/runtime/compute_pipeline.hpp"
#include "kernels/runtime/manifest.hpp"

namespace gnbench {
namespace {

void write_spirv(const std::vector<VariantSpec>& variants, const KernelsCommand& cmd) {
  const auto& dir = *cmd.spirv_dir;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw ConfigError("--spirv '" + dir.string() + "': " + ec.message());
  // Every path checked before the first compile: an existing file without --force is a usage
  // error, not a half-written folder.
  std::vector<std::pair<const StageSpec*, OutputTarget>> outputs;
  for (const auto& v : variants)
    for (const auto& s : v.stages)
      outputs.emplace_back(
          &s, check_output_target("--spirv", (dir / (v.name + "." + s.name + ".spv")).string(),
                                  cmd.force));
  for (const auto& [stage, target] : outputs) {
    auto words = compile_stage(*stage, cmd.subgroup_size);
    write_output(target, std::string_view(reinterpret_cast<const char*>(words.data()),
                                          words.size() * sizeof(uint32_t)));
  }
}

}  // namespace

int kernels_command(const KernelsCommand& cmd) {
  auto variants = load_manifests(cmd.kernel_folders);
  if (cmd.spirv_dir) {
    write_spirv(variants, cmd);
    return 0;
  }
  if (cmd.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& v : variants) {
      nlohmann::json stages = nlohmann::json::array();
      for (const auto& s : v.stages) {
        nlohmann::json stage{{"name", s.name}, {"shader", s.shader.string()}};
        if (s.when) stage["when"] = s.when->text();
        stages.push_back(stage);
      }
      out.push_back({{"name", v.name},
                     {"description", v.description},
                     {"manifest", v.manifest.string()},
                     {"deterministic", v.deterministic},
                     {"requires", v.requires_features},
                     {"when", v.when ? v.when->text() : ""},
                     {"stages", stages}});
    }
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  for (const auto& v : variants) {
    std::cout << v.name << "  (" << v.manifest.string() << ")\n  " << v.description
              << "\n  stages:";
    for (const auto& s : v.stages) {
      std::cout << " " << s.name << " [" << s.workgroup_size << "]";
      if (s.when) std::cout << " (when " << s.when->text() << ")";
    }
    if (v.when) std::cout << "\n  when: " << v.when->text();
    if (!v.requires_features.empty()) {
      std::cout << "\n  requires:";
      for (const auto& f : v.requires_features) std::cout << " " << f;
    }
    std::cout << (v.deterministic ? "" : "\n  not deterministic (float atomics)") << "\n";
  }
  return 0;
}

}  // namespace gnbench
