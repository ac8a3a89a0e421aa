// gnbench: verify and benchmark GroupNorm-backward kernels on Vulkan.
// This file only wires the command line (CLI11) to the subcommands in commands/.
#include <CLI/CLI.hpp>
#include <cmath>
#include <csignal>
#include <iostream>
#include <map>

#include "base/build_info.hpp"
#include "base/errors.hpp"
#include "base/message_text.hpp"
#include "cli/commands/commands.hpp"
#include "cli/commands/run_flags.hpp"
#include "cli/commands/tune_cli.hpp"
#include "cli/config/name_patterns.hpp"
#include "cli/inputs/input_generator.hpp"
#include "kernels/runtime/manifest.hpp"
#include "kernels/runtime/vulkan_context.hpp"

namespace {

std::atomic<bool> g_stop{false};
// First SIGINT, SIGTERM or SIGHUP (Ctrl-C; what timeout, CI cancellation and Slurm send): stop
// after the current entry and write what finished. A second one kills (e.g. while waiting for
// a kernel that --kernel-timeout gave up on).
extern "C" void on_stop_signal(int sig) {
  g_stop = true;
  std::signal(sig, SIG_DFL);
}

// CLI11's number checks let nan through (every comparison with it is false), and inf is
// never a sensible duration or ratio.
const CLI::Validator kFinite(
    [](std::string& s) {
      try {
        size_t used = 0;
        double d = std::stod(s, &used);
        if (used == s.size() && std::isfinite(d)) return std::string();
      } catch (const std::exception&) {
      }
      return "'" + s + "' is not a finite number";
    },
    "FINITE");

// CLI11 reads "-1" into an unsigned option as 2^64-1.
const CLI::Validator kNotNegative(
    [](std::string& s) {
      return s.find('-') == std::string::npos ? std::string() : "'" + s + "' must not be negative";
    },
    "NONNEGATIVE");

std::string join_args(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) s += (i ? " " : "") + std::string(argv[i]);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace gnbench;
  // From the start: a Ctrl-C during start-up (Vulkan, shader compiles) still ends in a results
  // file (with what finished, possibly nothing) and exit 130, never a bare kill.
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) std::signal(sig, on_stop_signal);
  CLI::App app{"gnbench: verify and benchmark GroupNorm-backward kernels on Vulkan"};
  app.set_version_flag("--version", std::string(GNBENCH_VERSION) + " (" + git_revision() + ")");
  app.require_subcommand(1);

  // --- run ---
  RunCommand run;
  run.command_line = join_args(argc, argv);
  std::vector<std::string> kernel_dirs;
  std::string variant_list, problem_list, mode = "cold";
  Problem one_off;
  std::string one_off_name, copy_bandwidth;
  double eps = 1e-5, kernel_timeout_s = 60;
  double max_noise_percent = run.bench.sampling.max_noise * 100;
  uint32_t samples = 0;
  std::string distribution = "normal";
  std::string json_out, csv_out, md_out, dump_dir;
  bool no_timing = false;
  auto* run_cmd = app.add_subcommand("run", "Verify and time kernel variants on problems");
  // Not CLI::ExistingPath: it says "does not exist" for a symlink loop or a permission error;
  // the config reader names the true cause.
  run_cmd->add_option("configs", run.configs, "JSON problem configuration files");
  auto* batch =
      run_cmd->add_option("--batch,-N", one_off.shape.batch, "One-off problem: batch size N")
          ->group("One-off problem");
  auto* channels = run_cmd->add_option("--channels,-C", one_off.shape.channels, "channels C")
                       ->group("One-off problem");
  auto* spatial = run_cmd->add_option("--spatial", one_off.shape.spatial, "spatial size H*W")
                      ->group("One-off problem");
  auto* groups = run_cmd->add_option("--groups,-G", one_off.shape.groups, "groups G")
                     ->group("One-off problem");
  batch->needs(channels, spatial, groups);
  channels->needs(batch, spatial, groups);
  spatial->needs(batch, channels, groups);
  groups->needs(batch, channels, spatial);
  auto* eps_opt =
      run_cmd
          ->add_option("--eps", eps,
                       "epsilon of the one-off problem (with --random: of every random problem)")
          ->capture_default_str()
          ->group("One-off problem");
  auto* seed_opt = run_cmd
                       ->add_option("--seed", one_off.seed,
                                    "RNG seed of the one-off problem's inputs; with --random, the "
                                    "seed the random problems are drawn from (default 1)")
                       ->check(kNotNegative)
                       ->group("One-off problem");
  auto* distribution_opt =
      run_cmd
          ->add_option("--distribution", distribution,
                       "input distribution of the one-off problem (with --random: of every "
                       "random problem): " +
                           distribution_kind_list())
          ->capture_default_str()
          ->group("One-off problem");
  uint32_t random_count = 0;
  auto* random_opt =
      run_cmd
          ->add_option("--random", random_count,
                       "Add N problems drawn from ranges (docs/config.md, \"random\"), "
                       "reproducible from --seed")
          ->check(CLI::Range(1u, 100000u))
          ->group("One-off problem");
  run_cmd->add_flag("--coverage", run.coverage,
                    "After the table, the regimes (channels per group, groups, spatial sizes, "
                    "dispatch fold, eps decades...) each variant was verified in");
  run_cmd
      ->add_option("--name", one_off_name,
                   "name of the one-off problem (default: from its shape, e.g. n8_c320_hw4096_g32)")
      ->group("One-off problem")
      ->needs(batch);
  run_cmd->footer(distribution_help());
  run_cmd->add_option("--kernels", kernel_dirs, "Extra folder(s) of kernel manifests");
  // Plain strings split by split_list(): CLI11's delimiter() takes the next argument as the
  // value when the list splits into nothing (--variant ,), and drops empty names silently.
  auto* variant_opt = run_cmd->add_option(
      "--variant", variant_list,
      "Variants to run, by name or glob, comma separated (default: all); 'best' with --table: "
      "each problem's choice in a dispatch table from `gnbench tune`");
  std::string table;
  run_cmd->add_option("--table", table, "With --variant best: the dispatch table")
      ->check(CLI::ExistingFile);
  auto* problem_opt =
      run_cmd->add_option("--problem", problem_list,
                          "Problems to run, by name or glob, comma separated (default: all)");
  run_cmd->add_option("--device", run.bench.context.device,
                      "Device index or name substring (see `gnbench devices`); a list (0,2) or "
                      "all: one worker per device at once, merged into one results file");
  run_cmd->add_flag("--mixed-devices", run.mixed_devices,
                    "With a --device list: allow different device models in one timing table");
  run_cmd->add_flag("--validate", run.bench.context.validation,
                    "Enable the Khronos validation layer");
  run_cmd
      ->add_option("--kernel-timeout", kernel_timeout_s,
                   "Seconds before a submission counts as hung")
      ->capture_default_str()
      ->check(kFinite)
      ->check(CLI::Range(0.001, 1e6));
  run_cmd
      ->add_option("--trials", run.bench.trials, "Fresh random inputs per problem; all must pass")
      ->capture_default_str()
      ->check(CLI::Range(1u, 1000u));
  run_cmd->add_option("--warmup", run.bench.sampling.warmup, "Untimed runs before sampling")
      ->capture_default_str()
      ->check(CLI::Range(0u, 10000u))
      ->group("Timing");
  run_cmd
      ->add_option("--warmup-time", run.bench.sampling.warmup_time_s,
                   "Then keep the kernel running for this many GPU seconds and until two "
                   "batches' medians agree within 2% (the clocks have ramped up; at most 0.5 s or "
                   "a quarter of --timeout); "
                   "0: no such warm-up")
      ->capture_default_str()
      ->check(kFinite)
      ->check(CLI::NonNegativeNumber)
      ->group("Timing");
  run_cmd
      ->add_option("--device-warmup", run.bench.device_warmup_s,
                   "Before a timed entry that follows over 2 s without sampling (the run's "
                   "first included), keep the GPU busy this many wall seconds (an H200 just idle "
                   "runs its first ~0.5 s of load slower, steadily; docs/timing.md); 0: none")
      ->capture_default_str()
      ->check(kFinite)
      ->check(CLI::Range(0.0, 60.0))
      ->group("Timing");
  run_cmd
      ->add_option("--samples", samples, "Exactly this many samples (disables the noise criterion)")
      ->check(CLI::Range(1u, 1000000u))
      ->group("Timing");
  run_cmd
      ->add_option("--min-samples", run.bench.sampling.min_samples,
                   "Fewest samples before stopping")
      ->capture_default_str()
      ->check(CLI::Range(1u, 1000000u))
      ->group("Timing");
  run_cmd
      ->add_option("--min-time", run.bench.sampling.min_time_s,
                   "Least accumulated GPU seconds before stopping")
      ->capture_default_str()
      ->check(kFinite)
      ->check(CLI::NonNegativeNumber)
      ->group("Timing");
  run_cmd
      ->add_option("--max-noise", max_noise_percent,
                   "Stop when the half-width of the median's 95 % interval over the median falls "
                   "below this, in percent as nvbench takes "
                   "it (0.5 = 0.5 %)")
      ->capture_default_str()
      ->check(kFinite)
      ->check(CLI::PositiveNumber)
      ->check(CLI::Range(0.0, 100.0))
      ->group("Timing");
  run_cmd
      ->add_option("--timeout", run.bench.sampling.timeout_s,
                   "Seconds per entry before giving up on the noise target")
      ->capture_default_str()
      ->check(kFinite)
      ->check(CLI::PositiveNumber)
      ->group("Timing");
  run_cmd
      ->add_option("--mode", mode,
                   "cold (flush caches between samples), hot (back to back) or both")
      ->capture_default_str()
      ->check(CLI::IsMember({"cold", "hot", "both"}))
      ->group("Timing");
  run_cmd
      ->add_option("--flush", run.bench.flush,
                   "How cold samples flush the caches: read (default: a dispatch reading twice the "
                   "last-level cache, after the outputs are poisoned) or fill (the older flush: "
                   "a buffer fill before the poisoning, which leaves dirty lines in the cache)")
      ->transform(CLI::CheckedTransformer(std::map<std::string, FlushMethod>{
          {"read", FlushMethod::kRead}, {"fill", FlushMethod::kFill}}))
      ->group("Timing");
  run_cmd
      ->add_flag(
          "--stage-times", run.bench.stage_times,
          "Also time every stage (a timestamp after each; they drain the pipeline, so totals "
          "include that cost)")
      ->group("Timing");
  run_cmd->add_flag("--no-timing", no_timing, "Verify only")->group("Timing");
  run_cmd
      ->add_option("--copy-bandwidth", copy_bandwidth,
                   "GBPS: use this copy bandwidth for % copy instead of measuring it (the "
                   "results file records it as given); off: no probe, no % copy")
      ->group("Timing");
  auto* json_opt =
      run_cmd
          ->add_option("--json", json_out,
                       "Write the results file (Google Benchmark layout); - for stdout")
          ->group("Output");
  auto* csv_opt =
      run_cmd
          ->add_option("--csv", csv_out,
                       "Write one CSV row per problem x variant x timing mode; - for stdout")
          ->group("Output");
  auto* md_opt =
      run_cmd->add_option("--md", md_out, "Write the summary table as Markdown; - for stdout")
          ->group("Output");
  auto* dump_opt = run_cmd
                       ->add_option("--dump", dump_dir,
                                    "Write inputs, reference and outputs as .npy under this folder")
                       ->group("Output");
  run_cmd
      ->add_flag("--per-sample-rows", run.per_sample_rows,
                 "--json: also one Google Benchmark row per sample (docs/results.md)")
      ->group("Output");
  run_cmd->add_flag("--force", run.force, "Replace existing output files")->group("Output");
  run_cmd
      ->add_flag("--quiet,-q", run.quiet,
                 "No progress on stderr (a status line on a terminal, else a line per entry)")
      ->group("Output");
  run_cmd->add_flag("--show-skipped", run.show_skipped, "List not-applicable (SKIP) entries too")
      ->group("Output");
  run_cmd
      ->add_flag("--list", run.list,
                 "Print what would run (problem x variant, or why not) and exit; runs nothing")
      ->group("Output");
  run_cmd
      ->add_flag("--pipeline-stats", run.pipeline_stats,
                 "Print the driver's statistics of every compiled stage (e.g. registers); the "
                 "results file keeps them whenever the device reports them")
      ->group("Output");
  run_cmd->add_option("--shard", run.shard,
                      "Run only the I-th of N round-robin slices of the problems (I/N)");
  std::string baseline, update_baseline;
  auto* baseline_opt =
      run_cmd
          ->add_option("--baseline", baseline,
                       "Compare with this results file after the run (see `compare`)")
          ->group("Baseline");
  auto* update_opt = run_cmd
                         ->add_option("--update-baseline", update_baseline,
                                      "Write the results there as the new baseline")
                         ->group("Baseline");
  run_cmd
      ->add_option("--threshold", run.compare.threshold,
                   "With --baseline: smallest relative change that matters")
      ->capture_default_str()
      ->check(kFinite)
      ->check(CLI::NonNegativeNumber)
      ->group("Baseline");
  run_cmd
      ->add_flag("--ignore-device", run.compare.ignore_device,
                 "With --baseline: compare correctness across devices")
      ->group("Baseline");

  // --- compare, merge ---
  CompareCommand compare;
  std::string compare_json;
  auto* compare_cmd =
      app.add_subcommand("compare",
                         "Compare a results file with a baseline (exit 0 ok, 1 correctness "
                         "regression, 3 slower, 4 inconclusive)");
  compare_cmd
      ->add_option("files", compare.files,
                   "BASELINE CURRENT results files (.json or .json.gz); with --variants one FILE")
      ->required()
      ->expected(1, 2);
  compare_cmd
      ->add_option("--variants", compare.variants,
                   "Compare variant B against variant A per problem within one file")
      ->expected(2)
      ->allow_extra_args(false)  // exactly A and B: what follows is the file
      ->type_name("A B");
  compare_cmd
      ->add_option("--alpha", compare.options.alpha,
                   "Family-wise false-alarm rate over all compared entries")
      ->capture_default_str()
      ->check(kFinite)
      ->check(CLI::Range(1e-9, 0.5));
  compare_cmd->add_flag("--all", compare.all,
                        "List SKIP -> SKIP rows and entries only in the baseline");
  compare_cmd
      ->add_option("--threshold", compare.options.threshold,
                   "Smallest relative change of the median that matters")
      ->capture_default_str()
      ->check(kFinite)
      ->check(CLI::NonNegativeNumber);
  compare_cmd->add_flag("--ignore-device", compare.options.ignore_device,
                        "Compare runs from different devices (correctness only)");
  compare_cmd
      ->add_option("--mode", compare.options.mode,
                   "Timing mode to compare: cold, hot, or auto (cold when both runs have it)")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "cold", "hot"}));
  auto* compare_json_opt =
      compare_cmd->add_option("--json", compare_json, "Write the comparison as JSON");
  compare_cmd->add_flag("--force", compare.force, "Replace an existing --json file");
  MergeCommand merge;
  auto* merge_cmd =
      app.add_subcommand("merge", "Merge results files (shards, sweep points) into one");
  merge_cmd->add_option("inputs", merge.inputs, "Results files")->required();
  merge_cmd->add_option("-o,--output", merge.output, "Merged results file")->required();
  merge_cmd->add_flag("--ignore-device", merge.ignore_device, "Merge files from different devices");
  merge_cmd->add_flag("--force", merge.force, "Replace an existing output file");
  ShowCommand show;
  std::string show_problems, show_variants;
  auto* show_cmd = app.add_subcommand("show", "Print a stored results file as the run's table");
  show_cmd->add_option("file", show.file, "Results file (.json or .json.gz)")->required();
  auto* show_problem_opt =
      show_cmd->add_option("--problem", show_problems, "Problems to show, by name or glob");
  auto* show_variant_opt =
      show_cmd->add_option("--variant", show_variants, "Variants to show, by name or glob");

  TuneCli tune;
  auto* tune_cmd = add_tune_subcommand(app, tune);

  // --- devices, kernels ---
  bool devices_json = false;
  auto* devices_cmd = app.add_subcommand("devices", "List Vulkan devices and their key limits");
  devices_cmd->add_flag("--json", devices_json, "Print JSON");
  KernelsCommand kernels;
  std::vector<std::string> list_dirs;
  auto* kernels_cmd = app.add_subcommand("kernels", "List kernel variants from the manifests");
  kernels_cmd->add_option("--kernels", list_dirs, "Extra folder(s) of kernel manifests")
      ->check(CLI::ExistingDirectory);
  kernels_cmd->add_flag("--json", kernels.json, "Print JSON");
  std::string spirv_dir;
  auto* spirv_opt = kernels_cmd->add_option(
      "--spirv", spirv_dir,
      "Write every stage's SPIR-V as DIR/<variant>.<stage>.spv (instead of the list)");
  kernels_cmd
      ->add_option("--subgroup-size", kernels.subgroup_size,
                   "With --spirv: compile for this subgroup size (SUBGROUP_SIZE)")
      ->capture_default_str()
      ->check(CLI::IsMember({4u, 8u, 16u, 32u, 64u, 128u}));
  kernels_cmd->add_flag("--force", kernels.force, "With --spirv: replace existing files");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    // One line, like every other usage error (CLI11 would add a "Run with --help" line).
    std::string what = e.what();
    for (char& ch : what)
      if (ch == '\n') ch = ' ';
    std::cerr << "gnbench: error: " << one_line(what) << " (see gnbench --help)\n";
    return 2;
  }

  try {
    if (*devices_cmd) return devices_command(devices_json);
    if (*kernels_cmd) {
      kernels.kernel_folders.push_back(default_kernels_folder());
      for (const auto& d : list_dirs) kernels.kernel_folders.push_back(d);
      if (spirv_opt->count()) kernels.spirv_dir = spirv_dir;
      return kernels_command(kernels);
    }
    if (*compare_cmd) {
      if (compare_json_opt->count()) compare.json_out = compare_json;
      return compare_command(compare);
    }
    if (*merge_cmd) return merge_command(merge);
    if (*show_cmd) {
      if (show_problem_opt->count()) show.problems = split_list(show_problems, "--problem");
      if (show_variant_opt->count()) show.variants = split_list(show_variants, "--variant");
      return show_command(show);
    }
    if (*tune_cmd) return tune_command(tune_from_cli(tune, run.command_line), &g_stop);
    // run
    run.bench.kernel_folders.push_back(default_kernels_folder());
    for (const auto& d : kernel_dirs) run.bench.kernel_folders.push_back(d);
    if (variant_opt->count()) run.bench.variants = split_list(variant_list, "--variant");
    if ((variant_list == "best") != !table.empty())
      throw ConfigError(table.empty() ? "--variant best needs --table FILE (from gnbench tune)"
                                      : "--table needs --variant best");
    if (!table.empty()) run.table = table;
    if (problem_opt->count()) run.problems = split_list(problem_list, "--problem");
    run.bench.context.fence_timeout =
        std::chrono::milliseconds(static_cast<int64_t>(kernel_timeout_s * 1000));
    if (samples) run.bench.sampling.fixed_samples = samples;
    run.bench.sampling.max_noise = max_noise_percent / 100;  // percent on the command line
    if (!copy_bandwidth.empty()) parse_copy_bandwidth(copy_bandwidth, run.bench);
    run.bench.timing = !no_timing;
    run.bench.cold = mode != "hot";
    run.bench.hot = mode != "cold";
    if (*batch) run.one_off = one_off_problem(one_off, eps, distribution, one_off_name);
    if (*random_opt) {
      RandomSpec spec;
      spec.count = random_count;
      if (*seed_opt) spec.seed = one_off.seed;
      if (*eps_opt) spec.eps[0] = spec.eps[1] = eps;
      if (*distribution_opt) spec.distributions = {distribution};
      if (*distribution_opt && !is_distribution_kind(distribution))
        throw ConfigError("--distribution '" + distribution +
                          "': unknown distribution (valid: " + distribution_kind_list() + ")");
      run.random = spec;
    }
    // By count, not by emptiness: --json '' is an error (an empty path), not "no output".
    if (json_opt->count()) run.json_out = json_out;
    if (csv_opt->count()) run.csv_out = csv_out;
    if (md_opt->count()) run.md_out = md_out;
    if (dump_opt->count()) run.bench.dump_dir = dump_dir;
    if (baseline_opt->count()) run.baseline = baseline;
    if (update_opt->count()) run.update_baseline = update_baseline;
    return run_command(run, &g_stop);
  } catch (const ConfigError& e) {
    std::cerr << "gnbench: error: " << one_line(e.what()) << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "gnbench: error: " << one_line(e.what()) << "\n";
    return 1;
  }
}
