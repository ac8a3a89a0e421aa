// The subcommands. main.cpp parses the command line with CLI11 into these option structs
// and calls one function; each returns the process exit code (0 ok, 1 verification failed,
// 2 usage or configuration error, compare: 3 slower, 4 inconclusive).
#pragma once

#include <atomic>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "bench/bench_options.hpp"
#include "config/problem.hpp"

namespace gnbench {

struct RunCommand {
  std::vector<std::string> configs;
  std::optional<Problem> one_off;  // from --batch/--channels/... flags
  BenchOptions bench;
  std::optional<std::filesystem::path> json_out, csv_out, md_out;
  bool force = false;  // replace existing output files
  bool quiet = false;
  std::string command_line;
};
int run_command(const RunCommand& cmd, const std::atomic<bool>* stop);

int devices_command(bool json);

struct KernelsCommand {
  std::vector<std::filesystem::path> kernel_folders;
  bool json = false;
};
int kernels_command(const KernelsCommand& cmd);

}  // namespace gnbench
