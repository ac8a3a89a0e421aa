#include "cli/report/run_summary.hpp"

#include "base/format.hpp"
#include "cli/report/table_printer.hpp"

namespace gnbench {

namespace {

bool verified(Verdict v) { return v == Verdict::kPass || v == Verdict::kXPass; }

double median_ns(const EntryRecord& e) { return e.headline()->total.median; }

bool timed(const EntryRecord& e) {
  return e.headline() && e.headline()->total.samples > 0 && median_ns(e) > 0;
}

}  // namespace

RunSummary summarize_run(const RunRecords& records) {
  RunSummary s;
  std::map<std::string, size_t> index;  // problem -> position in s.best
  bool any_timed = false;
  for (const auto& e : records.entries) {
    ++s.counts[e.verdict];
    auto [it, added] = index.emplace(e.problem.name, s.best.size());
    if (added) s.best.push_back({e.problem.name, nullptr});
    if (!verified(e.verdict) || !timed(e)) continue;
    any_timed = true;
    if (s.timing.empty()) s.timing = e.headline()->mode;
    const EntryRecord*& best = s.best[it->second].entry;
    if (!best || median_ns(e) < median_ns(*best)) best = &e;
  }
  if (!any_timed) s.best.clear();
  return s;
}

void print_run_summary(std::ostream& out, const RunSummary& s) {
  out << "summary:";
  const char* sep = " ";
  for (Verdict v : {Verdict::kPass, Verdict::kFail, Verdict::kXFail, Verdict::kSkipped,
                    Verdict::kXPass, Verdict::kError}) {
    const auto it = s.counts.find(v);
    const size_t n = it == s.counts.end() ? 0 : it->second;
    // The four the run always has; the rare ones only when they happened.
    if (n == 0 && (v == Verdict::kXPass || v == Verdict::kError)) continue;
    out << sep << n << " " << verdict_name(v);
    sep = ", ";
  }
  out << "\n";
  if (s.best.empty()) return;
  SummaryTable t;
  t.titles = {"problem", "fastest verified variant", s.timing + " us", "GB/s", "% copy"};
  t.left_aligned = {true, true, false, false, false};
  for (const auto& b : s.best) {
    if (!b.entry) {
      t.rows.push_back({b.problem, "(none verified and timed)", "-", "-", "-"});
      continue;
    }
    const Throughput& f = b.entry->headline()->throughput;
    t.rows.push_back({b.problem, b.entry->variant, format("%.2f", median_ns(*b.entry) / 1e3),
                      format(f.gbps < 10 ? "%.2f" : "%.1f", f.gbps),
                      f.pct_copy > 0 ? format("%.1f%%", f.pct_copy) : "-"});
  }
  print_aligned(out, t);
}

}  // namespace gnbench
