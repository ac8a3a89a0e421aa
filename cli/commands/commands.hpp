// The subcommands. Each one's <name>_cli.cpp (subcommands.hpp) parses its options with CLI11
// into one of these structs and calls its function; each returns the process exit code (0 ok,
// 1 verification failed, 2 usage or configuration error, compare: 3 slower, 4 inconclusive).
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "base/problem.hpp"
#include "cli/bench/bench_options.hpp"
#include "cli/bench/records.hpp"
#include "cli/compare/compare.hpp"
#include "cli/config/random_problems.hpp"

namespace gnbench {

struct RunCommand {
  std::vector<std::string> configs;
  std::optional<Problem> one_off;     // from --batch/--channels/... flags
  std::optional<RandomSpec> random;   // --random N: N problems drawn from --seed
  bool coverage = false;              // --coverage: print the regimes each variant passed in
  std::vector<std::string> problems;  // --problem: names or globs; empty = every problem
  BenchOptions bench;
  std::optional<std::filesystem::path> json_out, csv_out, md_out;
  bool force = false;  // replace existing output files
  bool quiet = false;
  bool pipeline_stats = false;   // print the driver's statistics of every compiled stage
  bool show_skipped = false;     // SKIP rows in the table (else only counted)
  bool list = false;             // print the plan (problem x variant, or why not) and stop
  bool per_sample_rows = false;  // results file: one Google Benchmark row per sample too
  // --checkpoint: seconds between writes of the --json file while the run goes on (0: after
  // every problem), so that a kill (SIGKILL, out of memory) loses at most that much.
  double checkpoint_s = 30;
  std::string command_line;
  std::string shard;  // --shard I/N: run every N-th problem, starting at the I-th (1-based)
  bool mixed_devices = false;  // --device a,b of different models in one timing table
  std::optional<std::filesystem::path> baseline;         // --baseline: compare after the run
  std::optional<std::filesystem::path> update_baseline;  // --update-baseline: write results there
  CompareOptions compare;                                // --threshold, --ignore-device
  std::optional<std::filesystem::path> table;         // --variant best --table: the dispatch table
  std::function<void(const RunRecords&)> on_records;  // tune: sees the records after the run
};
int run_command(const RunCommand& cmd, const std::atomic<bool>* stop);

struct CompareCommand {
  std::vector<std::filesystem::path> files;  // baseline and current; with --variants one file
  std::vector<std::string> variants;         // --variants A B: A as baseline, B as current
  CompareOptions options;
  std::optional<std::filesystem::path> json_out;
  bool force = false;
  bool all = false;  // list SKIP -> SKIP rows and entries only in the baseline
};
int compare_command(const CompareCommand& cmd);
// The comparison table, notes and summary; shared by `compare` and `run --baseline`.
// SKIP -> SKIP rows and the names of entries only in the baseline are counted, not listed,
// unless `all`.
void print_comparison(std::ostream& out, const ComparisonReport& report,
                      const std::string& baseline_label, const std::string& current_label,
                      bool all = false);

struct MergeCommand {
  std::vector<std::filesystem::path> inputs;
  std::filesystem::path output;
  bool ignore_device = false;
  bool force = false;
};
int merge_command(const MergeCommand& cmd);

// `gnbench show FILE`: a stored results file printed as the run's table.
struct ShowCommand {
  std::filesystem::path file;
  std::vector<std::string> problems, variants;  // names or globs; empty = all
};
int show_command(const ShowCommand& cmd);

int devices_command(bool json);

struct KernelsCommand {
  std::vector<std::filesystem::path> kernel_folders;
  bool json = false;
  // --spirv DIR: write every stage's module as DIR/<variant>.<stage>.spv, compiled for
  // `subgroup_size` (what a device of that subgroup size runs), e.g. for spirv-dis or diffs.
  std::optional<std::filesystem::path> spirv_dir;
  uint32_t subgroup_size = 32;
  bool force = false;
};
int kernels_command(const KernelsCommand& cmd);

// tune: run the configs (or read a results file) and write the shape -> variant table.
struct TuneCommand {
  RunCommand run;
  std::filesystem::path table_out;          // --json
  std::vector<std::filesystem::path> from;  // --from: results files instead of a run
  // --fill-from: results files (another device's) whose shapes fill in where the table has none
  std::vector<std::filesystem::path> fill_from;
  std::string mode = "hot";  // whose medians choose
};
int tune_command(TuneCommand cmd, const std::atomic<bool>* stop);

}  // namespace gnbench
