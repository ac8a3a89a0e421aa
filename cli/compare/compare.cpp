#include "cli/compare/compare.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

#include "base/errors.hpp"
#include "base/format.hpp"

namespace gnbench {

using nlohmann::json;

std::string time_verdict_name(TimeVerdict v) {
  switch (v) {
    case TimeVerdict::kNone: return "-";
    case TimeVerdict::kSame: return "SAME";
    case TimeVerdict::kFaster: return "FASTER";
    case TimeVerdict::kSlower: return "SLOWER";
    case TimeVerdict::kNoisy: return "NOISY";
  }
  return "?";
}

size_t ComparisonReport::count(TimeVerdict v) const {
  return std::count_if(entries.begin(), entries.end(),
                       [v](const EntryComparison& e) { return e.time.verdict == v; });
}

double ComparisonReport::geometric_mean_ratio() const {
  double sum = 0;
  size_t n = 0;
  for (const auto& e : entries)
    if (e.time.verdict != TimeVerdict::kNone) {
      sum += std::log(e.time.cur_median_ns / e.time.base_median_ns);
      ++n;
    }
  return n ? std::exp(sum / double(n)) : 0;
}

size_t ComparisonReport::regressions() const {
  return std::count_if(entries.begin(), entries.end(),
                       [](const EntryComparison& e) { return e.correctness_regression; });
}

void validate_compare_options(const CompareOptions& options) {
  if (!std::isfinite(options.threshold) || options.threshold < 0)
    throw ConfigError("--threshold " + format("%g", options.threshold) +
                      ": must be a finite number >= 0");
  if (options.mode != "auto" && options.mode != "cold" && options.mode != "hot")
    throw ConfigError("--mode '" + options.mode + "': expected auto, cold or hot");
  if (!(options.alpha > 0 && options.alpha < 1))
    throw ConfigError("--alpha " + format("%g", options.alpha) + ": must be in (0, 1)");
}

namespace {

std::string device_name(const RunContext& c) {
  return c.device.is_object() ? c.device.value("name", "?") : "?";
}

bool same_shape(const Shape& a, const Shape& b) {
  return a.batch == b.batch && a.channels == b.channels && a.spatial == b.spatial &&
         a.groups == b.groups;
}

// The timing mode to compare: the one asked for, or with "auto" the one both runs measured,
// cold first as in the headline.
std::pair<const TimingResult*, const TimingResult*> common_timing(const EntryRecord& b,
                                                                  const EntryRecord& c,
                                                                  const std::string& mode) {
  if (mode != "hot" && b.cold && c.cold) return {&*b.cold, &*c.cold};
  if (mode != "cold" && b.hot && c.hot) return {&*b.hot, &*c.hot};
  return {nullptr, nullptr};
}

// The two timings to compare, or nullptrs with the reason in t.reason; fills the medians.
std::pair<const TimingResult*, const TimingResult*> timing_pair(const EntryRecord& base,
                                                                const EntryRecord& cur,
                                                                const CompareOptions& o,
                                                                TimeComparison& t) {
  auto [b, c] = common_timing(base, cur, o.mode);
  if (!b || !c) {
    t.reason = !base.headline() || !cur.headline() ? "not timed in both runs"
               : o.mode == "auto"                  ? "no timing mode measured in both runs"
                                                   : "not timed " + o.mode + " in both runs";
    return {nullptr, nullptr};
  }
  if (!same_shape(base.problem.shape, cur.problem.shape)) {
    t.reason = "shape differs from the baseline";
    return {nullptr, nullptr};
  }
  t.mode = b->mode;
  t.base_median_ns = b->total.median;
  t.cur_median_ns = c->total.median;
  t.base_iqr_ns = b->total.q3 - b->total.q1;
  t.cur_iqr_ns = c->total.q3 - c->total.q1;
  t.base_samples = b->samples_ns.empty() ? b->total.samples : b->samples_ns.size();
  t.cur_samples = c->samples_ns.empty() ? c->total.samples : c->samples_ns.size();
  if (!(t.base_median_ns > 0) || !(t.cur_median_ns > 0) || !t.base_samples || !t.cur_samples) {
    t.mode.clear();
    t.reason = "no samples";
    return {nullptr, nullptr};
  }
  t.change = (t.cur_median_ns - t.base_median_ns) / t.base_median_ns;
  return {b, c};
}

std::vector<double> logs(const std::vector<double>& samples_ns) {
  std::vector<double> out;
  for (double v : samples_ns)
    if (v > 0 && std::isfinite(v)) out.push_back(std::log(v));
  return out;
}

// The verdict from the interval of cur/base - 1 at `level` (docs/compare.md).
void judge_time(const TimingResult& b, const TimingResult& c, double level, const CompareOptions& o,
                TimeComparison& t) {
  const ShiftInterval s = hodges_lehmann(logs(b.samples_ns), logs(c.samples_ns), level);
  // expm1(-inf) would be -1: an unbounded end stays unbounded.
  auto ratio = [](double log_ratio) {
    return std::isinf(log_ratio) ? log_ratio : std::expm1(log_ratio);
  };
  t.estimate = ratio(s.estimate);
  t.lo = ratio(s.lo);
  t.hi = ratio(s.hi);
  t.level = level;
  const bool have_samples = !b.samples_ns.empty() && !c.samples_ns.empty();
  if (have_samples)
    t.u_test = s.test;
  else
    t.estimate = t.change;  // without samples the medians are the only estimate
  if (t.lo > o.threshold) {
    t.verdict = TimeVerdict::kSlower;
  } else if (t.hi < -o.threshold) {
    t.verdict = TimeVerdict::kFaster;
  } else if (t.lo >= -o.threshold && t.hi <= o.threshold) {
    t.verdict = TimeVerdict::kSame;
  } else {
    t.verdict = TimeVerdict::kNoisy;
    // An unbounded interval (too few samples for the level) says nothing either way, so there
    // the estimate decides; a bounded one that includes 0 is no evidence of a slowdown.
    const bool unbounded = std::isinf(t.lo) || std::isinf(t.hi);
    t.inconclusive = t.lo > 0 || (unbounded && t.estimate > o.threshold);
    const std::string pct = format("%g", 100 * o.threshold) + "%";
    t.reason = !have_samples      ? "no per-sample times in a run"
               : std::isinf(t.lo) ? "too few samples (" + std::to_string(t.base_samples) + ", " +
                                        std::to_string(t.cur_samples) + ") for a " +
                                        format("%.4g", 100 * level) + "% interval"
               : t.lo > 0 ? "slower, but the interval reaches below +" + pct
                          : "the interval straddles +-" + pct + ": more samples narrow it";
    if (t.inconclusive && !(t.lo > 0))
      t.reason += "; the estimate " + format("%+.1f", 100 * t.estimate) + "% is beyond +" + pct +
                  ", not confirmed: inconclusive";
  }
}

void check_correctness(const EntryRecord& base, const EntryRecord& cur, const CompareOptions& o,
                       EntryComparison& out) {
  out.base_verdict = base.verdict;
  out.cur_verdict = cur.verdict;
  out.base_error = base.worst_scaled_error();
  out.cur_error = cur.worst_scaled_error();
  const std::string change = verdict_name(base.verdict) + " -> " + verdict_name(cur.verdict);
  const std::string why = cur.message.empty() ? "" : ": " + cur.message;
  if (is_failure(cur.verdict) && !is_failure(base.verdict)) {
    out.correctness_regression = true;
    out.notes.push_back("correctness regression " + change + why);
  } else if (is_failure(cur.verdict)) {
    out.notes.push_back("still failing (" + change + ")" + why);
  } else if (is_failure(base.verdict)) {
    out.notes.push_back("fixed (" + change + ")");
  } else if (base.verdict != cur.verdict) {
    out.notes.push_back("verdict changed " + change + why);
  }
  const Problem &bp = base.problem, &cp = cur.problem;
  if (!same_shape(bp.shape, cp.shape) || bp.eps != cp.eps || bp.seed != cp.seed ||
      bp.distribution.kind != cp.distribution.kind ||
      bp.distribution.param != cp.distribution.param)
    out.notes.push_back("problem definition differs from the baseline");
  // An error that grows by an order of magnitude while still passing is a warning sign of a
  // numerical change (e.g. a lost compensated sum) before it turns into a failure.
  if (base.verdict == Verdict::kPass && cur.verdict == Verdict::kPass &&
      !base.verification.tensors.empty() && !cur.verification.tensors.empty() &&
      std::isfinite(out.base_error) && std::isfinite(out.cur_error)) {
    const double from = std::max(out.base_error, o.error_floor);
    if (out.cur_error > o.error_growth * from)
      out.notes.push_back("max scaled error grew " + format("%.1f", out.cur_error / from) + "x (" +
                          format("%.2e", out.base_error) + " -> " + format("%.2e", out.cur_error) +
                          ")");
  }
}

// JSON has no infinity: an unbounded end of the interval is null.
json finite_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json time_to_json(const TimeComparison& t) {
  json j{{"verdict", time_verdict_name(t.verdict)}};
  if (!t.mode.empty()) {
    j.update(
        {{"mode", t.mode},
         {"baseline",
          {{"median_ns", t.base_median_ns},
           {"iqr_ns", t.base_iqr_ns},
           {"samples", t.base_samples}}},
         {"current",
          {{"median_ns", t.cur_median_ns}, {"iqr_ns", t.cur_iqr_ns}, {"samples", t.cur_samples}}},
         {"change", t.change},
         {"estimate", t.estimate},
         {"interval", {finite_or_null(t.lo), finite_or_null(t.hi)}},
         {"interval_level", t.level}});
    if (t.u_test)
      j["mann_whitney"] = {{"u", t.u_test->u}, {"z", t.u_test->z}, {"p_value", t.u_test->p_value}};
  }
  if (t.verdict == TimeVerdict::kNoisy) j["inconclusive"] = t.inconclusive;
  if (!t.reason.empty()) j["reason"] = t.reason;
  return j;
}

}  // namespace

ComparisonReport compare_runs(const RunRecords& baseline, const RunRecords& current,
                              const CompareOptions& options) {
  validate_compare_options(options);
  ComparisonReport r;
  r.options = options;
  const RunContext &bc = baseline.context, &cc = current.context;
  r.base_device = device_name(bc);
  r.cur_device = device_name(cc);
  if (bc.device_fingerprint != cc.device_fingerprint) {
    const std::string what = "baseline was measured on " + r.base_device + " [" +
                             bc.device_fingerprint + "], current on " + r.cur_device + " [" +
                             cc.device_fingerprint + "]";
    if (!options.ignore_device)
      throw ConfigError(what +
                        "; times are not comparable (--ignore-device compares correctness only)");
    r.timing_compared = false;
    r.warnings.push_back(what + ": comparing correctness only, not times");
  }
  if (!bc.complete) r.warnings.push_back("the baseline run was interrupted: it is incomplete");
  if (!cc.complete)
    r.warnings.push_back(
        "the current run was interrupted: it is incomplete, so at best inconclusive (exit 4)");
  if (bc.validation || cc.validation)
    r.warnings.push_back("Vulkan validation layers were on in a run: times are not representative");
  if (bc.timing_mode != cc.timing_mode)
    r.warnings.push_back("timing modes differ (" + bc.timing_mode + " vs " + cc.timing_mode +
                         "): only a mode measured in both is compared");

  std::map<std::string, const EntryRecord*> base_by_name, cur_by_name;
  for (const auto& e : baseline.entries) base_by_name.emplace(e.name(), &e);
  for (const auto& e : current.entries) cur_by_name.emplace(e.name(), &e);
  for (const auto& e : baseline.entries)
    if (!cur_by_name.count(e.name())) r.only_in_baseline.push_back(e.name());

  // First the pairs (m of them timed), then each time judged at the Bonferroni level.
  std::vector<std::pair<const TimingResult*, const TimingResult*>> timings;
  std::set<std::string> compared;
  for (const auto& cur : current.entries) {
    auto it = base_by_name.find(cur.name());
    if (it == base_by_name.end()) {
      r.only_in_current.push_back(cur.name());
      continue;
    }
    if (!compared.insert(cur.name()).second)
      continue;  // a repeated name (records built in memory; files refuse them): the first counts
    EntryComparison ec;
    ec.name = cur.name();
    check_correctness(*it->second, cur, options, ec);
    timings.emplace_back(nullptr, nullptr);
    if (r.timing_compared)
      timings.back() = timing_pair(*it->second, cur, options, ec.time);
    else
      ec.time.reason = "devices differ";
    if (timings.back().first) ++r.timed;
    r.entries.push_back(std::move(ec));
  }
  if (r.entries.empty())
    throw ConfigError(
        "no problem/variant of the baseline is in the current run: nothing to "
        "compare (" +
        std::to_string(baseline.entries.size()) + " in the baseline, " +
        std::to_string(current.entries.size()) + " in the current run)");
  r.interval_level = 1 - options.alpha / double(std::max<size_t>(r.timed, 1));
  for (size_t i = 0; i < r.entries.size(); ++i)
    if (timings[i].first)
      judge_time(*timings[i].first, *timings[i].second, r.interval_level, options,
                 r.entries[i].time);

  const bool inconclusive = std::any_of(r.entries.begin(), r.entries.end(),
                                        [](const auto& e) { return e.time.inconclusive; });
  // An interrupted current run was not judged in full: "no regression" would claim too much.
  r.exit_code = r.regressions()                 ? kCompareCorrectnessRegression
                : r.count(TimeVerdict::kSlower) ? kCompareSlower
                : inconclusive || !cc.complete  ? kCompareInconclusive
                                                : kCompareOk;
  return r;
}

json comparison_to_json(const ComparisonReport& r) {
  json entries = json::array();
  for (const auto& e : r.entries) {
    entries.push_back(
        {{"name", e.name},
         {"baseline",
          {{"verdict", verdict_name(e.base_verdict)}, {"max_scaled_error", e.base_error}}},
         {"current", {{"verdict", verdict_name(e.cur_verdict)}, {"max_scaled_error", e.cur_error}}},
         {"correctness_regression", e.correctness_regression},
         {"notes", e.notes},
         {"time", time_to_json(e.time)}});
  }
  const auto& o = r.options;
  return {{"gnbench_compare_version", 2},
          {"options",
           {{"threshold", o.threshold},
            {"alpha", o.alpha},
            {"ignore_device", o.ignore_device},
            {"mode", o.mode}}},
          {"interval_level", r.interval_level},
          {"baseline_device", r.base_device},
          {"current_device", r.cur_device},
          {"timing_compared", r.timing_compared},
          {"entries", entries},
          {"only_in_baseline", r.only_in_baseline},
          {"only_in_current", r.only_in_current},
          {"warnings", r.warnings},
          {"summary",
           {{"compared", r.entries.size()},
            {"correctness_regressions", r.regressions()},
            {"same", r.count(TimeVerdict::kSame)},
            {"faster", r.count(TimeVerdict::kFaster)},
            {"slower", r.count(TimeVerdict::kSlower)},
            {"noisy", r.count(TimeVerdict::kNoisy)},
            {"not_timed", r.count(TimeVerdict::kNone)},
            {"geometric_mean_ratio", r.geometric_mean_ratio()}}},
          {"exit_code", r.exit_code}};
}

}  // namespace gnbench
