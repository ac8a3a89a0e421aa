// gnbench: verify and benchmark GroupNorm-backward kernels on Vulkan.
// Each subcommand declares its own options (cli/commands/*_cli.cpp); this file parses the
// command line, runs the chosen subcommand and turns every error into one line and an exit
// code.
#include <CLI/CLI.hpp>
#include <atomic>
#include <csignal>
#include <ctime>
#include <iostream>

#include "base/build_info.hpp"
#include "base/errors.hpp"
#include "base/message_text.hpp"
#include "cli/commands/subcommands.hpp"

namespace {

std::atomic<bool> g_stop{false};
std::atomic<long long> g_first_stop_ns{0};
constexpr long long kRepeatKillsAfterNs = 2'000'000'000;
static_assert(std::atomic<long long>::is_always_lock_free, "used in a signal handler");

long long monotonic_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);  // async-signal-safe
  return ts.tv_sec * 1'000'000'000LL + ts.tv_nsec;
}

// First SIGINT, SIGTERM or SIGHUP (Ctrl-C; what timeout, CI cancellation and Slurm send): stop
// after the current entry and write what finished. The same signal again kills (e.g. while
// waiting for a kernel that --kernel-timeout gave up on), but only 2 s after the first:
// GNU timeout signals the child and then its whole process group, so one stop request can
// arrive twice within microseconds, and that must not lose the results.
extern "C" void on_stop_signal(int sig) {
  const long long now = monotonic_ns();
  long long first = 0;
  if (g_first_stop_ns.compare_exchange_strong(first, now)) {
    g_stop = true;
    return;
  }
  if (now - first < kRepeatKillsAfterNs) return;
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigaction(sig, &dfl, nullptr);
  raise(sig);
}

void install_stop_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
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
  install_stop_handlers();
  CLI::App app{"gnbench: verify and benchmark GroupNorm-backward kernels on Vulkan"};
  app.set_version_flag("--version", std::string(GNBENCH_VERSION) + " (" + git_revision() + ")");
  app.require_subcommand(1);
  const std::vector<Subcommand> subcommands =
      add_subcommands(app, Invocation{join_args(argc, argv), &g_stop});
  // "--name=" (an empty shell variable) makes CLI11 take the next argument as the value.
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.starts_with("--") && arg.find('=') == arg.size() - 1) {
      std::cerr << "gnbench: error: " << arg << ": an empty value (see gnbench --help)\n";
      return kExitUsage;
    }
  }
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
