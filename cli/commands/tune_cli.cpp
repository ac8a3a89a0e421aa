// `gnbench tune`: its options, their checks and the TuneCommand they make.
#include <memory>

#include "base/errors.hpp"
#include "cli/commands/commands.hpp"
#include "cli/commands/subcommands.hpp"
#include "cli/commands/validators.hpp"
#include "cli/config/name_patterns.hpp"
#include "kernels/runtime/manifest.hpp"

namespace gnbench {

namespace {

struct TuneCli {
  TuneCommand cmd;
  std::string table, results, variants, problems;
  std::vector<std::string> from, fill_from, kernel_dirs;
  uint32_t samples = 0;
  double max_noise_percent = cmd.run.bench.sampling.max_noise * 100;  // as run's --max-noise
};

// What to tune and where the table goes.
void add_input_options(CLI::App* c, TuneCli& t) {
  c->add_option("configs", t.cmd.run.configs, "JSON problem configuration files")
      ->check(CLI::ExistingPath);
  c->add_option("--json", t.table, "The dispatch table to write")->required();
  c->add_option("--from", t.from,
                "Build the table from results files instead of a run (repeatable: a shape in "
                "several takes the last file's measurement)")
      ->allow_extra_args(false)  // one file per --from: what follows is a config
      ->check(CLI::ExistingFile);
  c->add_option("--fill-from", t.fill_from,
                "Results files (repeatable) whose shapes go into the table where it has none: "
                "another device's measurements, each such entry naming its device")
      ->allow_extra_args(false)
      ->check(CLI::ExistingFile);
  c->add_option("--mode", t.cmd.mode, "Whose medians choose: hot (back to back) or cold")
      ->capture_default_str()
      ->check(CLI::IsMember({"hot", "cold"}));
  c->add_option("--variant", t.variants, "Candidate variants, by name or glob (default: all)");
  c->add_option("--problem", t.problems, "Problems to tune, by name or glob (default: all)");
  c->add_option("--kernels", t.kernel_dirs, "Extra folder(s) of kernel manifests")
      ->check(CLI::ExistingDirectory);
  c->add_option("--device", t.cmd.run.bench.context.device, "Device index or name substring")
      ->check(kNotEmpty);
  c->add_option("--results", t.results, "Also write the run's results file");
}

// The run's timing: fewer knobs than `run`, the rest at run's defaults.
void add_timing_options(CLI::App* c, TuneCli& t) {
  auto& sampling = t.cmd.run.bench.sampling;
  c->add_option("--samples", t.samples, "Exactly this many samples per entry")
      ->check(CLI::Range(1u, 1000000u));
  c->add_option("--min-time", sampling.min_time_s, "Least accumulated GPU seconds per entry")
      ->check(CLI::Range(0.0, 1e6));
  c->add_option("--max-noise", t.max_noise_percent,
                "Stop when the half-width of the median's 95 % interval over the median falls "
                "below this, in percent as `run --max-noise` takes it (0.5 = 0.5 %)")
      ->capture_default_str()
      ->check(kFinite)
      ->check(CLI::PositiveNumber)
      ->check(CLI::Range(0.0, 100.0));
  c->add_option("--timeout", sampling.timeout_s,
                "Seconds per entry before giving up on the noise target")
      ->check(CLI::Range(1e-6, 1e6));
  c->add_option("--hot-batch", t.cmd.run.bench.hot_batch,
                "K: each hot sample times K runs back to back, as `run --hot-batch` (the table "
                "records it in its timing_mode)")
      ->capture_default_str()
      ->check(CLI::Range(1u, 1000u));
  c->add_flag("--force", t.cmd.run.force, "Replace existing output files");
  c->add_flag("--quiet,-q", t.cmd.run.quiet, "No progress on stderr");
}

// Throws ConfigError on a usage error.
TuneCommand to_command(const TuneCli& t, const std::string& command_line) {
  TuneCommand cmd = t.cmd;
  if (!t.from.empty() && !cmd.run.configs.empty())
    throw ConfigError("tune: give config files or --from RESULTS, not both");
  if (t.from.empty() && cmd.run.configs.empty())
    throw ConfigError("tune: no problems: give config files, or --from RESULTS");
  const uint32_t batch = cmd.run.bench.hot_batch;
  if (batch > 1 && !t.from.empty())
    throw ConfigError("tune: --hot-batch " + std::to_string(batch) +
                      " times a run; --from reads results files as they were timed");
  if (batch > 1 && cmd.mode != "hot")
    throw ConfigError("tune: --hot-batch " + std::to_string(batch) +
                      " times hot samples: give --mode hot (the mode is " + cmd.mode + ")");
  cmd.table_out = t.table;
  cmd.from.assign(t.from.begin(), t.from.end());
  cmd.fill_from.assign(t.fill_from.begin(), t.fill_from.end());
  cmd.run.command_line = command_line;
  cmd.run.bench.kernel_folders.push_back(default_kernels_folder());
  for (const auto& d : t.kernel_dirs) cmd.run.bench.kernel_folders.push_back(d);
  if (!t.variants.empty()) cmd.run.bench.variants = split_list(t.variants, "--variant");
  if (!t.problems.empty()) cmd.run.problems = split_list(t.problems, "--problem");
  if (t.samples) cmd.run.bench.sampling.fixed_samples = t.samples;
  cmd.run.bench.sampling.max_noise = t.max_noise_percent / 100;  // percent, as run takes it
  if (!t.results.empty()) cmd.run.json_out = t.results;
  return cmd;
}

}  // namespace

Subcommand add_tune_subcommand(CLI::App& app, const Invocation& invocation) {
  auto* c = app.add_subcommand(
      "tune",
      "Time the variants on the configs' problems and write the fastest verified one per "
      "shape as a dispatch table (`run --variant best --table FILE` runs it)");
  auto t = std::make_shared<TuneCli>();
  add_input_options(c, *t);
  add_timing_options(c, *t);
  return {c, [t, invocation] {
            return tune_command(to_command(*t, invocation.command_line), invocation.stop);
          }};
}

}  // namespace gnbench
