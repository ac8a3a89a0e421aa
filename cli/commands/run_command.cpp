#include <unistd.h>

#include <charconv>
#include <chrono>
#include <ctime>
#include <iostream>

#include "bench/bench_runner.hpp"
#include "bench/multi_device.hpp"
#include "commands/commands.hpp"
#include "commands/run_followup.hpp"
#include "config/config_error.hpp"
#include "config/config_loader.hpp"
#include "config/name_patterns.hpp"
#include "report/atomic_file.hpp"
#include "report/coverage_table.hpp"
#include "report/csv_printer.hpp"
#include "report/markdown_printer.hpp"
#include "report/progress_log.hpp"
#include "report/results_json.hpp"
#include "report/run_plan.hpp"
#include "report/run_summary.hpp"
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

// For logs: a first line saying how much will run; returns that count.
size_t start_log(const std::vector<PlannedEntry>& plan) {
  size_t runs = 0;
  for (const auto& e : plan) runs += e.skip_reason.empty();
  std::cerr << "gnbench: " << runs << " entries to run (" << plan.size() - runs
            << " not applicable)" << std::endl;
  return runs;
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
  if (cmd.random) {
    validate_eps(cmd.random->eps[0], "command line", "--random");
    auto drawn = generate_random_problems(*cmd.random);
    problems.insert(problems.end(), drawn.begin(), drawn.end());
    std::cerr << "gnbench: " << drawn.size() << " random problems from --seed " << cmd.random->seed
              << "\n";
  }
  if (problems.empty())
    throw ConfigError(
        "no problems: give a config file, --random N or --batch/--channels/--spatial/--groups");
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
    if (out && !cmd.list) ensure_writable_target(*out, cmd.force, "--force");
  if (cmd.bench.dump_dir && !cmd.list) {
    std::error_code ec;
    if (std::filesystem::exists(*cmd.bench.dump_dir) &&
        !std::filesystem::is_empty(*cmd.bench.dump_dir, ec) && !cmd.force)
      throw ConfigError("--dump " + cmd.bench.dump_dir->string() +
                        ": exists and is not empty; pass --force to write into it");
  }

  const std::vector<std::string> devices = device_list(cmd.bench.context.device);
  std::optional<BenchRunner> runner;  // one device; several get one each in run_on_devices
  if (cmd.coverage && devices.size() > 1)
    throw ConfigError(
        "--coverage: takes one device (regimes depend on its subgroup size), got --device " +
        cmd.bench.context.device);
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
  if (cmd.list) {
    if (!runner) {  // several devices: the first one's plan (a `when` may use SUBGROUP)
      BenchOptions one = cmd.bench;
      one.context.device = devices.front();
      runner.emplace(std::move(one));
    }
    print_run_plan(std::cout, runner->plan(problems));
    return 0;
  }
  const bool terminal = isatty(STDERR_FILENO);
  const Progress progress = terminal_progress(!cmd.quiet && terminal);
  // Logs get a line per finished entry (on one device; several keep to the status callback).
  std::optional<ProgressLog> log;
  if (runner && !cmd.quiet && !terminal) {
    log.emplace(std::cerr, start_log(runner->plan(problems)));
    runner->on_entry_finished([&log](const EntryRecord& e) { log->finished(e); });
  }
  RunRecords records = runner ? runner->run(problems, progress, stop)
                              : run_on_devices(cmd.bench, devices, problems, source,
                                               cmd.mixed_devices, progress, stop);
  records.context.command_line = cmd.command_line;
  records.context.date = now_iso8601();
  records.context.host_name = host_name();
  records.context.configs = cmd.configs;
  if (shard.second > 1)
    records.context.shard = std::to_string(shard.first) + "/" + std::to_string(shard.second);

  const TableOptions table{cmd.show_skipped};
  print_table(std::cout, records, table);
  if (cmd.pipeline_stats) print_pipeline_statistics(std::cout, records);
  ReproContext repro{cmd.configs, {}, cmd.bench.context.device, cmd.bench.trials};
  for (size_t i = 1; i < cmd.bench.kernel_folders.size(); ++i)
    repro.kernel_dirs.push_back(cmd.bench.kernel_folders[i].string());
  if (cmd.coverage && runner)
    print_coverage(std::cout,
                   compute_coverage(records, runner->variants(), runner->context().info()), repro);
  std::cout << "\n";
  print_run_summary(std::cout, summarize_run(records));
  if (cmd.json_out)
    write_file_atomically(*cmd.json_out,
                          results_to_json(records, cmd.per_sample_rows).dump(1) + "\n");
  if (cmd.csv_out) write_file_atomically(*cmd.csv_out, csv_report(records));
  if (cmd.md_out) write_file_atomically(*cmd.md_out, markdown_report(records, table));

  int code = records.context.complete ? 0 : 130;
  for (const auto& e : records.entries)
    if (is_failure(e.verdict)) code = 1;
  // After the results are written: shrinking runs more problems, and a Ctrl-C there loses nothing.
  if (code == 1) follow_up_failures(std::cout, records, cmd.bench, repro, {}, stop);
  if (cmd.update_baseline) {
    // A failing or partial run would make a baseline that hides regressions.
    if (code == 0) {
      write_file_atomically(*cmd.update_baseline,
                            results_to_json(records, cmd.per_sample_rows).dump(1) + "\n");
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
