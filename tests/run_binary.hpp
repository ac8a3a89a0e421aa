// Runs the built gnbench binary (GNBENCH_BINARY) as a child process for CLI-level tests:
// stdout and stderr captured, stdin closed, a wall-clock limit (SIGKILL past it), and
// optionally a signal sent after a delay. Header-only; used by every test file that runs the
// binary.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace gnbench::testing {

struct RunResult {
  int exit_code = -1;  // -1 when killed by a signal
  int signal = 0;      // the signal that ended it, 0 if it exited
  bool timed_out = false;
  double seconds = 0;
  std::string out, err;

  std::vector<std::string> err_lines() const {
    std::vector<std::string> lines;
    std::istringstream s(err);
    for (std::string line; std::getline(s, line);)
      if (!line.empty()) lines.push_back(line);
    return lines;
  }
  std::string describe() const {
    std::ostringstream s;
    s << "exit " << exit_code << ", signal " << signal << (timed_out ? ", TIMED OUT" : "") << ", "
      << seconds << " s\n--- stderr ---\n"
      << err << "--- stdout (first 2000 chars) ---\n"
      << out.substr(0, 2000);
    return s.str();
  }
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct RunSpec {
  std::vector<std::string> args;         // after the binary name
  double timeout_s = 60;                 // SIGKILL after this
  std::optional<double> sigint_after_s;  // send SIGINT once after this long
  std::vector<std::string> env;          // extra NAME=value entries
  int signal = SIGINT;                   // what sigint_after_s sends (SIGTERM, SIGHUP: the same)
  std::string signal_when_stderr_has;    // or: send it once stderr contains this text
  std::optional<double> repeat_after_s;  // send the same signal again this long after the first

  // A constructor rather than an aggregate: {args, timeout} leaves the rest at their defaults
  // without -Wmissing-field-initializers warnings.
  RunSpec() = default;
  RunSpec(std::vector<std::string> a, double timeout = 60,
          std::optional<double> sigint = std::nullopt, std::vector<std::string> e = {})
      : args(std::move(a)), timeout_s(timeout), sigint_after_s(sigint), env(std::move(e)) {}
};

// A config of 192 problems of up to a few million elements, far more than a run gets through
// in the seconds before a test stops it; written into `dir`, its path returned.
inline std::string write_long_config(const std::filesystem::path& dir) {
  const std::filesystem::path path = dir / "long.json";
  std::ofstream(path) << R"({"axes": {"prefix": "long", "batch": [1, 2, 3, 4, 5, 6, 7, 8],
      "channels": [64, 128], "spatial": [4096, 8192, 16384], "groups": [8, 16, 32, 64]}})";
  return path.string();
}

inline RunResult run_gnbench(const RunSpec& spec) {
  namespace fs = std::filesystem;
  static int counter = 0;
  const fs::path dir = fs::temp_directory_path() / ("gnbench_run_" + std::to_string(::getpid()) +
                                                    "_" + std::to_string(counter++));
  fs::create_directories(dir);
  const std::string out_path = (dir / "stdout").string(), err_path = (dir / "stderr").string();

  // Everything the child needs is built before fork(): after it only async-signal-safe calls.
  std::vector<std::string> argv_s{GNBENCH_BINARY};
  argv_s.insert(argv_s.end(), spec.args.begin(), spec.args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_s;
  for (char** e = environ; *e; ++e) env_s.emplace_back(*e);
  // lavapipe prints a non-conformance warning on stderr; the tests count gnbench's own lines.
  env_s.emplace_back("MESA_VK_IGNORE_CONFORMANCE_WARNING=1");
  env_s.insert(env_s.end(), spec.env.begin(), spec.env.end());
  std::vector<char*> envp;
  for (auto& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);

  const auto start = std::chrono::steady_clock::now();
  pid_t pid = ::fork();
  if (pid == 0) {
    int in = ::open("/dev/null", O_RDONLY);
    int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0 || err < 0) ::_exit(127);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    // The test runner may ignore SIGINT (ctest does not, a shell's background job may).
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::signal(sig, SIG_DFL);
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  RunResult r;
  if (pid < 0) {
    r.err = "fork failed";
    return r;
  }
  bool sent_sigint = false, repeated = false;
  double sent_at = 0;
  int status = 0;
  for (;;) {
    pid_t done = ::waitpid(pid, &status, WNOHANG);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (done == pid) break;
    const bool due = spec.sigint_after_s ? r.seconds >= *spec.sigint_after_s
                                         : !spec.signal_when_stderr_has.empty() &&
                                               slurp(err_path).find(spec.signal_when_stderr_has) !=
                                                   std::string::npos;
    if (due && !sent_sigint) {
      ::kill(pid, spec.signal);
      sent_sigint = true;
      sent_at = r.seconds;
    }
    if (sent_sigint && spec.repeat_after_s && !repeated &&
        r.seconds >= sent_at + *spec.repeat_after_s) {
      ::kill(pid, spec.signal);
      repeated = true;
    }
    if (r.seconds > spec.timeout_s) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      r.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.out = slurp(out_path);
  r.err = slurp(err_path);
  std::error_code ec;
  fs::remove_all(dir, ec);
  return r;
}

// `gnbench ARGS`, killed after timeout_s: a limit on hangs (lavapipe runs of the larger
// configs take tens of seconds).
inline RunResult gnbench(std::vector<std::string> args, double timeout_s = 120) {
  return run_gnbench(RunSpec(std::move(args), timeout_s));
}

// A row of gnbench's terminal tables split on runs of two or more spaces (cells never hold two
// spaces in a row), trailing spaces dropped.
inline std::vector<std::string> table_cells(const std::string& line) {
  static const std::regex gap(" {2,}");
  std::vector<std::string> out;
  std::string trimmed = line.substr(0, line.find_last_not_of(' ') + 1);
  for (std::sregex_token_iterator it(trimmed.begin(), trimmed.end(), gap, -1), end; it != end; ++it)
    out.push_back(*it);
  return out;
}

// A fresh empty directory, removed with its contents at the end of the scope.
class TempDir {
 public:
  explicit TempDir(const std::string& tag) {
    static int counter = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("gnbench_" + tag + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace gnbench::testing
