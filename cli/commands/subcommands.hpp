// Every subcommand's command line, one file each (<name>_cli.cpp): it declares the options
// with their checks, and its run() turns the parsed values into the command struct of
// commands.hpp and runs it. main() only parses, calls the chosen run() and maps errors to
// exit codes.
#pragma once

#include <CLI/CLI.hpp>
#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace gnbench {

// What every subcommand may need from the process beyond its own options.
struct Invocation {
  std::string command_line;                 // recorded in results files
  const std::atomic<bool>* stop = nullptr;  // set by SIGINT/SIGTERM/SIGHUP: finish early
};

struct Subcommand {
  CLI::App* app;  // parsed into by app.parse(); *app is true when it was chosen
  // After parsing: the exit code. Throws ConfigError on a usage error that CLI11 cannot see
  // (an option's value checked against another's, a list that splits into nothing).
  std::function<int()> run;
};

Subcommand add_run_subcommand(CLI::App& app, const Invocation& invocation);
Subcommand add_compare_subcommand(CLI::App& app, const Invocation& invocation);
Subcommand add_merge_subcommand(CLI::App& app, const Invocation& invocation);
Subcommand add_show_subcommand(CLI::App& app, const Invocation& invocation);
Subcommand add_tune_subcommand(CLI::App& app, const Invocation& invocation);
Subcommand add_devices_subcommand(CLI::App& app, const Invocation& invocation);
Subcommand add_kernels_subcommand(CLI::App& app, const Invocation& invocation);

// All of them, in the order `gnbench --help` lists them.
std::vector<Subcommand> add_subcommands(CLI::App& app, const Invocation& invocation);

}  // namespace gnbench
