// `gnbench run`: its options, their checks and the RunCommand they make. Each group of
// options is declared by add_* functions, and the apply_* function right after them checks
// the values and turns them into the command. CLI11 lists a help group's options in the order
// they were added, and the groups in the order they first appear.
#include <map>
#include <memory>

#include "base/errors.hpp"
#include "cli/commands/commands.hpp"
#include "cli/commands/run_flags.hpp"
#include "cli/commands/subcommands.hpp"
#include "cli/commands/validators.hpp"
#include "cli/config/name_patterns.hpp"
#include "kernels/runtime/manifest.hpp"

namespace gnbench {

namespace {

// What CLI11 parses into: the command where an option maps onto it one to one, else the raw
// value, and the options whose presence (not their value) decides.
struct RunCli {
  RunCommand cmd;
  // One-off problem and --random.
  Problem one_off;
  double eps = 1e-5;
  std::string distribution = "normal", one_off_name;
  uint32_t random_count = 0;
  CLI::Option *batch = nullptr, *eps_opt = nullptr, *seed_opt = nullptr;
  CLI::Option *distribution_opt = nullptr, *random_opt = nullptr;
  // Which kernels, variants, problems and device.
  std::vector<std::string> kernel_dirs;
  std::string variant_list, problem_list, table;
  CLI::Option *variant_opt = nullptr, *problem_opt = nullptr;
  double kernel_timeout_s = 60;
  // Timing.
  uint32_t samples = 0;
  double max_noise_percent = cmd.bench.sampling.max_noise * 100;
  std::string mode = "cold", copy_bandwidth;
  bool no_timing = false;
  // Output files and the baseline: taken by count, not by emptiness (--json '' is an empty
  // path, an error, not "no output").
  std::string json_out, csv_out, md_out, dump_dir, baseline, update_baseline;
  CLI::Option *json_opt = nullptr, *csv_opt = nullptr, *md_opt = nullptr, *dump_opt = nullptr;
  CLI::Option *baseline_opt = nullptr, *update_opt = nullptr;
};

// The shape options need each other: a one-off problem has all four or none.
void add_shape_options(CLI::App* c, RunCli& s) {
  const std::string group = "One-off problem";
  auto& shape = s.one_off.shape;
  s.batch = c->add_option("--batch,-N", shape.batch, "One-off problem: batch size N")->group(group);
  auto* channels = c->add_option("--channels,-C", shape.channels, "channels C")->group(group);
  auto* spatial = c->add_option("--spatial", shape.spatial, "spatial size H*W")->group(group);
  auto* groups = c->add_option("--groups,-G", shape.groups, "groups G")->group(group);
  s.batch->needs(channels, spatial, groups);
  channels->needs(s.batch, spatial, groups);
  spatial->needs(s.batch, channels, groups);
  groups->needs(s.batch, channels, spatial);
}

// --eps, --seed and --distribution serve the one-off problem and --random alike.
void add_one_off_options(CLI::App* c, RunCli& s) {
  const std::string group = "One-off problem";
  add_shape_options(c, s);
  s.eps_opt = c->add_option("--eps", s.eps,
                            "epsilon of the one-off problem (with --random: of every random "
                            "problem)")
                  ->capture_default_str()
                  ->group(group);
  s.seed_opt = c->add_option("--seed", s.one_off.seed,
                             "RNG seed of the one-off problem's inputs; with --random, the seed "
                             "the random problems are drawn from (default 1)")
                   ->check(kUint64)
                   ->group(group);
  s.distribution_opt =
      c->add_option("--distribution", s.distribution,
                    "input distribution of the one-off problem (with --random: of every random "
                    "problem, which otherwise draw every kind): " +
                        distribution_kind_list())
          ->capture_default_str()
          ->group(group);
  s.random_opt = c->add_option("--random", s.random_count,
                               "Add N problems drawn from ranges (docs/config.md, \"random\"), "
                               "reproducible from --seed")
                     ->check(CLI::Range(1u, 100000u))
                     ->group(group);
  c->add_option("--name", s.one_off_name,
                "name of the one-off problem (default: from its shape, e.g. n8_c320_hw4096_g32)")
      ->check(kNotEmpty)
      ->group(group)
      ->needs(s.batch);
  c->footer(distribution_help());
}

// The distribution is checked here, not by CLI11, so that the error lists the valid kinds
// in gnbench's own words.
void apply_one_off_options(const RunCli& s, RunCommand& cmd) {
  if (*s.batch) cmd.one_off = one_off_problem(s.one_off, s.eps, s.distribution, s.one_off_name);
  if (!*s.random_opt) return;
  RandomSpec spec;  // what --seed, --eps and --distribution leave alone comes from its defaults
  spec.count = s.random_count;
  if (*s.seed_opt) spec.seed = s.one_off.seed;
  if (*s.eps_opt) spec.eps[0] = spec.eps[1] = s.eps;
  if (*s.distribution_opt) {
    check_distribution_kind(s.distribution);
    spec.distributions = {s.distribution};
  }
  cmd.random = spec;
}

// Plain strings split by split_list(): CLI11's delimiter() takes the next argument as the
// value when the list splits into nothing (--variant ,), and drops empty names silently.
void add_selection_options(CLI::App* c, RunCli& s) {
  c->add_flag("--coverage", s.cmd.coverage,
              "After the table, the regimes (channels per group, groups, spatial sizes, "
              "dispatch fold, eps decades...) each variant was verified in");
  c->add_option("--kernels", s.kernel_dirs, "Extra folder(s) of kernel manifests");
  s.variant_opt = c->add_option(
      "--variant", s.variant_list,
      "Variants to run, by name or glob, comma separated (default: all); 'best' with --table: "
      "each problem's choice in a dispatch table from `gnbench tune`");
  c->add_option("--table", s.table, "With --variant best: the dispatch table")
      ->check(CLI::ExistingFile);
  s.problem_opt = c->add_option("--problem", s.problem_list,
                                "Problems to run, by name or glob, comma separated (default: all)");
}

void apply_selection_options(const RunCli& s, RunCommand& cmd) {
  cmd.bench.kernel_folders.push_back(default_kernels_folder());  // the built-in ones first
  for (const auto& d : s.kernel_dirs) cmd.bench.kernel_folders.push_back(d);
  if (s.variant_opt->count()) cmd.bench.variants = split_list(s.variant_list, "--variant");
  if ((s.variant_list == "best") != !s.table.empty())
    throw ConfigError(s.table.empty() ? "--variant best needs --table FILE (from gnbench tune)"
                                      : "--table needs --variant best");
  if (!s.table.empty()) cmd.table = s.table;
  if (s.problem_opt->count()) cmd.problems = split_list(s.problem_list, "--problem");
}

// The device and how long to trust it; one entry's trials and the --shard slice.
void add_device_options(CLI::App* c, RunCli& s) {
  auto& bench = s.cmd.bench;
  c->add_option("--device", bench.context.device,
                "Device index or name substring (see `gnbench devices`); a list (0,2) or all: "
                "one worker per device at once, merged into one results file")
      ->check(kNotEmpty);
  c->add_flag("--mixed-devices", s.cmd.mixed_devices,
              "With a --device list: allow different device models in one timing table");
  c->add_flag("--validate", bench.context.validation, "Enable the Khronos validation layer");
  c->add_option("--kernel-timeout", s.kernel_timeout_s,
                "Seconds before a submission counts as hung")
      ->capture_default_str()
      ->check(kFinite)
      ->check(CLI::Range(0.001, 1e6));
  c->add_option("--trials", bench.trials, "Fresh random inputs per problem; all must pass")
      ->capture_default_str()
      ->check(CLI::Range(1u, 1000u));
  c->add_option("--shard", s.cmd.shard,
                "Run only the I-th of N round-robin slices of the problems (I/N)")
      ->check(kNotEmpty);
}

void apply_device_options(const RunCli& s, RunCommand& cmd) {
  cmd.bench.context.fence_timeout =
      std::chrono::milliseconds(static_cast<int64_t>(s.kernel_timeout_s * 1000));
}

// When sampling starts and stops.
void add_sampling_options(CLI::App* c, RunCli& s) {
  const std::string group = "Timing";
  auto& sampling = s.cmd.bench.sampling;
  c->add_option("--warmup", sampling.warmup, "Untimed runs before sampling")
      ->capture_default_str()
      ->check(CLI::Range(0u, 10000u))
      ->group(group);
  c->add_option("--warmup-time", sampling.warmup_time_s,
                "Then keep the kernel running for this many GPU seconds and until two batches' "
                "medians agree within 2% (the clocks have ramped up; at most 0.5 s or a quarter "
                "of --timeout); 0: no such warm-up")
      ->capture_default_str()
      ->check(kFinite)
      ->check(CLI::NonNegativeNumber)
      ->group(group);
  c->add_option("--device-warmup", s.cmd.bench.device_warmup_s,
                "Before a timed entry that follows over 2 s without sampling (the run's first "
                "included), keep the GPU busy this many wall seconds (an H200 just idle runs its "
                "first ~0.5 s of load slower, steadily; docs/timing.md); 0: none")
      ->capture_default_str()
      ->check(kFinite)
      ->check(CLI::Range(0.0, 60.0))
      ->group(group);
  c->add_option("--samples", s.samples, "Exactly this many samples (disables the noise criterion)")
      ->check(CLI::Range(1u, 1000000u))
      ->group(group);
  c->add_option("--min-samples", sampling.min_samples, "Fewest samples before stopping")
      ->capture_default_str()
      ->check(CLI::Range(1u, 1000000u))
      ->group(group);
  c->add_option("--min-time", sampling.min_time_s, "Least accumulated GPU seconds before stopping")
      ->capture_default_str()
      ->check(kFinite)
      ->check(CLI::NonNegativeNumber)
      ->group(group);
}

// The noise target and the time limit; then what is timed and how.
void add_stopping_options(CLI::App* c, RunCli& s) {
  const std::string group = "Timing";
  c->add_option("--max-noise", s.max_noise_percent,
                "Stop when the half-width of the median's 95 % interval over the median falls "
                "below this, in percent as nvbench takes it (0.5 = 0.5 %)")
      ->capture_default_str()
      ->check(kFinite)
      ->check(CLI::PositiveNumber)
      ->check(CLI::Range(0.0, 100.0))
      ->group(group);
  c->add_option("--timeout", s.cmd.bench.sampling.timeout_s,
                "Seconds per entry before giving up on the noise target")
      ->capture_default_str()
      ->check(kFinite)
      ->check(CLI::PositiveNumber)
      ->group(group);
  c->add_option("--mode", s.mode, "cold (flush caches between samples), hot (back to back) or both")
      ->capture_default_str()
      ->check(CLI::IsMember({"cold", "hot", "both"}))
      ->group(group);
}

void add_method_options(CLI::App* c, RunCli& s) {
  const std::string group = "Timing";
  c->add_option("--flush", s.cmd.bench.flush,
                "How cold samples flush the caches: read (default: a dispatch reading twice the "
                "last-level cache, after the outputs are poisoned) or fill (the older flush: a "
                "buffer fill before the poisoning, which leaves dirty lines in the cache)")
      ->transform(CLI::CheckedTransformer(std::map<std::string, FlushMethod>{
          {"read", FlushMethod::kRead}, {"fill", FlushMethod::kFill}}))
      ->group(group);
  auto* stage_times =
      c->add_flag("--stage-times", s.cmd.bench.stage_times,
                  "Also time every stage (a timestamp after each; they drain the pipeline, so "
                  "totals include that cost)")
          ->group(group);
  c->add_option("--hot-batch", s.cmd.bench.hot_batch,
                "K: each hot sample times K runs back to back (each after a barrier on the "
                "previous one's writes) and reports the total / K: no timestamp drains the "
                "pipeline around each run, as when a framework's calls follow one another or "
                "a CUDA graph replays them (docs/timing.md); recorded in context.timing_mode")
      ->capture_default_str()
      ->check(CLI::Range(1u, 1000u))
      ->excludes(stage_times)
      ->group(group);
  c->add_flag("--no-timing", s.no_timing, "Verify only")->group(group);
  c->add_option("--copy-bandwidth", s.copy_bandwidth,
                "GBPS: use this copy bandwidth for % copy instead of measuring it (the results "
                "file records it as given); off: no probe, no % copy")
      ->group(group);
}

void apply_timing_options(const RunCli& s, RunCommand& cmd) {
  if (s.samples) cmd.bench.sampling.fixed_samples = s.samples;
  cmd.bench.sampling.max_noise = s.max_noise_percent / 100;  // percent on the command line
  if (!s.copy_bandwidth.empty()) parse_copy_bandwidth(s.copy_bandwidth, cmd.bench);
  cmd.bench.timing = !s.no_timing;
  cmd.bench.cold = s.mode != "hot";
  cmd.bench.hot = s.mode != "cold";
  if (cmd.bench.hot_batch > 1 && (!cmd.bench.hot || !cmd.bench.timing))
    throw ConfigError("--hot-batch " + std::to_string(cmd.bench.hot_batch) +
                      " times hot samples: give --mode hot or --mode both (the mode is " +
                      (cmd.bench.timing ? s.mode : "none: --no-timing") + ")");
}

void add_output_options(CLI::App* c, RunCli& s) {
  const std::string group = "Output";
  s.json_opt =
      c->add_option(
           "--json", s.json_out,
           "Write the results file (Google Benchmark layout; gzip when the name ends in .gz); "
           "- for stdout")
          ->group(group);
  s.csv_opt = c->add_option("--csv", s.csv_out,
                            "Write one CSV row per problem x variant x timing mode; - for stdout")
                  ->group(group);
  s.md_opt = c->add_option("--md", s.md_out, "Write the summary table as Markdown; - for stdout")
                 ->group(group);
  s.dump_opt = c->add_option("--dump", s.dump_dir,
                             "Write inputs, reference and outputs as .npy under this folder")
                   ->group(group);
  c->add_flag("--per-sample-rows", s.cmd.per_sample_rows,
              "--json: also one Google Benchmark row per sample (docs/results.md)")
      ->group(group);
  c->add_option("--checkpoint", s.cmd.checkpoint_s,
                "--json: while running, rewrite the file with what finished (marked incomplete) at "
                "most every this many seconds (0: after every problem), so a kill loses at most "
                "that much")
      ->capture_default_str()
      ->check(kFinite)
      ->check(CLI::Range(0.0, 1e6))
      ->group(group);
  c->add_flag("--force", s.cmd.force, "Replace existing output files")->group(group);
  c->add_flag("--quiet,-q", s.cmd.quiet,
              "No progress on stderr (a status line on a terminal, else a line per entry)")
      ->group(group);
  c->add_flag("--show-skipped", s.cmd.show_skipped, "List not-applicable (SKIP) entries too")
      ->group(group);
  c->add_flag("--list", s.cmd.list,
              "Print what would run (problem x variant, or why not) and exit; runs nothing")
      ->group(group);
  c->add_flag("--pipeline-stats", s.cmd.pipeline_stats,
              "Print the driver's statistics of every compiled stage (e.g. registers); the "
              "results file keeps them whenever the device reports them")
      ->group(group);
}

void apply_output_options(const RunCli& s, RunCommand& cmd) {
  if (s.json_opt->count()) cmd.json_out = s.json_out;
  if (s.csv_opt->count()) cmd.csv_out = s.csv_out;
  if (s.md_opt->count()) cmd.md_out = s.md_out;
  if (s.dump_opt->count()) cmd.bench.dump_dir = s.dump_dir;
}

void add_baseline_options(CLI::App* c, RunCli& s) {
  const std::string group = "Baseline";
  s.baseline_opt = c->add_option("--baseline", s.baseline,
                                 "Compare with this results file after the run (see `compare`)")
                       ->group(group);
  s.update_opt = c->add_option("--update-baseline", s.update_baseline,
                               "Write the results there as the new baseline")
                     ->group(group);
  c->add_option("--threshold", s.cmd.compare.threshold,
                "With --baseline: smallest relative change that matters")
      ->capture_default_str()
      ->check(kFinite)
      ->check(CLI::NonNegativeNumber)
      ->group(group);
  c->add_flag("--ignore-device", s.cmd.compare.ignore_device,
              "With --baseline: compare correctness across devices")
      ->group(group);
}

void apply_baseline_options(const RunCli& s, RunCommand& cmd) {
  if (s.baseline_opt->count()) cmd.baseline = s.baseline;
  if (s.update_opt->count()) cmd.update_baseline = s.update_baseline;
}

// The checks run in this order (the first failing one is the message): selection, device,
// timing, one-off problem, outputs.
RunCommand to_command(const RunCli& s, const std::string& command_line) {
  RunCommand cmd = s.cmd;
  cmd.command_line = command_line;
  apply_selection_options(s, cmd);
  apply_device_options(s, cmd);
  apply_timing_options(s, cmd);
  apply_one_off_options(s, cmd);
  apply_output_options(s, cmd);
  apply_baseline_options(s, cmd);
  return cmd;
}

}  // namespace

Subcommand add_run_subcommand(CLI::App& app, const Invocation& invocation) {
  auto* c = app.add_subcommand("run", "Verify and time kernel variants on problems");
  auto s = std::make_shared<RunCli>();
  // Not CLI::ExistingPath: it says "does not exist" for a symlink loop or a permission error;
  // the config reader names the true cause.
  c->add_option("configs", s->cmd.configs, "JSON problem configuration files");
  add_one_off_options(c, *s);
  add_selection_options(c, *s);
  add_device_options(c, *s);
  add_sampling_options(c, *s);
  add_stopping_options(c, *s);
  add_method_options(c, *s);
  add_output_options(c, *s);
  add_baseline_options(c, *s);
  return {c, [s, invocation] {
            return run_command(to_command(*s, invocation.command_line), invocation.stop);
          }};
}

}  // namespace gnbench
