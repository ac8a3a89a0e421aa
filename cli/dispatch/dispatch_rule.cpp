#include "cli/dispatch/dispatch_rule.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "base/format.hpp"
#include "base/message_text.hpp"

namespace gnbench {

namespace {

// Entry `e`'s fastest time over the variants `ok` accepts (infinity when none).
template <typename Ok>
std::pair<std::string, double> fastest(const DispatchEntry& e, const Ok& ok) {
  std::pair<std::string, double> best{"", std::numeric_limits<double>::infinity()};
  for (const auto& [v, us] : e.times_us)
    if (us < best.second && ok(v)) best = {v, us};
  return best;
}

}  // namespace

double regime_distance(const Shape& a, const Shape& b) {
  auto l2 = [](double v) { return std::log2(v); };
  auto cpg = [](const Shape& s) { return double(s.channels / s.groups); };
  auto m = [&](const Shape& s) { return l2(cpg(s) * s.spatial); };
  auto ng = [&](const Shape& s) { return l2(double(s.batch) * s.groups); };
  const bool aligned_differs = (a.spatial % 4 == 0) != (b.spatial % 4 == 0);
  return std::abs(m(a) - m(b)) + std::abs(ng(a) - ng(b)) +
         0.5 * (std::abs(l2(a.spatial) - l2(b.spatial)) + std::abs(l2(cpg(a)) - l2(cpg(b)))) +
         (aligned_differs ? 4.0 : 0.0);
}

DispatchChoice choose_variant(const DispatchTable& table, const Shape& shape,
                              const std::function<bool(const std::string&)>& admits) {
  std::map<std::string, bool> admitted;  // admits() evaluates manifests: once per name
  auto ok = [&](const std::string& v) {
    auto it = admitted.find(v);
    if (it != admitted.end()) return it->second;
    return admitted[v] = admits(v);
  };
  for (const auto& e : table.entries)
    if (e.shape == shape) {
      const auto best = fastest(e, ok);
      if (!best.first.empty())
        return {best.first, e.device.empty() ? "exact" : "exact, timed on " + e.device};
    }
  // Entries by regime distance (stable: ties keep the table's order).
  std::vector<std::pair<double, const DispatchEntry*>> near;
  for (const auto& e : table.entries) near.push_back({regime_distance(e.shape, shape), &e});
  std::stable_sort(near.begin(), near.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  struct Score {
    double log_sum = 0;  // sum of weight * log(time / entry's fastest)
    double weight = 0;
    size_t count = 0;
    size_t first = 0;  // position in `near` of the nearest entry that timed it
    double mean() const { return log_sum / weight; }
  };
  std::map<std::string, Score> scores;
  auto rank_within = [&](size_t window) {
    scores.clear();
    for (size_t i = 0; i < std::min(window, near.size()); ++i) {
      const DispatchEntry& e = *near[i].second;
      const double best_us = fastest(e, [](const std::string&) { return true; }).second;
      if (!(best_us > 0)) continue;  // a zero time ranks nothing
      // Nearer evidence counts for more: a far entry of another regime cannot outvote it.
      const double w = std::exp(-near[i].first / kDistanceScale);
      for (const auto& [v, us] : e.times_us) {
        if (!ok(v)) continue;
        Score& sc = scores.try_emplace(v, Score{0, 0, 0, i}).first->second;
        if (sc.count == kNeighbours) continue;
        sc.log_sum += w * std::log(us / best_us);
        sc.weight += w;
        ++sc.count;
      }
    }
  };
  rank_within(kWindow);
  if (scores.empty()) rank_within(near.size());
  if (scores.empty()) return {"", ""};
  auto better = [](const Score& a, const Score& b) {
    const double ma = a.mean(), mb = b.mean();
    if (ma != mb) return ma < mb;
    if (a.count != b.count) return a.count > b.count;
    return a.first < b.first;
  };
  auto chosen = scores.begin();
  for (auto it = scores.begin(); it != scores.end(); ++it)
    if (better(it->second, chosen->second)) chosen = it;
  const Score& c = chosen->second;
  const DispatchEntry& at = *near[c.first].second;
  const std::string where = at.device.empty() ? "" : " on " + printable(at.device, 80);
  return {chosen->first, "nearest " + printable(at.problem, 80) + " (" + shape_label(at.shape) +
                             ")" + where + "; " + format("%.3f", std::exp(c.mean())) +
                             "x the fastest over " + std::to_string(c.count) + " near shape" +
                             (c.count == 1 ? "" : "s")};
}

void use_dispatch_table(BenchOptions& bench, DispatchTable table) {
  bench.variants.clear();
  for (const auto& e : table.entries)
    for (const auto& [v, us] : e.times_us)
      if (std::find(bench.variants.begin(), bench.variants.end(), v) == bench.variants.end())
        bench.variants.push_back(v);
  bench.choose = [t = std::move(table)](const Shape& shape, const BenchOptions::Admits& admits) {
    DispatchChoice c = choose_variant(t, shape, admits);
    return std::make_pair(c.variant, c.how);
  };
}

void print_dispatch_choices(std::ostream& out, const RunRecords& records) {
  const nlohmann::json& choices = records.context.dispatch_choices;
  if (choices.empty()) return;
  out << "\n--variant best (dispatch table):\n";
  std::string last;
  for (const auto& e : records.entries) {
    if (e.problem.name == last || !choices.contains(e.problem.name)) continue;
    last = e.problem.name;
    const nlohmann::json& c = choices[last];
    const std::string variant = c.value("variant", "");
    out << "  " << last << " -> "
        << (variant.empty() ? "none: no table variant admits the shape" : variant) << "  ["
        << c.value("how", "") << "]\n";
  }
}

}  // namespace gnbench
