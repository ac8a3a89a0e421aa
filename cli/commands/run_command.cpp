#include <unistd.h>

#include <chrono>
#include <ctime>
#include <iostream>

#include "bench/bench_runner.hpp"
#include "commands/commands.hpp"
#include "config/config_error.hpp"
#include "config/config_loader.hpp"
#include "report/atomic_file.hpp"
#include "report/results_json.hpp"
#include "report/table_printer.hpp"

namespace gnbench {

namespace {

std::string now_iso8601() {
  std::time_t t = std::time(nullptr);
  char buf[64];
  std::strftime(buf, sizeof buf, "%FT%T%z", std::localtime(&t));
  return buf;
}

std::string host_name() {
  char buf[256] = {};
  gethostname(buf, sizeof buf - 1);
  return buf;
}

// One status line on stderr, rewritten in place; only for a person at a terminal.
Progress terminal_progress(bool enabled) {
  if (!enabled) return [](const std::string&, size_t, size_t) {};
  auto start = std::chrono::steady_clock::now();
  return [start](const std::string& what, size_t done, size_t total) {
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::string eta = done ? ", about " + std::to_string(int(elapsed / done * (total - done))) + " s left" : "";
    if (what == "done") {
      std::cerr << "\r\033[K";
      return;
    }
    std::cerr << "\r\033[K[" << done << "/" << total << "] " << what << eta << std::flush;
  };
}

}  // namespace

int run_command(const RunCommand& cmd, const std::atomic<bool>* stop) {
  // Everything the user typed is checked before any GPU work.
  std::vector<Problem> problems;
  std::string source = cmd.configs.empty() ? "command line" : "";
  for (const auto& path : cmd.configs) {
    auto loaded = load_config_file(path);
    problems.insert(problems.end(), loaded.begin(), loaded.end());
    source += (source.empty() ? "" : ", ") + path;
  }
  if (cmd.one_off) {
    validate_shape(cmd.one_off->shape, "command line", cmd.one_off->name);
    validate_eps(cmd.one_off->eps, "command line", cmd.one_off->name);
    problems.push_back(*cmd.one_off);
  }
  if (problems.empty()) throw ConfigError("no problems: give a config file or --batch/--channels/--spatial/--groups");
  for (const auto& out : {cmd.json_out, cmd.csv_out, cmd.md_out})
    if (out) ensure_writable_target(*out, cmd.force, "--force");
  if (cmd.bench.dump_dir) {
    std::error_code ec;
    if (std::filesystem::exists(*cmd.bench.dump_dir) && !std::filesystem::is_empty(*cmd.bench.dump_dir, ec) && !cmd.force)
      throw ConfigError("--dump " + cmd.bench.dump_dir->string() + ": exists and is not empty; pass --force to write into it");
  }

  BenchRunner runner(cmd.bench);
  runner.check_problems(problems, source);
  RunRecords records = runner.run(problems, terminal_progress(!cmd.quiet && isatty(STDERR_FILENO)), stop);
  records.context.command_line = cmd.command_line;
  records.context.date = now_iso8601();
  records.context.host_name = host_name();
  records.context.configs = cmd.configs;

  print_table(std::cout, records);
  if (cmd.json_out) write_file_atomically(*cmd.json_out, results_to_json(records).dump(1) + "\n");

  for (const auto& e : records.entries)
    if (is_failure(e.verdict)) return 1;
  return records.context.complete ? 0 : 130;
}

}  // namespace gnbench
