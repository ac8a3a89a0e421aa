// The command line of `gnbench tune` (CLI11), kept out of main.cpp.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "cli/commands/commands.hpp"

namespace gnbench {

struct TuneCli {
  TuneCommand cmd;
  std::string table, from, results, variants, problems;
  std::vector<std::string> kernel_dirs;
  uint32_t samples = 0;
};

CLI::App* add_tune_subcommand(CLI::App& app, TuneCli& t);
// After parsing: the command to run; throws ConfigError on a usage error.
TuneCommand tune_from_cli(TuneCli& t, const std::string& command_line);

}  // namespace gnbench
