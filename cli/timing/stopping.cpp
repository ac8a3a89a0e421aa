#include "cli/timing/stopping.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>

namespace gnbench {

namespace {

constexpr double kZ95 = 1.959964;
constexpr size_t kMinSamplesForInterval = 6;
constexpr double kMinSideFraction = 0.1;  // each mode holds at least this share
constexpr double kMinGapOfMedian = 0.05;  // and they lie this far apart, relative
constexpr double kMinGapOfSpread = 3.0;   // and the gap is this many times either side's IQR

double median_of_sorted(const double* v, size_t n) {
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double iqr_of_sorted(const double* v, size_t n) { return v[(3 * n) / 4] - v[n / 4]; }

// (g^2 + 1) / (k + 3 (n-1)^2 / ((n-2)(n-3))), g the sample skewness and k the excess kurtosis.
double bimodality_coefficient(const std::vector<double>& v) {
  const double n = static_cast<double>(v.size());
  if (v.size() < 4) return 0;
  Eigen::Map<const Eigen::ArrayXd> a(v.data(), static_cast<Eigen::Index>(v.size()));
  const Eigen::ArrayXd d = a - a.mean();
  const double m2 = d.square().mean();
  if (m2 <= 0) return 0;
  const double g = d.cube().mean() / std::pow(m2, 1.5);
  const double k = d.square().square().mean() / (m2 * m2) - 3.0;
  return (g * g + 1.0) / (k + 3.0 * (n - 1) * (n - 1) / ((n - 2) * (n - 3)));
}

}  // namespace

std::string stop_reason_name(StopReason r) {
  switch (r) {
    case StopReason::kConverged: return "converged";
    case StopReason::kMinTime: return "min-time";
    case StopReason::kTimeout: return "timeout";
    case StopReason::kFixed: return "fixed";
  }
  return "?";
}

std::optional<StopReason> stop_reason_from_name(const std::string& name) {
  for (StopReason r :
       {StopReason::kConverged, StopReason::kMinTime, StopReason::kTimeout, StopReason::kFixed})
    if (stop_reason_name(r) == name) return r;
  return std::nullopt;
}

Interval median_interval(std::vector<double> values) {
  const size_t n = values.size();
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (n < kMinSamplesForInterval) return {-kInf, kInf};
  const double reach = kZ95 * std::sqrt(static_cast<double>(n)) / 2;
  // 0-based ranks of the interval's ends (1-based: floor(n/2 - reach), ceil(1 + n/2 + reach)).
  const auto lo = static_cast<size_t>(std::max(0.0, std::floor(n / 2.0 - reach) - 1));
  const auto hi = std::min(n - 1, static_cast<size_t>(std::ceil(n / 2.0 + reach)));
  std::nth_element(values.begin(), values.begin() + lo, values.end());
  std::nth_element(values.begin() + lo + 1, values.begin() + hi, values.end());
  return {values[lo], values[hi]};
}

double median_ci_rel_halfwidth(std::vector<double> values) {
  const Interval ci = median_interval(values);
  if (!std::isfinite(ci.hi - ci.lo)) return std::numeric_limits<double>::infinity();
  const size_t n = values.size();
  std::nth_element(values.begin(), values.begin() + n / 2, values.end());
  double median = values[n / 2];
  if (n % 2 == 0)
    median = 0.5 * (median + *std::max_element(values.begin(), values.begin() + n / 2));
  if (!(median > 0)) return std::numeric_limits<double>::infinity();
  return (ci.hi - ci.lo) / (2 * median);
}

Modes find_modes(std::vector<double> v) {
  Modes m;
  m.coefficient = bimodality_coefficient(v);
  const size_t n = v.size();
  const auto min_side = static_cast<size_t>(std::ceil(kMinSideFraction * n));
  if (n < 20 || min_side < 2) return m;
  std::sort(v.begin(), v.end());
  const double median = median_of_sorted(v.data(), n);
  // The split falls after index i: [0, i] low, [i + 1, n) high.
  size_t best = 0;
  double widest = -1;
  for (size_t i = min_side - 1; i + min_side < n; ++i)
    if (v[i + 1] - v[i] > widest) {
      widest = v[i + 1] - v[i];
      best = i;
    }
  if (widest < 0) return m;
  const size_t low_n = best + 1, high_n = n - low_n;
  const double spread = std::max(iqr_of_sorted(v.data(), low_n), iqr_of_sorted(&v[low_n], high_n));
  if (widest > kMinGapOfMedian * median && widest > kMinGapOfSpread * spread) {
    m.bimodal = true;
    m.low_ns = median_of_sorted(v.data(), low_n);
    m.high_ns = median_of_sorted(&v[low_n], high_n);
    m.low_fraction = static_cast<double>(low_n) / static_cast<double>(n);
  }
  return m;
}

}  // namespace gnbench
