// `gnbench compare`: its options, their checks and the CompareCommand they make.
#include <memory>

#include "cli/commands/commands.hpp"
#include "cli/commands/subcommands.hpp"
#include "cli/commands/validators.hpp"

namespace gnbench {

namespace {

struct CompareCli {
  CompareCommand cmd;
  std::string json;
  CLI::Option* json_opt = nullptr;
};

void add_options(CLI::App* c, CompareCli& s) {
  c->add_option("files", s.cmd.files,
                "BASELINE CURRENT results files (.json or .json.gz); with --variants one FILE")
      ->required()
      ->expected(1, 2);
  c->add_option("--variants", s.cmd.variants,
                "Compare variant B against variant A per problem within one file")
      ->expected(2)
      ->allow_extra_args(false)  // exactly A and B: what follows is the file
      ->type_name("A B");
  c->add_option("--alpha", s.cmd.options.alpha,
                "Family-wise false-alarm rate over all compared entries")
      ->capture_default_str()
      ->check(kFinite)
      ->check(CLI::Range(1e-9, 0.5));
  c->add_flag("--all", s.cmd.all, "List SKIP -> SKIP rows and entries only in the baseline");
  c->add_option("--threshold", s.cmd.options.threshold,
                "Smallest relative change of the median that matters")
      ->capture_default_str()
      ->check(kFinite)
      ->check(CLI::NonNegativeNumber);
  c->add_flag("--ignore-device", s.cmd.options.ignore_device,
              "Compare runs from different devices (correctness only)");
  c->add_option("--mode", s.cmd.options.mode,
                "Timing mode to compare: cold, hot, or auto (cold when both runs have it)")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "cold", "hot"}));
  s.json_opt = c->add_option("--json", s.json, "Write the comparison as JSON");
  c->add_flag("--force", s.cmd.force, "Replace an existing --json file");
}

}  // namespace

Subcommand add_compare_subcommand(CLI::App& app, const Invocation&) {
  auto* c = app.add_subcommand("compare",
                               "Compare a results file with a baseline (exit 0 ok, 1 correctness "
                               "regression, 3 slower, 4 inconclusive)");
  auto s = std::make_shared<CompareCli>();
  add_options(c, *s);
  return {c, [s] {
            CompareCommand cmd = s->cmd;
            // By count: --json '' is an empty path (an error), not "no JSON".
            if (s->json_opt->count()) cmd.json_out = s->json;
            return compare_command(cmd);
          }};
}

}  // namespace gnbench
