#include <iostream>

#include "commands/commands.hpp"
#include "runtime/manifest.hpp"

namespace gnbench {

int kernels_command(const KernelsCommand& cmd) {
  auto variants = load_manifests(cmd.kernel_folders);
  if (cmd.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& v : variants) {
      nlohmann::json stages = nlohmann::json::array();
      for (const auto& s : v.stages)
        stages.push_back({{"name", s.name}, {"shader", s.shader.string()}});
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
    for (const auto& s : v.stages) std::cout << " " << s.name << " [" << s.workgroup_size << "]";
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
