// gnbench: verify and benchmark GroupNorm-backward kernels on Vulkan.
// Each subcommand declares its own options (cli/commands/*_cli.cpp); this file parses the
// command line, runs the chosen subcommand and turns every error into one line and an exit
// code.
#include <CLI/CLI.hpp>
#include <atomic>
#include <csignal>
#include <iostream>

#include "base/build_info.hpp"
#include "base/errors.hpp"
#include "base/message_text.hpp"
#include "cli/commands/subcommands.hpp"

namespace {

std::atomic<bool> g_stop{false};
// First SIGINT, SIGTERM or SIGHUP (Ctrl-C; what timeout, CI cancellation and Slurm send): stop
// after the current entry and write what finished. A second one kills (e.g. while waiting for
// a kernel that --kernel-timeout gave up on).
extern "C" void on_stop_signal(int sig) {
  g_stop = true;
  std::signal(sig, SIG_DFL);
}

std::string join_args(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) s += (i ? " " : "") + std::string(argv[i]);
  return s;
}

// --help and --version print and exit 0; any other parse error is one line (CLI11 would add
// a "Run with --help" line) and exit 2, like every other usage error.
int parse_error(const CLI::App& app, const CLI::ParseError& e) {
  if (e.get_exit_code() == 0) return app.exit(e);
  std::string what = e.what();
  for (char& ch : what)
    if (ch == '\n') ch = ' ';
  std::cerr << "gnbench: error: " << gnbench::one_line(what) << " (see gnbench --help)\n";
  return gnbench::kExitUsage;
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
  const std::vector<Subcommand> subcommands =
      add_subcommands(app, Invocation{join_args(argc, argv), &g_stop});
  try {
    app.parse(argc, argv);
    for (const auto& sub : subcommands)
      if (*sub.app) return sub.run();
    return kExitUsage;  // not reached: require_subcommand(1)
  } catch (const CLI::ParseError& e) {
    return parse_error(app, e);
  } catch (const std::exception& e) {
    std::cerr << "gnbench: error: " << one_line(e.what()) << "\n";
    return exit_code_of(e);
  }
}
