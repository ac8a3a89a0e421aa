#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstring>
#include <ctime>
#include <functional>
#include <iostream>

#include "base/atomic_file.hpp"
#include "base/errors.hpp"
#include "base/message_text.hpp"
#include "base/output_target.hpp"
#include "cli/bench/bench_runner.hpp"
#include "cli/commands/commands.hpp"
#include "cli/commands/multi_device.hpp"
#include "cli/commands/run_followup.hpp"
#include "cli/config/config_loader.hpp"
#include "cli/config/name_patterns.hpp"
#include "cli/dispatch/dispatch_rule.hpp"
#include "cli/dispatch/dispatch_table.hpp"
#include "cli/report/best_variants.hpp"
#include "cli/report/coverage_table.hpp"
#include "cli/report/csv_printer.hpp"
#include "cli/report/gzip_text.hpp"
#include "cli/report/markdown_printer.hpp"
#include "cli/report/progress_log.hpp"
#include "cli/report/results_json.hpp"
#include "cli/report/run_plan.hpp"
#include "cli/report/run_summary.hpp"
#include "cli/report/table_printer.hpp"

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
  const PlanCounts n = count_plan(plan);
  std::cerr << "gnbench: " << n.runs << " entries to run (" << n.not_applicable << " not applicable"
            << (n.not_chosen ? ", " + std::to_string(n.not_chosen) + " not chosen" : "") << ")"
            << std::endl;
  return n.runs;
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

// Every problem the command line names: configs, the one-off problem, --random, then --problem.
std::vector<Problem> gather_problems(const RunCommand& cmd, std::string& source) {
  std::vector<Problem> problems;
  source = cmd.configs.empty() ? "command line" : "";
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
  if (cmd.problems.empty()) return problems;
  std::vector<std::string> names;
  for (const auto& p : problems) names.push_back(p.name);
  std::vector<Problem> picked;
  for (size_t i : select_by_patterns(names, cmd.problems, "--problem", "problems"))
    picked.push_back(problems[i]);
  return picked;
}

// Round-robin, so that shards of a config sorted by size get similar work.
std::vector<Problem> take_shard(std::vector<Problem> problems, std::pair<uint32_t, uint32_t> shard,
                                const std::string& text) {
  if (shard.second == 1) return problems;
  std::vector<Problem> mine;
  for (size_t i = shard.first - 1; i < problems.size(); i += shard.second)
    mine.push_back(problems[i]);
  if (mine.empty())
    std::cerr << "gnbench: note: shard " << text << " has no problems (" << problems.size()
              << " in all)\n";
  return mine;
}

// The run's output files, checked before any work (one path never given twice) and written
// each on its own: one that cannot be written does not cost the others.
class RunOutputs {
 public:
  enum Slot { kJson, kCsv, kMd, kBaseline };
  explicit RunOutputs(const RunCommand& cmd) : cmd_(cmd) {
    const std::pair<const char*, const std::optional<std::filesystem::path>*> flags[] = {
        {"--json", &cmd.json_out},
        {"--csv", &cmd.csv_out},
        {"--md", &cmd.md_out},
        {"--update-baseline", &cmd.update_baseline}};
    std::vector<OutputTarget> targets;
    for (size_t i = 0; i < 4 && !cmd.list; ++i)
      if (*flags[i].second)
        targets.push_back(*(slots_[i] = check_output_target(
                                flags[i].first, flags[i].second->value().string(), cmd.force)));
    check_distinct_outputs(targets);
    for (const auto& t : targets) to_stdout_ = to_stdout_ || t.kind == OutputTarget::Kind::kStdout;
  }
  // Returns whether it was written (or not asked for).
  bool save(Slot slot, const std::function<std::string()>& text) {
    if (!slots_[slot]) return true;
    try {
      write_output(*slots_[slot], text());
      return true;
    } catch (const std::runtime_error& e) {
      std::cerr << "gnbench: error: " << slots_[slot]->flag << ": " << e.what() << "\n";
      lost_ = true;
      return false;
    }
  }
  void save_results(const RunRecords& r, const TableOptions& table) {
    save(kJson, [&] { return gzip_if_named(slots_[kJson]->path, results_json_text(r)); });
    save(kCsv, [&] { return csv_report(r); });
    save(kMd, [&] { return markdown_report(r, table); });
  }
  // --checkpoint: the --json file rewritten with what finished so far (a file only: standard
  // output and devices cannot be rewritten), the first one an interval after the start.
  bool checkpoint_due() const {
    const auto& slot = slots_[kJson];
    return slot &&
           (slot->kind == OutputTarget::Kind::kCreate ||
            slot->kind == OutputTarget::Kind::kReplace) &&
           std::chrono::steady_clock::now() - last_checkpoint_ >= checkpoint_gap_;
  }
  void checkpoint(RunRecords so_far) {
    const auto start = std::chrono::steady_clock::now();
    so_far.context.complete = false;
    derive_figures(so_far);
    try {
      write_output(*slots_[kJson], gzip_if_named(slots_[kJson]->path, results_json_text(so_far)));
      // The file is this run's own now: later checkpoints and the final write replace it.
      slots_[kJson]->kind = OutputTarget::Kind::kReplace;
    } catch (const std::runtime_error& e) {
      std::cerr << "gnbench: warning: --checkpoint: " << e.what() << "\n";
    }
    last_checkpoint_ = std::chrono::steady_clock::now();
    // Never more than about a tenth of the run spent writing checkpoints.
    checkpoint_gap_ = std::max(configured_gap(), 10 * (last_checkpoint_ - start));
  }
  std::string results_json_text(const RunRecords& r) const {
    return results_to_json(r, cmd_.per_sample_rows).dump(1) + "\n";
  }
  bool lost() const { return lost_; }
  // With an output on standard output (-), the table goes to stderr so stdout stays parseable.
  bool to_stdout() const { return to_stdout_; }

 private:
  const RunCommand& cmd_;
  std::optional<OutputTarget> slots_[4];
  bool lost_ = false;
  bool to_stdout_ = false;
  std::chrono::steady_clock::time_point last_checkpoint_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::duration configured_gap() const {
    return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(cmd_.checkpoint_s));
  }
  std::chrono::steady_clock::duration checkpoint_gap_ = configured_gap();
};

// The exit code of what ran: 1 for a failed entry or validation messages, 130 when stopped.
int run_exit_code(const RunRecords& records) {
  int code = records.context.complete ? kExitOk : kExitInterrupted;
  for (const auto& e : records.entries)
    if (is_failure(e.verdict)) code = kExitFailed;
  if (code == kExitOk && records.context.validation_messages > 0) {
    std::cerr << "gnbench: error: the validation layer reported "
              << records.context.validation_messages << " message(s) (--validate)\n";
    code = kExitFailed;
  }
  return code;
}

// --update-baseline: only a complete, passing run makes a baseline (one that failed or was
// interrupted would hide regressions).
void update_baseline(const RunCommand& cmd, const RunRecords& records, int code,
                     RunOutputs& outputs) {
  if (code != kExitOk) {
    std::cerr << "gnbench: not updating the baseline " << cmd.update_baseline->string()
              << ": the run " << (code == kExitFailed ? "failed" : "was interrupted") << "\n";
    return;
  }
  if (outputs.save(RunOutputs::kBaseline, [&] { return outputs.results_json_text(records); }))
    std::cerr << "gnbench: baseline written to " << cmd.update_baseline->string() << "\n";
}

// --baseline: the run's own failure wins; otherwise compare's exit code (docs/compare.md).
int compare_with_baseline(const RunCommand& cmd, const RunRecords& baseline,
                          const RunRecords& records, int code, std::ostream& out) {
  out << "\n";
  try {
    ComparisonReport report = compare_runs(baseline, records, cmd.compare);
    print_comparison(out, report, cmd.baseline->string(), "this run");
    return code == kExitOk ? report.exit_code : code;
  } catch (const ConfigError& e) {
    if (code == kExitOk) throw;
    std::cerr << "gnbench: error: " << e.what() << "\n";
    return code;
  }
}

ReproContext repro_context(const RunCommand& cmd) {
  ReproContext repro{cmd.configs, {}, cmd.bench.context.device, cmd.bench.trials};
  for (size_t i = 1; i < cmd.bench.kernel_folders.size(); ++i)
    repro.kernel_dirs.push_back(cmd.bench.kernel_folders[i].string());
  return repro;
}

// The table and what follows it: dispatch choices, best variants, statistics, coverage, summary.
void print_report(std::ostream& out, const RunRecords& records, const RunCommand& cmd,
                  const BenchRunner* runner, const TableOptions& table) {
  print_table(out, records, table);
  print_dispatch_choices(out, records);
  print_best_variants(out, best_variants(records));
  if (cmd.pipeline_stats) print_pipeline_statistics(out, records);
  if (cmd.coverage && runner)
    print_coverage(out, compute_coverage(records, runner->variants(), runner->context().info()),
                   repro_context(cmd));
  out << "\n";
  print_run_summary(out, summarize_run(records));
}

}  // namespace

int run_command(const RunCommand& cmd, const std::atomic<bool>* stop) {
  // Everything the user typed is checked before any GPU work.
  std::string source;
  std::vector<Problem> problems = gather_problems(cmd, source);
  const std::pair<uint32_t, uint32_t> shard =
      cmd.shard.empty() ? std::pair<uint32_t, uint32_t>{1, 1} : parse_shard(cmd.shard);
  RunOutputs outputs(cmd);
  if (cmd.bench.dump_dir && !cmd.list) check_dump_folder(*cmd.bench.dump_dir, cmd.force);
  // Read now: an unreadable baseline is a usage error, found before the GPU work.
  std::optional<RunRecords> baseline;
  if (cmd.baseline) {
    baseline = read_results_file(*cmd.baseline);
    validate_compare_options(cmd.compare);
  }

  BenchOptions bench = cmd.bench;
  if (cmd.table) {
    // A table from another gnbench may time builds this one does not have: the rest still
    // choose (the dropped ones are named), as tune --from leaves them out.
    DispatchTable table = read_dispatch_table(*cmd.table);
    const auto dropped = keep_built_variants(table, bench.kernel_folders, cmd.table->string());
    if (!dropped.empty())
      std::cerr << "gnbench: note: " << cmd.table->string()
                << ": variants this gnbench does not build, left out: " << join_bounded(dropped)
                << "\n";
    if (!table.complete)
      std::cerr << "gnbench: warning: " << cmd.table->string()
                << ": written from an interrupted run (a stopped tune, or --from a stopped run's "
                   "results); its "
                << table.entries.size() << " shape(s) are what finished\n";
    use_dispatch_table(bench, std::move(table));
  }
  bench.context.stop = stop;  // so that a stop also ends a wait on an overrunning kernel
  const std::vector<std::string> devices = device_list(bench.context.device);
  if (cmd.coverage && devices.size() > 1)
    throw ConfigError(
        "--coverage: takes one device (regimes depend on its subgroup size), got --device " +
        cmd.bench.context.device);
  std::optional<BenchRunner> runner;  // one device; several get one each in run_on_devices
  auto first_device_runner = [&] {
    BenchOptions one = bench;
    one.context.device = devices.front();  // "all" on a host of one device
    runner.emplace(std::move(one));
  };
  if (devices.size() == 1) {
    first_device_runner();
    runner->check_problems(problems, source);
  }
  problems = take_shard(std::move(problems), shard, cmd.shard);
  if (cmd.list) {
    if (!runner) first_device_runner();  // several devices: the first one's plan
    print_run_plan(std::cout, runner->plan(problems));
    return kExitOk;
  }
  auto stamp = [&](RunRecords& r) {
    r.context.command_line = cmd.command_line;
    r.context.date = now_iso8601();
    r.context.host_name = host_name();
    r.context.configs = cmd.configs;
    if (shard.second > 1)
      r.context.shard = std::to_string(shard.first) + "/" + std::to_string(shard.second);
  };
  const TableOptions table{cmd.show_skipped};
  const bool terminal = isatty(STDERR_FILENO);
  const Progress progress = terminal_progress(!cmd.quiet && terminal);
  // Logs get a line per finished entry (on one device; several keep to the status callback).
  std::optional<ProgressLog> log;
  if (runner && !cmd.quiet && !terminal) {
    log.emplace(std::cerr, start_log(runner->plan(problems)));
    runner->on_entry_finished([&log](const EntryRecord& e) { log->finished(e); });
  }
  if (runner && cmd.json_out)
    runner->on_problem_finished([&](const RunRecords& so_far) {
      if (!outputs.checkpoint_due()) return;  // before any copy: most problems write nothing
      RunRecords r = so_far;
      stamp(r);
      outputs.checkpoint(std::move(r));
    });
  auto on_abandon = [&](const RunRecords& partial) {  // stopped while a kernel overran
    RunRecords r = partial;
    stamp(r);
    outputs.save_results(r, table);
  };
  RunRecords records =
      runner ? runner->run(problems, progress, stop, on_abandon)
             : run_on_devices(bench, devices, problems, source, cmd.mixed_devices, progress, stop);
  stamp(records);

  std::ostream& out = outputs.to_stdout() ? std::cerr : std::cout;
  print_report(out, records, cmd, runner ? &*runner : nullptr, table);
  outputs.save_results(records, table);
  if (cmd.on_records) cmd.on_records(records);
  int code = run_exit_code(records);
  // After the results are written: shrinking runs more problems, and a Ctrl-C there loses nothing.
  if (code == kExitFailed)
    follow_up_failures(out, records, cmd.bench, repro_context(cmd), {}, stop);
  if (cmd.update_baseline) update_baseline(cmd, records, code, outputs);
  if (baseline) code = compare_with_baseline(cmd, *baseline, records, code, out);
  if (!records.context.dump_error.empty() && code == kExitOk) code = kExitUsage;  // dump incomplete
  if (outputs.lost() && code != kExitInterrupted) code = kExitUsage;  // an asked-for output missing
  return code;
}

}  // namespace gnbench
