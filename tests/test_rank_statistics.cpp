#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "cli/compare/rank_statistics.hpp"

namespace gnbench {
namespace {

// The textbook construction, by brute force: every pairwise difference, sorted.
std::vector<double> all_differences(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> d;
  for (double x : a)
    for (double y : b) d.push_back(y - x);
  std::sort(d.begin(), d.end());
  return d;
}

// Var(U) with the tie correction, from the counts of equal values in the pooled sample.
double u_variance(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> all = a;
  all.insert(all.end(), b.begin(), b.end());
  std::sort(all.begin(), all.end());
  double ties = 0;
  for (size_t i = 0; i < all.size();) {
    size_t j = i;
    while (j < all.size() && all[j] == all[i]) ++j;
    const double t = double(j - i);
    ties += t * t * t - t;
    i = j;
  }
  const double n1 = double(a.size()), n2 = double(b.size()), n = n1 + n2;
  return n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)));
}

TEST(RankStatistics, NormalQuantile) {
  EXPECT_NEAR(normal_quantile_upper(0.025), 1.959964, 1e-6);
  EXPECT_NEAR(normal_quantile_upper(0.5), 0.0, 1e-9);
  EXPECT_NEAR(normal_quantile_upper(1e-6), 4.753424, 1e-6);
}

TEST(RankStatistics, HodgesLehmannMatchesBruteForceOnRandomSamples) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 60; ++trial) {
    const size_t n1 = 1 + rng() % 40, n2 = 1 + rng() % 40;
    std::vector<double> a(n1), b(n2);
    // Coarse values on some trials: ties, as quantized timestamps give.
    const bool coarse = trial % 3 == 0;
    std::normal_distribution<double> nd(0, 1);
    for (double& v : a) v = coarse ? std::round(nd(rng) * 3) : nd(rng);
    for (double& v : b) v = coarse ? std::round(nd(rng) * 3 + 1) : nd(rng) + 0.5;
    const double level = trial % 2 ? 0.95 : 0.999;
    const ShiftInterval s = hodges_lehmann(a, b, level);
    const std::vector<double> d = all_differences(a, b);
    const size_t n = d.size();
    const double median = n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
    EXPECT_NEAR(s.estimate, median, 1e-9) << n1 << "x" << n2;
    const double sd = std::sqrt(u_variance(a, b));
    if (sd == 0) continue;  // all values equal: tested below
    const double c = std::floor(double(n) / 2 - normal_quantile_upper((1 - level) / 2) * sd);
    if (c < 1) {
      EXPECT_TRUE(std::isinf(s.lo) && std::isinf(s.hi)) << n1 << "x" << n2;
    } else {
      EXPECT_NEAR(s.lo, d[size_t(c) - 1], 1e-9) << n1 << "x" << n2;
      EXPECT_NEAR(s.hi, d[n - size_t(c)], 1e-9) << n1 << "x" << n2;
    }
    EXPECT_LE(s.lo, s.estimate);
    EXPECT_GE(s.hi, s.estimate);
  }
}

TEST(RankStatistics, IntervalCoversTheTrueShiftAtItsLevel) {
  // Skewed (log-normal-ish) samples shifted by a known amount: the 90 % interval must cover it
  // about 90 % of the time (binomial sd over 400 trials: 1.5 %).
  std::mt19937_64 rng(11);
  std::exponential_distribution<double> ex(1.0);
  int covered = 0;
  const int trials = 400;
  for (int t = 0; t < trials; ++t) {
    std::vector<double> a(25), b(30);
    for (double& v : a) v = ex(rng);
    for (double& v : b) v = ex(rng) + 0.3;
    const ShiftInterval s = hodges_lehmann(a, b, 0.90);
    covered += s.lo <= 0.3 && 0.3 <= s.hi;
  }
  EXPECT_GT(covered, trials * 0.86);
  EXPECT_LT(covered, trials * 0.94);
}

TEST(RankStatistics, EmptyOrConstantSamples) {
  const ShiftInterval empty = hodges_lehmann({}, {1, 2}, 0.95);
  EXPECT_TRUE(std::isinf(empty.lo) && std::isinf(empty.hi));
  const ShiftInterval same = hodges_lehmann({3, 3, 3, 3}, {3, 3, 3}, 0.95);
  EXPECT_EQ(same.estimate, 0);
  EXPECT_EQ(same.lo, 0);
  EXPECT_EQ(same.hi, 0);
  EXPECT_EQ(same.test.p_value, 1);
}

TEST(RankStatistics, ThousandsOfSamplesAreCheap) {
  std::vector<double> a(20000), b(20000);
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = std::sin(double(i)) * 0.1;
    b[i] = std::cos(double(i)) * 0.1 + 0.02;
  }
  const ShiftInterval s = hodges_lehmann(a, b, 1 - 1e-4);
  EXPECT_NEAR(s.estimate, 0.02, 0.005);
  EXPECT_LT(s.lo, s.estimate);
  EXPECT_GT(s.hi, s.estimate);
}

}  // namespace
}  // namespace gnbench
