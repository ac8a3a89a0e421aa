#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstring>
#include <ctime>
#include <functional>
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
#include "report/output_target.hpp"
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

// --dump DIR: created now and checked writable; a non-empty one only with --force.
void check_dump_folder(const std::filesystem::path& dir, bool force) {
  namespace fs = std::filesystem;
  const std::string prefix = "--dump " + dir.string() + ": ";
  if (dir.empty()) throw ConfigError("--dump '': an empty path");
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    throw ConfigError(prefix + "exists and is not a directory");
  if (fs::exists(dir, ec) && !fs::is_empty(dir, ec) && !force)
    throw ConfigError(prefix + "exists and is not empty; pass --force to write into it");
  fs::create_directories(dir, ec);
  if (ec) throw ConfigError(prefix + "cannot create it: " + ec.message());
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw ConfigError(prefix + "is not writable: " + std::strerror(errno));
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
  // Every output checked now (and one path never given twice): nothing is found unwritable
  // only after the run.
  std::vector<OutputTarget> targets;
  const std::pair<const char*, const std::optional<std::filesystem::path>*> flags[] = {
      {"--json", &cmd.json_out},
      {"--csv", &cmd.csv_out},
      {"--md", &cmd.md_out},
      {"--update-baseline", &cmd.update_baseline}};
  std::optional<OutputTarget> by_flag[4];
  for (size_t i = 0; i < 4; ++i)
    if (*flags[i].second)
      targets.push_back(*(by_flag[i] = check_output_target(
                              flags[i].first, flags[i].second->value().string(), cmd.force)));
  check_distinct_outputs(targets);
  if (cmd.bench.dump_dir) check_dump_folder(*cmd.bench.dump_dir, cmd.force);
  // Read now: an unreadable baseline is a usage error, found before the GPU work.
  std::optional<RunRecords> baseline;
  if (cmd.baseline) {
    baseline = read_results_file(*cmd.baseline);
    validate_compare_options(cmd.compare);
  }

  BenchOptions bench = cmd.bench;
  bench.context.stop = stop;  // so that a stop also ends a wait on an overrunning kernel
  const std::vector<std::string> devices = device_list(cmd.bench.context.device);
  std::optional<BenchRunner> runner;  // one device; several get one each in run_on_devices
  if (devices.size() == 1) {
    BenchOptions one = bench;
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
  auto stamp = [&](RunRecords& r) {
    r.context.command_line = cmd.command_line;
    r.context.date = now_iso8601();
    r.context.host_name = host_name();
    r.context.configs = cmd.configs;
    if (shard.second > 1)
      r.context.shard = std::to_string(shard.first) + "/" + std::to_string(shard.second);
  };
  // Each output on its own: one that cannot be written does not cost the others.
  bool lost = false;
  auto save = [&](const std::optional<OutputTarget>& t, const std::function<std::string()>& text) {
    if (!t) return;
    try {
      write_output(*t, text());
    } catch (const std::runtime_error& e) {
      std::cerr << "gnbench: error: " << t->flag << ": " << e.what() << "\n";
      lost = true;
    }
  };
  auto save_results = [&](const RunRecords& r) {
    save(by_flag[0], [&] { return results_to_json(r).dump(1) + "\n"; });
    save(by_flag[1], [&] { return csv_report(r); });
    save(by_flag[2], [&] { return markdown_report(r); });
  };
  const Progress progress = terminal_progress(!cmd.quiet && isatty(STDERR_FILENO));
  RunRecords records =
      runner ? runner->run(problems, progress, stop,
                           [&](const RunRecords& partial) {  // stopped while a kernel overran
                             RunRecords r = partial;
                             stamp(r);
                             save_results(r);
                           })
             : run_on_devices(bench, devices, problems, source, cmd.mixed_devices, progress, stop);
  stamp(records);

  // With an output on standard output (-), the table goes to stderr so stdout stays parseable.
  bool to_stdout = false;
  for (const auto& t : targets) to_stdout = to_stdout || t.kind == OutputTarget::Kind::kStdout;
  std::ostream& out = to_stdout ? std::cerr : std::cout;
  print_table(out, records);
  if (cmd.pipeline_stats) print_pipeline_statistics(out, records);
  save_results(records);

  int code = records.context.complete ? 0 : 130;
  for (const auto& e : records.entries)
    if (is_failure(e.verdict)) code = 1;
  if (code == 0 && records.context.validation_messages > 0) {
    std::cerr << "gnbench: error: the validation layer reported "
              << records.context.validation_messages << " message(s) (--validate)\n";
    code = 1;
  }
  if (cmd.update_baseline) {
    // A failing or partial run would make a baseline that hides regressions.
    if (code == 0) {
      const bool lost_before = lost;
      save(by_flag[3], [&] { return results_to_json(records).dump(1) + "\n"; });
      if (lost == lost_before)
        std::cerr << "gnbench: baseline written to " << cmd.update_baseline->string() << "\n";
    } else {
      std::cerr << "gnbench: not updating the baseline " << cmd.update_baseline->string()
                << ": the run " << (code == 1 ? "failed" : "was interrupted") << "\n";
    }
  }
  if (baseline) {
    // The run's own failure wins; otherwise compare's exit code (docs/compare.md).
    out << "\n";
    try {
      ComparisonReport report = compare_runs(*baseline, records, cmd.compare);
      print_comparison(out, report, cmd.baseline->string(), "this run");
      if (code == 0) code = report.exit_code;
    } catch (const ConfigError& e) {
      if (code)
        std::cerr << "gnbench: error: " << e.what() << "\n";
      else
        throw;
    }
  }
  if (!records.context.dump_error.empty() && code == 0) code = 2;  // the dump is incomplete
  if (lost && code != 130) code = 2;  // an output the user asked for is missing
  return code;
}

}  // namespace gnbench
