#include "compare/compare.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "config/config_error.hpp"
#include "report/format.hpp"

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

MannWhitney mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b) {
  MannWhitney r;
  const size_t n1 = a.size(), n2 = b.size(), n = n1 + n2;
  if (!n1 || !n2) return r;
  std::vector<std::pair<double, bool>> all;  // value, from a
  all.reserve(n);
  for (double v : a) all.emplace_back(v, true);
  for (double v : b) all.emplace_back(v, false);
  std::sort(all.begin(), all.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  double rank_sum_a = 0, tie_term = 0;  // tie_term: sum of t^3 - t over tied groups
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && all[j].first == all[i].first) ++j;
    const double avg_rank = (double(i + 1) + double(j)) / 2;  // ranks i+1 .. j
    for (size_t k = i; k < j; ++k)
      if (all[k].second) rank_sum_a += avg_rank;
    const double t = double(j - i);
    tie_term += t * t * t - t;
    i = j;
  }
  const double d1 = double(n1), d2 = double(n2), dn = double(n);
  r.u = rank_sum_a - d1 * (d1 + 1) / 2;
  const double mean = d1 * d2 / 2;
  const double var = d1 * d2 / 12 * ((dn + 1) - tie_term / (dn * (dn - 1)));
  if (var <= 0) return r;  // every value equal: no evidence of a difference
  const double diff = std::abs(r.u - mean);
  r.z = std::max(0.0, diff - 0.5) / std::sqrt(var);
  if (r.u < mean) r.z = -r.z;
  r.p_value = std::erfc(std::abs(r.z) / std::sqrt(2.0));
  return r;
}

size_t ComparisonReport::count(TimeVerdict v) const {
  return std::count_if(entries.begin(), entries.end(),
                       [v](const EntryComparison& e) { return e.time.verdict == v; });
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

TimeComparison compare_time(const EntryRecord& base, const EntryRecord& cur,
                            const CompareOptions& o) {
  TimeComparison t;
  auto [b, c] = common_timing(base, cur, o.mode);
  if (!b || !c) {
    t.reason = !base.headline() || !cur.headline() ? "not timed in both runs"
               : o.mode == "auto"                  ? "no timing mode measured in both runs"
                                                   : "not timed " + o.mode + " in both runs";
    return t;
  }
  if (!same_shape(base.problem.shape, cur.problem.shape)) {
    t.reason = "shape differs from the baseline";
    return t;
  }
  t.mode = b->mode;
  t.base_median_ns = b->total.median;
  t.cur_median_ns = c->total.median;
  t.base_iqr_ns = b->total.q3 - b->total.q1;
  t.cur_iqr_ns = c->total.q3 - c->total.q1;
  t.base_samples = b->samples_ns.empty() ? b->total.samples : b->samples_ns.size();
  t.cur_samples = c->samples_ns.empty() ? c->total.samples : c->samples_ns.size();
  if (!(t.base_median_ns > 0) || !(t.cur_median_ns > 0) || !t.base_samples || !t.cur_samples) {
    t.reason = "no samples";
    return t;
  }
  const double delta = t.cur_median_ns - t.base_median_ns;
  t.change = delta / t.base_median_ns;
  // IQR rather than stdev: one preempted sample must not widen the band.
  t.noise_ns = o.noise_k * (t.base_iqr_ns + t.cur_iqr_ns) / 2;
  if (b->samples_ns.size() >= o.min_u_samples && c->samples_ns.size() >= o.min_u_samples)
    t.u_test = mann_whitney_u(b->samples_ns, c->samples_ns);

  if (std::abs(t.change) <= o.threshold) {
    t.verdict = TimeVerdict::kSame;
  } else if (t.base_samples < o.min_spread_samples || t.cur_samples < o.min_spread_samples) {
    t.verdict = TimeVerdict::kNoisy;
    t.reason = "fewer than " + std::to_string(o.min_spread_samples) +
               " samples in a run: its noise is unknown";
  } else if (std::abs(delta) <= t.noise_ns) {
    t.verdict = TimeVerdict::kNoisy;
    t.reason = "change within the noise band (" + format("%.2f", t.noise_ns / 1e3) + " us)";
  } else if (t.u_test && !(t.u_test->p_value < o.alpha)) {
    t.verdict = TimeVerdict::kNoisy;
    t.reason =
        "Mann-Whitney p = " + format("%.3g", t.u_test->p_value) + " >= " + format("%g", o.alpha);
  } else {
    t.verdict = delta > 0 ? TimeVerdict::kSlower : TimeVerdict::kFaster;
  }
  return t;
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
         {"noise_band_ns", t.noise_ns}});
    if (t.u_test)
      j["mann_whitney"] = {{"u", t.u_test->u}, {"z", t.u_test->z}, {"p_value", t.u_test->p_value}};
  }
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
  if (!cc.complete) r.warnings.push_back("the current run was interrupted: it is incomplete");
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

  for (const auto& cur : current.entries) {
    auto it = base_by_name.find(cur.name());
    if (it == base_by_name.end()) {
      r.only_in_current.push_back(cur.name());
      continue;
    }
    if (std::any_of(r.entries.begin(), r.entries.end(),
                    [&](const EntryComparison& c) { return c.name == cur.name(); }))
      continue;  // a repeated name (hand-edited file): the first one counts
    EntryComparison ec;
    ec.name = cur.name();
    check_correctness(*it->second, cur, options, ec);
    if (r.timing_compared)
      ec.time = compare_time(*it->second, cur, options);
    else
      ec.time.reason = "devices differ";
    r.entries.push_back(std::move(ec));
  }

  const bool noisy_slower = std::any_of(r.entries.begin(), r.entries.end(), [](const auto& e) {
    return e.time.verdict == TimeVerdict::kNoisy && e.time.change > 0;
  });
  r.exit_code = r.regressions()                 ? kCompareCorrectnessRegression
                : r.count(TimeVerdict::kSlower) ? kCompareSlower
                : noisy_slower                  ? kCompareInconclusive
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
  return {{"gnbench_compare_version", 1},
          {"options",
           {{"threshold", o.threshold},
            {"noise_k", o.noise_k},
            {"alpha", o.alpha},
            {"min_u_samples", o.min_u_samples},
            {"min_spread_samples", o.min_spread_samples},
            {"ignore_device", o.ignore_device},
            {"mode", o.mode}}},
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
            {"not_timed", r.count(TimeVerdict::kNone)}}},
          {"exit_code", r.exit_code}};
}

}  // namespace gnbench
