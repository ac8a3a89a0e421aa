#include "cli/report/summary_rows.hpp"

#include <algorithm>
#include <cmath>

#include "base/format.hpp"
#include "cli/report/stopping_json.hpp"

namespace gnbench {

namespace {

constexpr size_t kNoiseColumn = 10;  // "noise", after the (cold) median

// Entries timed cold and hot get both medians, side by side as nvbench prints cold and batch
// (hot) GPU times; the other timing columns are of the cold one.
bool has_both_modes(const RunRecords& records) {
  return std::any_of(records.entries.begin(), records.entries.end(),
                     [](const EntryRecord& e) { return e.timings().size() == 2; });
}

std::vector<std::string> row(const EntryRecord& e, bool both_modes) {
  const TimingResult* t = e.headline();
  const bool has_time = t && t->total.samples > 0;
  const double gbps = has_time ? t->throughput.gbps : 0;
  std::string repro = !e.bitwise_reproducible ? "-" : *e.bitwise_reproducible ? "yes" : "NO";
  // The median's 95 % interval half-width: what the stopping rule judged.
  std::string noise =
      has_time && std::isfinite(t->median_ci)
          ? format("%.1f%%", 100 * t->median_ci) + (t->noise_target_reached ? "" : "*")
          : "-";
  std::vector<std::string> cells{
      e.problem.name,
      shape_label(e.problem.shape),
      e.problem.distribution.kind,
      e.variant,
      verdict_name(e.verdict),
      e.trials ? std::to_string(e.trials) : "-",
      e.verification.tensors.empty() ? "-" : format("%.1e", e.worst_scaled_error()),
      !e.trials           ? "-"
      : e.invariants.pass ? "ok"
                          : "FAIL",
      repro,
      has_time ? format("%.2f", t->total.median / 1e3) : "-",
      noise,
      has_time ? format(gbps < 10 ? "%.2f" : "%.1f", gbps) : "-",
      has_time && t->throughput.pct_copy > 0 ? format("%.1f%%", t->throughput.pct_copy) : "-",
      has_time ? stop_label(*t) : "-"};
  if (both_modes) {
    const auto timings = e.timings();  // cold, hot
    cells.insert(cells.begin() + kNoiseColumn + 1,
                 timings.size() == 2 ? format("%.2f", timings[1]->total.median / 1e3) : "-");
  }
  return cells;
}

// The most stages any entry's headline timing has (0 without --stage-times).
size_t stage_columns(const RunRecords& records) {
  size_t n = 0;
  for (const auto& e : records.entries)
    if (const TimingResult* t = e.headline()) n = std::max(n, t->stages.size());
  return n;
}

void append_stage_cells(std::vector<std::string>& cells, const EntryRecord& e, size_t columns) {
  const TimingResult* t = e.headline();
  for (size_t i = 0; i < columns; ++i)
    cells.push_back(t && i < t->stages.size() && i < t->stage_names.size()
                        ? t->stage_names[i] + " " + format("%.2f", t->stages[i].median / 1e3)
                        : "-");
}

bool shown(const EntryRecord& e, const TableOptions& options) {
  return options.show_skipped || e.verdict != Verdict::kSkipped;
}

}  // namespace

SummaryTable summary_table(const RunRecords& records, const TableOptions& options) {
  const bool both = has_both_modes(records);
  SummaryTable t;
  t.titles = {"problem", "NxCxHW/G", "inputs",    "variant", "verdict", "trials", "max err",
              "invar",   "repro",    "median us", "noise",   "GB/s",    "% copy", "stop"};
  t.left_aligned = {true, true, true,  true,  true,  false, false,
                    true, true, false, false, false, false, true};
  if (both) {
    t.titles[kNoiseColumn - 1] = "cold us";
    t.titles.insert(t.titles.begin() + kNoiseColumn + 1, "hot us");
    t.left_aligned.insert(t.left_aligned.begin() + kNoiseColumn + 1, false);
  }
  const size_t stages = stage_columns(records);
  for (size_t i = 0; i < stages; ++i) {
    t.titles.push_back("stage " + std::to_string(i + 1) + " us");
    t.left_aligned.push_back(false);
  }
  for (const auto& e : records.entries) {
    if (!shown(e, options)) continue;
    t.rows.push_back(row(e, both));
    append_stage_cells(t.rows.back(), e, stages);
  }
  return t;
}

std::string summary_header(const RunContext& c) {
  std::string s = "gnbench " + c.gnbench_version + " (" + c.git_revision + ", " + c.build_type +
                  ") on " + c.device.value("name", "?") + " [" +
                  c.device.value("driver_name", "?") + " " + c.device.value("driver_version", "?") +
                  "]";
  if (c.copy_gbps > 0)
    s += ", copy bandwidth " + format("%.1f", c.copy_gbps) + " GB/s" +
         (c.copy_bandwidth.is_object() && c.copy_bandwidth.value("source", "") == "given"
              ? " (given)"
              : "");
  return s + ", timing " + c.timing_mode;
}

namespace {

// Every buffer-pair reading of the copy probes (context.copy_bandwidth.pairs_gbps: one list
// per probe); none for results without them.
std::vector<double> copy_pair_readings(const RunContext& c) {
  std::vector<double> out;
  const nlohmann::json& cb = c.copy_bandwidth;
  if (!cb.is_object() || !cb.contains("pairs_gbps")) return out;
  for (const auto& probe : cb["pairs_gbps"])
    for (const auto& r : probe)
      if (r.is_number()) out.push_back(r.get<double>());
  return out;
}

}  // namespace

std::vector<std::string> summary_notes(const RunRecords& records, const TableOptions& options) {
  std::vector<std::string> notes;
  for (const auto& e : records.entries)
    if (e.verdict != Verdict::kPass && !e.message.empty() && shown(e, options))
      notes.push_back(verdict_name(e.verdict) + " " + e.name() + ": " + e.message);
  const auto hidden = std::count_if(records.entries.begin(), records.entries.end(),
                                    [&](const EntryRecord& e) { return !shown(e, options); });
  if (hidden)
    notes.push_back(std::to_string(hidden) + (hidden == 1 ? " entry" : " entries") +
                    " skipped (not applicable); --show-skipped lists them");
  for (const auto& e : records.entries)
    if (e.bitwise_reproducible == false && !e.declared_deterministic)
      notes.push_back("note " + e.name() +
                      ": not bitwise reproducible (the variant declares float atomics)");
  if (std::any_of(records.entries.begin(), records.entries.end(), [](const EntryRecord& e) {
        return e.headline() && !e.headline()->noise_target_reached;
      }))
    notes.emplace_back("* the median's interval did not reach --max-noise before --timeout");
  std::string legend =
      "max err: largest |gpu - ref| / rms over its group of ref (at least rstd * rms(w * dy)); "
      "invar: sum(dx) = 0, sum(dx*xhat), "
      "grad_bias checks; repro: two runs bitwise identical; noise: half-width of the median's 95 % "
      "interval / median; stop: the rule that ended sampling, bimodal when the samples split "
      "in two; GB/s: required traffic (read x, "
      "grad_out, weight; write 3 outputs) / median GPU time";
  if (has_both_modes(records)) legend += " (the cold one, as are noise and % copy)";
  notes.push_back(legend);
  const RunContext& c = records.context;
  const auto pairs = copy_pair_readings(c);
  if (const auto [lo, hi] = std::minmax_element(pairs.begin(), pairs.end());
      lo != pairs.end() && *lo < 0.8 * *hi)
    notes.push_back("note: the copy probe's buffer pairs read " + format("%.0f", *lo) + " to " +
                    format("%.0f", *hi) +
                    " GB/s; the highest is the copy bandwidth (docs/performance.md)");
  if (c.build_type != "Release" && c.build_type != "RelWithDebInfo")
    notes.push_back("warning: gnbench was built as " + c.build_type +
                    ", not Release: host-side work is slow");
  if (c.validation)
    notes.push_back("warning: Vulkan validation layers were on: times are not representative");
  if (!c.complete) notes.push_back("warning: run interrupted; the results are incomplete");
  return notes;
}

}  // namespace gnbench
