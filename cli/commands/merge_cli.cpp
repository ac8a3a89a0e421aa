// `gnbench merge`: its options and the MergeCommand they make.
#include <memory>

#include "cli/commands/commands.hpp"
#include "cli/commands/subcommands.hpp"

namespace gnbench {

Subcommand add_merge_subcommand(CLI::App& app, const Invocation&) {
  auto* c = app.add_subcommand("merge", "Merge results files (shards, sweep points) into one");
  auto cmd = std::make_shared<MergeCommand>();
  c->add_option("inputs", cmd->inputs, "Results files")->required();
  c->add_option("-o,--output", cmd->output, "Merged results file (gzip when the name ends in .gz)")
      ->required();
  c->add_flag("--ignore-device", cmd->ignore_device, "Merge files from different devices");
  c->add_flag("--force", cmd->force, "Replace an existing output file");
  return {c, [cmd] { return merge_command(*cmd); }};
}

}  // namespace gnbench
