#include "cli/compare/rank_statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace gnbench {

namespace {

struct RankSums {
  double u = 0;    // U of a
  double var = 0;  // variance of U under "same distribution", tie-corrected
};

RankSums rank_sums(const std::vector<double>& a, const std::vector<double>& b) {
  const size_t n1 = a.size(), n2 = b.size(), n = n1 + n2;
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
  return {rank_sum_a - d1 * (d1 + 1) / 2, d1 * d2 / 12 * ((dn + 1) - tie_term / (dn * (dn - 1)))};
}

// How many differences b_j - a_i are <= x; a and b sorted. One merge-like pass.
size_t count_at_most(const std::vector<double>& a, const std::vector<double>& b, double x) {
  size_t count = 0, i = 0;  // i: first a_i with a_i >= b_j - x (moves right as b_j grows)
  for (double bj : b) {
    while (i < a.size() && a[i] < bj - x) ++i;
    count += a.size() - i;
  }
  return count;
}

// The k-th smallest (1-based) of the differences b_j - a_i, by bisection on the value: no
// n1 x n2 array, so thousands of samples cost little. Within kTolerance of the exact value
// (of a log ratio: a relative error of 1e-10 in the time ratio).
constexpr double kTolerance = 1e-10;
double kth_difference(const std::vector<double>& a, const std::vector<double>& b, size_t k) {
  double lo = b.front() - a.back(), hi = b.back() - a.front();
  if (count_at_most(a, b, lo) >= k) return lo;
  while (hi - lo > kTolerance) {  // invariant: count(lo) < k <= count(hi)
    const double mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;  // adjacent doubles
    (count_at_most(a, b, mid) >= k ? hi : lo) = mid;
  }
  return hi;
}

}  // namespace

MannWhitney mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b) {
  MannWhitney r;
  if (a.empty() || b.empty()) return r;
  const RankSums s = rank_sums(a, b);
  r.u = s.u;
  if (s.var <= 0) return r;  // every value equal: no evidence of a difference
  const double mean = double(a.size()) * double(b.size()) / 2;
  r.z = std::max(0.0, std::abs(r.u - mean) - 0.5) / std::sqrt(s.var);
  if (r.u < mean) r.z = -r.z;
  r.p_value = std::erfc(std::abs(r.z) / std::sqrt(2.0));
  return r;
}

double normal_quantile_upper(double upper_tail) {
  double lo = -40, hi = 40;  // P(Z > z) falls as z grows
  for (int it = 0; it < 200; ++it) {
    const double mid = (lo + hi) / 2;
    (0.5 * std::erfc(mid / std::sqrt(2.0)) > upper_tail ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

ShiftInterval hodges_lehmann(const std::vector<double>& a, const std::vector<double>& b,
                             double level) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  ShiftInterval r;
  r.level = level;
  r.lo = -kInf;
  r.hi = kInf;
  if (a.empty() || b.empty()) return r;
  r.test = mann_whitney_u(a, b);
  std::vector<double> sa = a, sb = b;
  std::sort(sa.begin(), sa.end());
  std::sort(sb.begin(), sb.end());
  const size_t n = sa.size() * sb.size();
  r.estimate = n % 2 ? kth_difference(sa, sb, n / 2 + 1)
                     : (kth_difference(sa, sb, n / 2) + kth_difference(sa, sb, n / 2 + 1)) / 2;
  const double var = rank_sums(a, b).var;
  if (var <= 0) {  // every sample equal: the shift is exactly 0 (nothing varies)
    r.lo = r.hi = r.estimate;
    return r;
  }
  const double c =
      std::floor(double(n) / 2 - normal_quantile_upper((1 - level) / 2) * std::sqrt(var));
  if (c < 1) return r;  // too few samples for this confidence: unbounded
  r.lo = kth_difference(sa, sb, size_t(c));
  r.hi = kth_difference(sa, sb, n + 1 - size_t(c));
  return r;
}

}  // namespace gnbench
