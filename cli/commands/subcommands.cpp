#include "cli/commands/subcommands.hpp"

namespace gnbench {

std::vector<Subcommand> add_subcommands(CLI::App& app, const Invocation& invocation) {
  std::vector<Subcommand> all;
  for (auto add :
       {add_run_subcommand, add_compare_subcommand, add_merge_subcommand, add_show_subcommand,
        add_tune_subcommand, add_devices_subcommand, add_kernels_subcommand})
    all.push_back(add(app, invocation));
  return all;
}

}  // namespace gnbench
