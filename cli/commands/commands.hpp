// The subcommands. main.cpp parses the command line with CLI11 into these option structs
// and calls one function; each returns the process exit code (0 ok, 1 verification failed,
// 2 usage or configuration error, compare: 3 slower, 4 inconclusive).
#pragma once

#include <atomic>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "bench/bench_options.hpp"
#include "compare/compare.hpp"
#include "config/problem.hpp"

namespace gnbench {

struct RunCommand {
  std::vector<std::string> configs;
  std::optional<Problem> one_off;     // from --batch/--channels/... flags
  std::vector<std::string> problems;  // --problem: names or globs; empty = every problem
  BenchOptions bench;
  std::optional<std::filesystem::path> json_out, csv_out, md_out;
  bool force = false;  // replace existing output files
  bool quiet = false;
  bool pipeline_stats = false;  // print the driver's statistics of every compiled stage
  std::string command_line;
  std::string shard;  // --shard I/N: run every N-th problem, starting at the I-th (1-based)
  bool mixed_devices = false;  // --device a,b of different models in one timing table
  std::optional<std::filesystem::path> baseline;         // --baseline: compare after the run
  std::optional<std::filesystem::path> update_baseline;  // --update-baseline: write results there
  CompareOptions compare;                                // --threshold, --ignore-device
};
int run_command(const RunCommand& cmd, const std::atomic<bool>* stop);

struct CompareCommand {
  std::filesystem::path baseline, current;
  CompareOptions options;
  std::optional<std::filesystem::path> json_out;
  bool force = false;
};
int compare_command(const CompareCommand& cmd);
// The comparison table, notes and summary; shared by `compare` and `run --baseline`.
void print_comparison(std::ostream& out, const ComparisonReport& report,
                      const std::string& baseline_label, const std::string& current_label);

struct MergeCommand {
  std::vector<std::filesystem::path> inputs;
  std::filesystem::path output;
  bool ignore_device = false;
  bool force = false;
};
int merge_command(const MergeCommand& cmd);

int devices_command(bool json);

struct KernelsCommand {
  std::vector<std::filesystem::path> kernel_folders;
  bool json = false;
};
int kernels_command(const KernelsCommand& cmd);

}  // namespace gnbench
