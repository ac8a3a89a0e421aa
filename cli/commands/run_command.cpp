#include <unistd.h>

#include <charconv>
#include <chrono>
#include <ctime>
#include <iostream>

#include "bench/bench_runner.hpp"
#include "bench/multi_device.hpp"
#include "commands/commands.hpp"
#include "config/config_error.hpp"
#include "config/config_loader.hpp"
#include "config/name_patterns.hpp"
#include "report/atomic_file.hpp"
#include "report/csv_printer.hpp"
#include "report/markdown_printer.hpp"
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
    double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::string eta =
        done ? ", about " + std::to_string(int(elapsed / done * (total - done))) + " s left" : "";
    if (what == "done") {
      std::cerr << "\r\033[K";
      return;
    }
    std::cerr << "\r\033[K[" << done << "/" << total << "] " << what << eta << std::flush;
  };
}

// --shard "I/N" -> {I, N}, 1 <= I <= N.
std::pair<uint32_t, uint32_t> parse_shard(const std::string& text) {
  uint32_t index = 0, count = 0;
  const char *p = text.data(), *end = p + text.size();
  auto r = std::from_chars(p, end, index);
  bool ok = r.ec == std::errc() && r.ptr != end && *r.ptr == '/';
  if (ok) {
    r = std::from_chars(r.ptr + 1, end, count);
    ok = r.ec == std::errc() && r.ptr == end;
  }
  if (!ok || index < 1 || index > count)
    throw ConfigError("--shard '" + text + "': expected I/N with 1 <= I <= N, e.g. 2/4");
  return {index, count};
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
  if (problems.empty())
    throw ConfigError("no problems: give a config file or --batch/--channels/--spatial/--groups");
  if (!cmd.problems.empty()) {
    std::vector<std::string> names;
    for (const auto& p : problems) names.push_back(p.name);
    std::vector<Problem> picked;
    for (size_t i : select_by_patterns(names, cmd.problems, "--problem", "problems"))
      picked.push_back(problems[i]);
    problems = std::move(picked);
  }
  std::pair<uint32_t, uint32_t> shard{1, 1};
  if (!cmd.shard.empty()) shard = parse_shard(cmd.shard);
  if (cmd.update_baseline) ensure_writable_target(*cmd.update_baseline, cmd.force, "--force");
  // Read now: an unreadable baseline is a usage error, found before the GPU work.
  std::optional<RunRecords> baseline;
  if (cmd.baseline) {
    baseline = read_results_file(*cmd.baseline);
    validate_compare_options(cmd.compare);
  }
  for (const auto& out : {cmd.json_out, cmd.csv_out, cmd.md_out})
    if (out) ensure_writable_target(*out, cmd.force, "--force");
  if (cmd.bench.dump_dir) {
    std::error_code ec;
    if (std::filesystem::exists(*cmd.bench.dump_dir) &&
        !std::filesystem::is_empty(*cmd.bench.dump_dir, ec) && !cmd.force)
      throw ConfigError("--dump " + cmd.bench.dump_dir->string() +
                        ": exists and is not empty; pass --force to write into it");
  }

  const std::vector<std::string> devices = device_list(cmd.bench.context.device);
  std::optional<BenchRunner> runner;  // one device; several get one each in run_on_devices
  if (devices.size() == 1) {
    BenchOptions one = cmd.bench;
    one.context.device = devices.front();  // "all" on a host of one device
    runner.emplace(std::move(one));
    runner->check_problems(problems, source);
  }
  if (shard.second > 1) {
    // Round-robin, so that shards of a config sorted by size get similar work.
    std::vector<Problem> mine;
    for (size_t i = shard.first - 1; i < problems.size(); i += shard.second)
      mine.push_back(problems[i]);
    if (mine.empty())
      std::cerr << "gnbench: note: shard " << cmd.shard << " has no problems (" << problems.size()
                << " in all)\n";
    problems = std::move(mine);
  }
  const Progress progress = terminal_progress(!cmd.quiet && isatty(STDERR_FILENO));
  RunRecords records = runner ? runner->run(problems, progress, stop)
                              : run_on_devices(cmd.bench, devices, problems, source,
                                               cmd.mixed_devices, progress, stop);
  records.context.command_line = cmd.command_line;
  records.context.date = now_iso8601();
  records.context.host_name = host_name();
  records.context.configs = cmd.configs;
  if (shard.second > 1)
    records.context.shard = std::to_string(shard.first) + "/" + std::to_string(shard.second);

  print_table(std::cout, records);
  if (cmd.pipeline_stats) print_pipeline_statistics(std::cout, records);
  if (cmd.json_out) write_file_atomically(*cmd.json_out, results_to_json(records).dump(1) + "\n");
  if (cmd.csv_out) write_file_atomically(*cmd.csv_out, csv_report(records));
  if (cmd.md_out) write_file_atomically(*cmd.md_out, markdown_report(records));

  int code = records.context.complete ? 0 : 130;
  for (const auto& e : records.entries)
    if (is_failure(e.verdict)) code = 1;
  if (cmd.update_baseline) {
    // A failing or partial run would make a baseline that hides regressions.
    if (code == 0) {
      write_file_atomically(*cmd.update_baseline, results_to_json(records).dump(1) + "\n");
      std::cerr << "gnbench: baseline written to " << cmd.update_baseline->string() << "\n";
    } else {
      std::cerr << "gnbench: not updating the baseline " << cmd.update_baseline->string()
                << ": the run " << (code == 1 ? "failed" : "was interrupted") << "\n";
    }
  }
  if (baseline) {
    // The run's own failure wins; otherwise compare's exit code (docs/compare.md).
    std::cout << "\n";
    try {
      ComparisonReport report = compare_runs(*baseline, records, cmd.compare);
      print_comparison(std::cout, report, cmd.baseline->string(), "this run");
      if (code == 0) code = report.exit_code;
    } catch (const ConfigError& e) {
      if (code)
        std::cerr << "gnbench: error: " << e.what() << "\n";
      else
        throw;
    }
  }
  return code;
}

}  // namespace gnbench
