// `gnbench show`: its options, their checks and the ShowCommand they make.
#include <memory>

#include "cli/commands/commands.hpp"
#include "cli/commands/subcommands.hpp"
#include "cli/config/name_patterns.hpp"

namespace gnbench {

namespace {

struct ShowCli {
  ShowCommand cmd;
  std::string problems, variants;
  CLI::Option* problem_opt = nullptr;
  CLI::Option* variant_opt = nullptr;
};

}  // namespace

Subcommand add_show_subcommand(CLI::App& app, const Invocation&) {
  auto* c = app.add_subcommand("show", "Print a stored results file as the run's table");
  auto s = std::make_shared<ShowCli>();
  c->add_option("file", s->cmd.file, "Results file (.json or .json.gz)")->required();
  s->problem_opt = c->add_option("--problem", s->problems, "Problems to show, by name or glob");
  s->variant_opt = c->add_option("--variant", s->variants, "Variants to show, by name or glob");
  return {c, [s] {
            ShowCommand cmd = s->cmd;
            // By count: --problem '' splits into nothing, an error, not "every problem".
            if (s->problem_opt->count()) cmd.problems = split_list(s->problems, "--problem");
            if (s->variant_opt->count()) cmd.variants = split_list(s->variants, "--variant");
            return show_command(cmd);
          }};
}

}  // namespace gnbench
