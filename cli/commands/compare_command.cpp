#include <algorithm>
#include <iomanip>
#include <iostream>

#include "commands/commands.hpp"
#include "compare/compare.hpp"
#include "config/config_error.hpp"
#include "report/atomic_file.hpp"
#include "report/format.hpp"
#include "report/results_json.hpp"

namespace gnbench {

namespace {

std::string label(const std::filesystem::path& path, const RunContext& c) {
  return path.string() + " (" + c.git_revision + (c.date.empty() ? "" : ", " + c.date) + ")";
}

std::string median_us(const TimeComparison& t, bool current) {
  if (t.mode.empty()) return "-";
  return format("%.2f", (current ? t.cur_median_ns : t.base_median_ns) / 1e3);
}

const char* exit_meaning(int code) {
  switch (code) {
    case kCompareOk: return "no regression";
    case kCompareCorrectnessRegression: return "correctness regression";
    case kCompareSlower: return "significantly slower";
    case kCompareInconclusive:
      return "inconclusive: slower beyond the threshold, but within the noise";
  }
  return "?";
}

}  // namespace

void print_comparison(std::ostream& out, const ComparisonReport& r,
                      const std::string& baseline_label, const std::string& current_label) {
  out << "baseline: " << baseline_label << " on " << r.base_device << "\n"
      << "current:  " << current_label << " on " << r.cur_device << "\n";

  const std::vector<std::string> titles{"entry", "verdict", "mode", "median us", "change", "time"};
  const std::vector<bool> left{true, true, true, false, false, true};
  std::vector<std::vector<std::string>> rows;
  for (const auto& e : r.entries) {
    const TimeComparison& t = e.time;
    std::string verdict = verdict_name(e.base_verdict) + " -> " + verdict_name(e.cur_verdict);
    if (e.correctness_regression) verdict += " !";
    rows.push_back({e.name, verdict, t.mode.empty() ? "-" : t.mode,
                    median_us(t, false) + " -> " + median_us(t, true),
                    t.mode.empty() ? "-" : format("%+.1f%%", 100 * t.change),
                    time_verdict_name(t.verdict)});
  }
  std::vector<size_t> width(titles.size());
  for (size_t i = 0; i < titles.size(); ++i) {
    width[i] = titles[i].size();
    for (const auto& row : rows) width[i] = std::max(width[i], row[i].size());
  }
  auto print_row = [&](const std::vector<std::string>& cells) {
    for (size_t i = 0; i + 1 < cells.size(); ++i)
      out << (left[i] ? std::left : std::right) << std::setw(static_cast<int>(width[i])) << cells[i]
          << "  ";
    out << cells.back() << "\n";
  };
  out << "\n";
  print_row(titles);
  for (const auto& row : rows) print_row(row);

  bool first = true;
  auto note = [&](const std::string& line) {
    if (first) out << "\n";
    first = false;
    out << line << "\n";
  };
  for (const auto& e : r.entries) {
    for (const auto& n : e.notes) note(e.name + ": " + n);
    if (e.time.verdict == TimeVerdict::kNoisy) note(e.name + ": NOISY: " + e.time.reason);
  }
  for (const auto& name : r.only_in_baseline) note("only in baseline: " + name);
  for (const auto& name : r.only_in_current) note("only in current:  " + name);
  for (const auto& w : r.warnings) note("warning: " + w);

  const auto& o = r.options;
  out << "\n"
      << r.entries.size() << " compared: " << r.regressions() << " correctness regressions; "
      << r.count(TimeVerdict::kSame) << " same, " << r.count(TimeVerdict::kFaster) << " faster, "
      << r.count(TimeVerdict::kSlower) << " slower, " << r.count(TimeVerdict::kNoisy) << " noisy, "
      << r.count(TimeVerdict::kNone) << " not timed\n";
  if (r.timing_compared)
    out << "time rule: |change of median| > " << format("%g", 100 * o.threshold)
        << "% of the baseline median, > " << format("%g", o.noise_k)
        << " x the mean IQR of the two runs and, with >= " << o.min_u_samples
        << " samples each, Mann-Whitney p < " << format("%g", o.alpha) << " (docs/compare.md)\n";
  else
    out << "times not compared: the runs are from different devices\n";
  out << "result: " << exit_meaning(r.exit_code) << " (exit " << r.exit_code << ")\n";
}

int compare_command(const CompareCommand& cmd) {
  if (cmd.json_out) ensure_writable_target(*cmd.json_out, cmd.force, "--force");
  RunRecords baseline = read_results_file(cmd.baseline);
  RunRecords current = read_results_file(cmd.current);
  ComparisonReport report = compare_runs(baseline, current, cmd.options);
  print_comparison(std::cout, report, label(cmd.baseline, baseline.context),
                   label(cmd.current, current.context));
  if (cmd.json_out) {
    nlohmann::json j = comparison_to_json(report);
    j["baseline_file"] = cmd.baseline.string();
    j["current_file"] = cmd.current.string();
    try {
      write_file_atomically(*cmd.json_out, j.dump(1) + "\n");
    } catch (const std::runtime_error& e) {
      // Exit 1 means a correctness regression here, so an I/O failure must not map to it.
      throw ConfigError(e.what());
    }
  }
  return report.exit_code;
}

}  // namespace gnbench
