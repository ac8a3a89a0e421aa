// `gnbench kernels`: its options and the KernelsCommand they make.
#include <memory>

#include "cli/commands/commands.hpp"
#include "cli/commands/subcommands.hpp"
#include "kernels/runtime/manifest.hpp"

namespace gnbench {

namespace {

struct KernelsCli {
  KernelsCommand cmd;
  std::vector<std::string> extra_folders;
  std::string spirv_dir;
  CLI::Option* spirv_opt = nullptr;
};

void add_options(CLI::App* c, KernelsCli& s) {
  c->add_option("--kernels", s.extra_folders, "Extra folder(s) of kernel manifests")
      ->check(CLI::ExistingDirectory);
  c->add_flag("--json", s.cmd.json, "Print JSON");
  s.spirv_opt = c->add_option(
      "--spirv", s.spirv_dir,
      "Write every stage's SPIR-V as DIR/<variant>.<stage>.spv (instead of the list)");
  c->add_option("--subgroup-size", s.cmd.subgroup_size,
                "With --spirv: compile for this subgroup size (SUBGROUP_SIZE)")
      ->capture_default_str()
      ->check(CLI::IsMember({4u, 8u, 16u, 32u, 64u, 128u}));
  c->add_flag("--force", s.cmd.force, "With --spirv: replace existing files");
}

KernelsCommand to_command(const KernelsCli& s) {
  KernelsCommand cmd = s.cmd;
  cmd.kernel_folders.push_back(default_kernels_folder());  // the built-in ones come first
  for (const auto& d : s.extra_folders) cmd.kernel_folders.push_back(d);
  if (s.spirv_opt->count()) cmd.spirv_dir = s.spirv_dir;  // by count: --spirv '' is an error
  return cmd;
}

}  // namespace

Subcommand add_kernels_subcommand(CLI::App& app, const Invocation&) {
  auto* c = app.add_subcommand("kernels", "List kernel variants from the manifests");
  auto s = std::make_shared<KernelsCli>();
  add_options(c, *s);
  return {c, [s] { return kernels_command(to_command(*s)); }};
}

}  // namespace gnbench
