// The text form of a ComparisonReport: the table, the notes, the summary and the rule.
#include <algorithm>
#include <cmath>
#include <iomanip>

#include "base/format.hpp"
#include "cli/commands/commands.hpp"

namespace gnbench {

namespace {

std::string median_us(const TimeComparison& t, bool current) {
  if (t.mode.empty()) return "-";
  return format("%.2f", (current ? t.cur_median_ns : t.base_median_ns) / 1e3);
}

std::string percent(double v) {
  return std::isinf(v) ? (v > 0 ? "+inf" : "-inf") : format("%+.1f", 100 * v);
}

std::string interval(const TimeComparison& t) {
  if (t.verdict == TimeVerdict::kNone) return "-";
  std::string s = "[";
  s.append(percent(t.lo)).append(", ").append(percent(t.hi)).append("]%");
  return s;
}

std::string p_value(const TimeComparison& t) {
  return t.u_test ? format(t.u_test->p_value < 1e-4 ? "%.0e" : "%.4f", t.u_test->p_value) : "-";
}

const char* exit_meaning(int code) {
  switch (code) {
    case kCompareOk: return "no regression";
    case kCompareCorrectnessRegression: return "correctness regression";
    case kCompareSlower: return "slower beyond the threshold";
    case kCompareInconclusive:
      return "inconclusive: significantly slower, but maybe by less than the threshold";
  }
  return "?";
}

bool skip_to_skip(const EntryComparison& e) {
  return e.base_verdict == Verdict::kSkipped && e.cur_verdict == Verdict::kSkipped;
}

void print_rows(std::ostream& out, const std::vector<std::vector<std::string>>& rows) {
  const std::vector<bool> left{true, true, true, false, false, false, false, true};
  std::vector<size_t> width(left.size());
  for (const auto& row : rows)
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  for (const auto& cells : rows) {
    for (size_t i = 0; i + 1 < cells.size(); ++i)
      out << (left[i] ? std::left : std::right) << std::setw(static_cast<int>(width[i])) << cells[i]
          << "  ";
    out << cells.back() << "\n";
  }
}

void print_summary(std::ostream& out, const ComparisonReport& r) {
  out << "\n"
      << r.entries.size() << " compared: " << r.regressions() << " correctness regressions; "
      << r.count(TimeVerdict::kSame) << " same, " << r.count(TimeVerdict::kFaster) << " faster, "
      << r.count(TimeVerdict::kSlower) << " slower, " << r.count(TimeVerdict::kNoisy) << " noisy, "
      << r.count(TimeVerdict::kNone) << " not timed\n";
  if (const double g = r.geometric_mean_ratio(); g > 0)
    out << "geometric mean of the median ratios (current / baseline) over " << r.timed
        << " timed entries: " << format("%.4f", g) << " (" << format("%+.1f", 100 * (g - 1))
        << "%)\n";
  const auto& o = r.options;
  if (r.timing_compared && !r.timed)
    out << "times: no entry was timed in both runs\n";
  else if (r.timing_compared)
    out << "time rule: Hodges-Lehmann interval of current/baseline at "
        << format("%.4g", 100 * r.interval_level) << "% (family-wise " << format("%g", o.alpha)
        << " over " << r.timed << " entries, Bonferroni); SLOWER/FASTER beyond +-"
        << format("%g", 100 * o.threshold) << "%, SAME inside, NOISY across (docs/compare.md)\n";
  else
    out << "times not compared: the runs are from different devices\n";
  out << "result: " << exit_meaning(r.exit_code) << " (exit " << r.exit_code << ")\n";
}

}  // namespace

void print_comparison(std::ostream& out, const ComparisonReport& r,
                      const std::string& baseline_label, const std::string& current_label,
                      bool all) {
  out << "baseline: " << baseline_label << " on " << r.base_device << "\n"
      << "current:  " << current_label << " on " << r.cur_device << "\n\n";
  std::vector<std::vector<std::string>> rows{
      {"entry", "verdict", "mode", "median us", "change", "interval", "p", "time"}};
  size_t hidden_skips = 0;
  for (const auto& e : r.entries) {
    if (!all && skip_to_skip(e)) {
      ++hidden_skips;
      continue;
    }
    const TimeComparison& t = e.time;
    std::string verdict = verdict_name(e.base_verdict) + " -> " + verdict_name(e.cur_verdict);
    if (e.correctness_regression) verdict += " !";
    rows.push_back({e.name, verdict, t.mode.empty() ? "-" : t.mode,
                    median_us(t, false) + " -> " + median_us(t, true),
                    t.mode.empty() ? "-" : format("%+.1f%%", 100 * t.change), interval(t),
                    p_value(t), time_verdict_name(t.verdict)});
  }
  print_rows(out, rows);

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
  if (hidden_skips)
    note(std::to_string(hidden_skips) + " entries SKIP -> SKIP not shown (--all shows them)");
  if (all || r.only_in_baseline.size() <= 1)
    for (const auto& name : r.only_in_baseline) note("only in baseline: " + name);
  else
    note(std::to_string(r.only_in_baseline.size()) +
         " entries only in the baseline (--all lists them)");
  for (const auto& name : r.only_in_current) note("only in current:  " + name);
  for (const auto& w : r.warnings) note("warning: " + w);
  print_summary(out, r);
}

}  // namespace gnbench
