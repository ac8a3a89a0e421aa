#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "base/errors.hpp"
#include "cli/compare/compare.hpp"

namespace gnbench {
namespace {

// n samples evenly spread over [center - half_width, center + half_width], shuffled a little
// so that order does not matter.
std::vector<double> spread(double center, double half_width, size_t n = 10) {
  std::vector<double> v;
  for (size_t i = 0; i < n; ++i)
    v.push_back(center + (n > 1 ? half_width * (2.0 * double(i) / double(n - 1) - 1) : 0));
  std::rotate(v.begin(), v.begin() + n / 3, v.end());
  return v;
}

TimingResult compare_timing(const std::string& mode, std::vector<double> samples_ns) {
  TimingResult t;
  t.mode = mode;
  t.total = summarize(samples_ns);
  t.samples_ns = std::move(samples_ns);
  t.noise_target_reached = true;
  return t;
}

EntryRecord compare_entry(const std::string& problem, const std::string& variant,
                          std::vector<double> samples_ns, Verdict verdict = Verdict::kPass,
                          double max_scaled = 1e-6) {
  EntryRecord e;
  e.problem.name = problem;
  e.problem.shape = {2, 8, 16, 4};
  e.variant = variant;
  e.verdict = verdict;
  e.trials = 1;
  TensorMetrics t;
  t.tensor = "grad_input";
  t.max_scaled = max_scaled;
  t.pass = verdict == Verdict::kPass;
  e.verification.tensors.push_back(t);
  e.verification.pass = t.pass;
  if (!samples_ns.empty()) e.cold = compare_timing("cold", std::move(samples_ns));
  return e;
}

RunRecords records_of_entries(std::vector<EntryRecord> entries,
                              const std::string& fingerprint = "dev-a") {
  RunRecords r;
  r.context.device = {{"name", "Test GPU"}};
  r.context.device_fingerprint = fingerprint;
  r.context.timing_mode = "cold";
  r.entries = std::move(entries);
  return r;
}

const EntryComparison& find_comparison(const ComparisonReport& r, const std::string& name) {
  for (const auto& e : r.entries)
    if (e.name == name) return e;
  throw std::runtime_error("no entry " + name);
}

TEST(Compare, SameRunIsOk) {
  RunRecords a = records_of_entries({compare_entry("p1", "v1", spread(100e3, 1e3)),
                                     compare_entry("p2", "v1", spread(50e3, 1e3))});
  ComparisonReport r = compare_runs(a, a, {});
  EXPECT_EQ(r.exit_code, kCompareOk);
  ASSERT_EQ(r.entries.size(), 2u);
  for (const auto& e : r.entries) {
    EXPECT_EQ(e.time.verdict, TimeVerdict::kSame) << e.name;
    EXPECT_FALSE(e.correctness_regression);
    EXPECT_TRUE(e.notes.empty());
  }
}

TEST(Compare, SlowerWithTightNoiseIsSignificant) {
  RunRecords base = records_of_entries({compare_entry("p", "v", spread(100e3, 0.5e3))});
  RunRecords cur = records_of_entries({compare_entry("p", "v", spread(120e3, 0.5e3))});
  ComparisonReport r = compare_runs(base, cur, {});
  EXPECT_EQ(r.exit_code, kCompareSlower);
  const auto& e = find_comparison(r, "p/v");
  EXPECT_EQ(e.time.verdict, TimeVerdict::kSlower);
  EXPECT_NEAR(e.time.change, 0.2, 1e-9);
  ASSERT_TRUE(e.time.u_test);
  EXPECT_LT(e.time.u_test->p_value, 0.001);
}

TEST(Compare, HugeNoiseIsNoisyButNoAlarm) {
  // The interval spans both sides of +-5 %: nothing can be said, and no evidence of a slowdown.
  RunRecords base = records_of_entries({compare_entry("p", "v", spread(100e3, 60e3))});
  RunRecords cur = records_of_entries({compare_entry("p", "v", spread(120e3, 60e3))});
  ComparisonReport r = compare_runs(base, cur, {});
  const auto& t = find_comparison(r, "p/v").time;
  EXPECT_EQ(t.verdict, TimeVerdict::kNoisy);
  EXPECT_LT(t.lo, 0);
  EXPECT_GT(t.hi, 0.05);
  EXPECT_NE(t.reason.find("straddles"), std::string::npos) << t.reason;
  EXPECT_EQ(r.exit_code, kCompareOk);
}

TEST(Compare, SlowerByAboutTheThresholdIsInconclusive) {
  // 5 % slower, +-3 % spread, 50 samples: surely slower, but on which side of 5 % is unclear.
  RunRecords base = records_of_entries({compare_entry("p", "v", spread(100e3, 3e3, 50))});
  RunRecords cur = records_of_entries({compare_entry("p", "v", spread(105e3, 3.15e3, 50))});
  ComparisonReport r = compare_runs(base, cur, {});
  const auto& t = find_comparison(r, "p/v").time;
  EXPECT_EQ(t.verdict, TimeVerdict::kNoisy);
  EXPECT_GT(t.lo, 0);
  EXPECT_LT(t.lo, 0.05);
  EXPECT_GT(t.hi, 0.05);
  EXPECT_TRUE(t.inconclusive);
  EXPECT_EQ(r.exit_code, kCompareInconclusive);
}

TEST(Compare, MoreSamplesSettleANoisyEntry) {
  // The same 12 % shift of noisy times: NOISY with few samples, SLOWER with many (the interval
  // narrows like 1/sqrt(n); a rule on the spread of single samples never would).
  std::vector<TimeVerdict> verdicts;
  for (size_t n : {6, 400}) {
    RunRecords base = records_of_entries({compare_entry("p", "v", spread(100e3, 20e3, n))});
    RunRecords cur = records_of_entries({compare_entry("p", "v", spread(112e3, 22.4e3, n))});
    verdicts.push_back(find_comparison(compare_runs(base, cur, {}), "p/v").time.verdict);
  }
  EXPECT_EQ(verdicts[0], TimeVerdict::kNoisy);
  EXPECT_EQ(verdicts[1], TimeVerdict::kSlower);
}

TEST(Compare, FasterIsReportedNotAFailure) {
  RunRecords base = records_of_entries({compare_entry("p", "v", spread(100e3, 0.5e3))});
  RunRecords cur = records_of_entries({compare_entry("p", "v", spread(70e3, 0.5e3))});
  ComparisonReport r = compare_runs(base, cur, {});
  EXPECT_EQ(r.exit_code, kCompareOk);
  EXPECT_EQ(find_comparison(r, "p/v").time.verdict, TimeVerdict::kFaster);
  EXPECT_EQ(r.count(TimeVerdict::kFaster), 1u);
}

TEST(Compare, NoisyFasterIsNotInconclusive) {
  // A speedup that cannot be confirmed is no evidence of a regression.
  RunRecords base = records_of_entries({compare_entry("p", "v", spread(100e3, 60e3))});
  RunRecords cur = records_of_entries({compare_entry("p", "v", spread(80e3, 60e3))});
  ComparisonReport r = compare_runs(base, cur, {});
  EXPECT_EQ(find_comparison(r, "p/v").time.verdict, TimeVerdict::kNoisy);
  EXPECT_EQ(r.exit_code, kCompareOk);
}

TEST(Compare, PassToFailIsACorrectnessRegression) {
  RunRecords base = records_of_entries(
      {compare_entry("p", "v", spread(100e3, 0.5e3)), compare_entry("q", "v", spread(1e3, 1))});
  RunRecords cur =
      records_of_entries({compare_entry("p", "v", spread(100e3, 0.5e3), Verdict::kFail),
                          compare_entry("q", "v", spread(2e3, 1))});  // also slower: 1 wins over 3
  ComparisonReport r = compare_runs(base, cur, {});
  EXPECT_EQ(r.exit_code, kCompareCorrectnessRegression);
  EXPECT_TRUE(find_comparison(r, "p/v").correctness_regression);
  EXPECT_EQ(find_comparison(r, "q/v").time.verdict, TimeVerdict::kSlower);
  EXPECT_EQ(r.regressions(), 1u);
}

TEST(Compare, PassToErrorIsACorrectnessRegression) {
  RunRecords base = records_of_entries({compare_entry("p", "v", {})});
  RunRecords cur = records_of_entries({compare_entry("p", "v", {}, Verdict::kError)});
  EXPECT_EQ(compare_runs(base, cur, {}).exit_code, kCompareCorrectnessRegression);
}

TEST(Compare, XFailStaysOkAndFixesAreNoted) {
  RunRecords base = records_of_entries(
      {compare_entry("p", "v", {}, Verdict::kXFail), compare_entry("q", "v", {}, Verdict::kFail)});
  RunRecords cur = records_of_entries(
      {compare_entry("p", "v", {}, Verdict::kXFail), compare_entry("q", "v", {})});
  ComparisonReport r = compare_runs(base, cur, {});
  EXPECT_EQ(r.exit_code, kCompareOk);
  EXPECT_FALSE(find_comparison(r, "p/v").correctness_regression);
  ASSERT_EQ(find_comparison(r, "q/v").notes.size(), 1u);
  EXPECT_NE(find_comparison(r, "q/v").notes[0].find("fixed"), std::string::npos);
}

TEST(Compare, StillFailingIsNotANewRegression) {
  RunRecords base = records_of_entries({compare_entry("p", "v", {}, Verdict::kFail)});
  ComparisonReport r = compare_runs(base, base, {});
  EXPECT_EQ(r.exit_code, kCompareOk);
  EXPECT_NE(find_comparison(r, "p/v").notes.at(0).find("still failing"), std::string::npos);
}

TEST(Compare, ErrorGrowthIsANoteOnly) {
  RunRecords base = records_of_entries({compare_entry("p", "v", {}, Verdict::kPass, 1e-5)});
  RunRecords grown = records_of_entries({compare_entry("p", "v", {}, Verdict::kPass, 2e-4)});
  ComparisonReport r = compare_runs(base, grown, {});
  EXPECT_EQ(r.exit_code, kCompareOk);
  ASSERT_EQ(find_comparison(r, "p/v").notes.size(), 1u);
  EXPECT_NE(find_comparison(r, "p/v").notes[0].find("grew 20.0x"), std::string::npos);
  // Growth within 10x, or from below float32 rounding, is not worth a note.
  RunRecords small = records_of_entries({compare_entry("p", "v", {}, Verdict::kPass, 9e-5)});
  EXPECT_TRUE(find_comparison(compare_runs(base, small, {}), "p/v").notes.empty());
  RunRecords exact = records_of_entries({compare_entry("p", "v", {}, Verdict::kPass, 0)});
  RunRecords rounding = records_of_entries({compare_entry("p", "v", {}, Verdict::kPass, 5e-7)});
  EXPECT_TRUE(find_comparison(compare_runs(exact, rounding, {}), "p/v").notes.empty());
}

TEST(Compare, EntriesInOneFileOnlyAreListed) {
  RunRecords base = records_of_entries(
      {compare_entry("p", "v", spread(1e3, 1)), compare_entry("gone", "v", spread(1e3, 1))});
  RunRecords cur = records_of_entries(
      {compare_entry("new", "v", spread(1e3, 1)), compare_entry("p", "v", spread(1e3, 1))});
  ComparisonReport r = compare_runs(base, cur, {});
  EXPECT_EQ(r.exit_code, kCompareOk);
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.only_in_baseline, std::vector<std::string>{"gone/v"});
  EXPECT_EQ(r.only_in_current, std::vector<std::string>{"new/v"});
}

TEST(Compare, DifferentDevicesAreRefusedUnlessIgnored) {
  RunRecords base = records_of_entries({compare_entry("p", "v", spread(100e3, 0.5e3))}, "dev-a");
  RunRecords cur =
      records_of_entries({compare_entry("p", "v", spread(200e3, 0.5e3), Verdict::kFail)}, "dev-b");
  EXPECT_THROW(compare_runs(base, cur, {}), ConfigError);
  CompareOptions o;
  o.ignore_device = true;
  ComparisonReport r = compare_runs(base, cur, o);
  EXPECT_FALSE(r.timing_compared);
  EXPECT_EQ(find_comparison(r, "p/v").time.verdict, TimeVerdict::kNone);
  EXPECT_EQ(r.exit_code, kCompareCorrectnessRegression);  // correctness still counts
  ASSERT_FALSE(r.warnings.empty());
  EXPECT_NE(r.warnings[0].find("correctness only"), std::string::npos);
}

TEST(Compare, ThresholdIsRespected) {
  RunRecords base = records_of_entries({compare_entry("p", "v", spread(100e3, 0.5e3))});
  RunRecords cur = records_of_entries({compare_entry("p", "v", spread(120e3, 0.5e3))});
  CompareOptions o;
  o.threshold = 0.25;
  ComparisonReport r = compare_runs(base, cur, o);
  EXPECT_EQ(find_comparison(r, "p/v").time.verdict, TimeVerdict::kSame);
  EXPECT_EQ(r.exit_code, kCompareOk);
  o.threshold = 0.01;
  RunRecords cur3 = records_of_entries({compare_entry("p", "v", spread(103e3, 0.1e3))});
  base = records_of_entries({compare_entry("p", "v", spread(100e3, 0.1e3))});
  EXPECT_EQ(compare_runs(base, cur3, o).exit_code, kCompareSlower);
  EXPECT_EQ(compare_runs(base, cur3, {}).exit_code, kCompareOk);  // 3 % < default 5 %
}

TEST(Compare, InvalidThresholdIsAUsageError) {
  RunRecords a = records_of_entries({compare_entry("p", "v", spread(100e3, 0.5e3))});
  for (double t : {-0.1, std::nan(""), double(INFINITY)}) {
    CompareOptions o;
    o.threshold = t;
    EXPECT_THROW(compare_runs(a, a, o), ConfigError) << t;
  }
}

TEST(Compare, SlowerWinsOverInconclusive) {
  RunRecords base = records_of_entries({compare_entry("a", "v", spread(100e3, 0.5e3)),
                                        compare_entry("b", "v", spread(100e3, 60e3))});
  RunRecords cur = records_of_entries({compare_entry("a", "v", spread(120e3, 0.5e3)),
                                       compare_entry("b", "v", spread(120e3, 60e3))});
  ComparisonReport r = compare_runs(base, cur, {});
  EXPECT_EQ(find_comparison(r, "b/v").time.verdict, TimeVerdict::kNoisy);
  EXPECT_EQ(r.exit_code, kCompareSlower);
}

TEST(Compare, TooFewSamplesCannotConfirmNorPassASlowdown) {
  RunRecords base = records_of_entries({compare_entry("p", "v", {100e3, 100e3})});
  RunRecords cur = records_of_entries({compare_entry("p", "v", {150e3, 150e3})});
  ComparisonReport r = compare_runs(base, cur, {});
  const auto& t = find_comparison(r, "p/v").time;
  EXPECT_EQ(t.verdict, TimeVerdict::kNoisy);
  EXPECT_TRUE(std::isinf(t.lo) && std::isinf(t.hi));
  EXPECT_NE(t.reason.find("too few samples"), std::string::npos) << t.reason;
  // An unbounded interval is no evidence of "ok": the estimate (+50 %) decides inconclusive.
  EXPECT_TRUE(t.inconclusive);
  EXPECT_EQ(r.exit_code, kCompareInconclusive);
  // The same few samples unchanged: nothing suggests a slowdown.
  EXPECT_EQ(compare_runs(base, base, {}).exit_code, kCompareOk);
}

TEST(Compare, AnIncompleteCurrentRunIsAtBestInconclusive) {
  RunRecords base = records_of_entries(
      {compare_entry("p", "v", spread(100e3, 0.5e3)), compare_entry("q", "v", spread(1e3, 1))});
  RunRecords cur = records_of_entries({compare_entry("p", "v", spread(100e3, 0.5e3))});
  EXPECT_EQ(compare_runs(base, cur, {}).exit_code, kCompareOk);  // a config that changed
  cur.context.complete = false;  // a run that was stopped: q was never judged
  EXPECT_EQ(compare_runs(base, cur, {}).exit_code, kCompareInconclusive);
  // Nothing in common (an empty interrupted run, another config): nothing to compare.
  EXPECT_THROW(compare_runs(base, records_of_entries({}), {}), ConfigError);
  EXPECT_THROW(
      compare_runs(base, records_of_entries({compare_entry("r", "v", spread(1e3, 1))}), {}),
      ConfigError);
}

TEST(Compare, AGrossSlowdownIsNeverOkHoweverFewTheSamples) {
  // Generated: 1-100 entries of 1-12 samples a side (so that the Bonferroni interval is often
  // unbounded), every entry slower by 1.5-100x, or a random subset of them: never exit 0.
  std::mt19937_64 rng(20261205);
  for (int trial = 0; trial < 200; ++trial) {
    const size_t m = 1 + rng() % 100, n = 1 + rng() % 12;
    const double factor = 1.5 * std::pow(100 / 1.5, std::uniform_real_distribution<>(0, 1)(rng));
    const bool all = rng() % 2;
    std::vector<EntryRecord> base_entries, cur_entries;
    bool any_slower = false;
    for (size_t i = 0; i < m; ++i) {
      const double median = 1e3 * std::pow(1e3, std::uniform_real_distribution<>(0, 1)(rng));
      std::vector<double> b = spread(median, 0.05 * median, n);
      std::vector<double> c = b;
      const bool slower = all || rng() % 8 == 0;
      any_slower = any_slower || slower;
      if (slower)
        for (double& v : c) v *= factor;
      base_entries.push_back(compare_entry("p" + std::to_string(i), "v", b));
      cur_entries.push_back(compare_entry("p" + std::to_string(i), "v", c));
    }
    const ComparisonReport r =
        compare_runs(records_of_entries(base_entries), records_of_entries(cur_entries), {});
    if (any_slower)
      EXPECT_NE(r.exit_code, kCompareOk) << m << " entries, " << n << " samples, x" << factor;
    else
      EXPECT_EQ(r.exit_code, kCompareOk);
  }
}

TEST(Compare, SixSamplesCanConfirmAClearShift) {
  // 3 samples a side cannot reach 95 % (the exact U test's smallest p is 0.1); 6 can.
  RunRecords base3 = records_of_entries({compare_entry("p", "v", {99e3, 100e3, 101e3})});
  RunRecords cur3 = records_of_entries({compare_entry("p", "v", {129e3, 130e3, 131e3})});
  EXPECT_EQ(find_comparison(compare_runs(base3, cur3, {}), "p/v").time.verdict,
            TimeVerdict::kNoisy);
  RunRecords base = records_of_entries({compare_entry("p", "v", spread(100e3, 1e3, 6))});
  RunRecords cur = records_of_entries({compare_entry("p", "v", spread(130e3, 1e3, 6))});
  ComparisonReport r = compare_runs(base, cur, {});
  EXPECT_EQ(find_comparison(r, "p/v").time.verdict, TimeVerdict::kSlower);
  EXPECT_EQ(r.exit_code, kCompareSlower);
}

TEST(Compare, IntervalLevelIsBonferroniOverTimedEntries) {
  std::vector<EntryRecord> entries;
  for (int i = 0; i < 8; ++i)
    entries.push_back(compare_entry("p" + std::to_string(i), "v", spread(1e3, 10)));
  entries.push_back(compare_entry("untimed", "v", {}));
  RunRecords a = records_of_entries(entries);
  CompareOptions o;
  o.alpha = 0.04;
  ComparisonReport r = compare_runs(a, a, o);
  EXPECT_EQ(r.timed, 8u);
  EXPECT_DOUBLE_EQ(r.interval_level, 1 - 0.04 / 8);
  EXPECT_DOUBLE_EQ(find_comparison(r, "p3/v").time.level, r.interval_level);
  o.alpha = 0;
  EXPECT_THROW(compare_runs(a, a, o), ConfigError);
}

TEST(Compare, GeometricMeanOfRatios) {
  RunRecords base = records_of_entries({compare_entry("a", "v", spread(100e3, 1e3)),
                                        compare_entry("b", "v", spread(100e3, 1e3)),
                                        compare_entry("c", "v", {})});
  RunRecords cur = records_of_entries({compare_entry("a", "v", spread(200e3, 2e3)),
                                       compare_entry("b", "v", spread(50e3, 0.5e3)),
                                       compare_entry("c", "v", {})});
  ComparisonReport r = compare_runs(base, cur, {});
  EXPECT_NEAR(r.geometric_mean_ratio(), 1.0, 1e-12);
  EXPECT_NEAR(comparison_to_json(r)["summary"]["geometric_mean_ratio"].get<double>(), 1.0, 1e-12);
  EXPECT_EQ(compare_runs(records_of_entries({compare_entry("c", "v", {})}),
                         records_of_entries({compare_entry("c", "v", {})}), {})
                .geometric_mean_ratio(),
            0.0);
}

// An entry timed cold and hot: the same cold times in both runs, hot 20 % slower.
TEST(Compare, ModeChoosesTheTimingCompared) {
  const auto with_hot = [](EntryRecord e, std::vector<double> hot_ns) {
    e.hot = compare_timing("hot", std::move(hot_ns));
    return e;
  };
  RunRecords base = records_of_entries(
      {with_hot(compare_entry("p", "v", spread(100e3, 0.5e3)), spread(50e3, 0.2e3))});
  RunRecords cur = records_of_entries(
      {with_hot(compare_entry("p", "v", spread(100e3, 0.5e3)), spread(60e3, 0.2e3))});
  CompareOptions o;
  ComparisonReport r = compare_runs(base, cur, o);  // auto: cold, as the headline
  EXPECT_EQ(find_comparison(r, "p/v").time.mode, "cold");
  EXPECT_EQ(r.exit_code, kCompareOk);
  o.mode = "hot";
  r = compare_runs(base, cur, o);
  EXPECT_EQ(find_comparison(r, "p/v").time.mode, "hot");
  EXPECT_EQ(find_comparison(r, "p/v").time.verdict, TimeVerdict::kSlower);
  EXPECT_EQ(r.exit_code, kCompareSlower);
  // Asked for a mode one run lacks: not compared, and the reason says so.
  RunRecords cold_only = records_of_entries({compare_entry("p", "v", spread(100e3, 0.5e3))});
  r = compare_runs(cold_only, cur, o);
  EXPECT_EQ(find_comparison(r, "p/v").time.verdict, TimeVerdict::kNone);
  EXPECT_EQ(find_comparison(r, "p/v").time.reason, "not timed hot in both runs");
  o.mode = "warm";
  EXPECT_THROW(compare_runs(base, cur, o), ConfigError);
}

TEST(Compare, UntimedEntriesCompareCorrectnessOnly) {
  RunRecords base = records_of_entries({compare_entry("p", "v", spread(100e3, 1e3))});
  RunRecords cur = records_of_entries({compare_entry("p", "v", {})});
  ComparisonReport r = compare_runs(base, cur, {});
  EXPECT_EQ(find_comparison(r, "p/v").time.verdict, TimeVerdict::kNone);
  EXPECT_EQ(r.exit_code, kCompareOk);
}

TEST(Compare, MannWhitneyMatchesScipy) {
  // scipy.stats.mannwhitneyu(a, b, method="asymptotic"): normal approximation, continuity corrected
  MannWhitney m = mann_whitney_u({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10});
  EXPECT_DOUBLE_EQ(m.u, 0);
  EXPECT_NEAR(m.p_value, 0.012185, 1e-5);
  // Ties: average ranks and the tie-corrected variance.
  MannWhitney t = mann_whitney_u({1, 2, 2, 3, 3}, {2, 3, 3, 4, 5});
  EXPECT_DOUBLE_EQ(t.u, 5);
  EXPECT_NEAR(t.p_value, 0.126379, 1e-5);
  EXPECT_DOUBLE_EQ(mann_whitney_u({1, 1, 1}, {1, 1, 1}).p_value, 1.0);
}

TEST(Compare, JsonReport) {
  RunRecords base = records_of_entries(
      {compare_entry("p", "v", spread(100e3, 0.5e3)), compare_entry("gone", "v", {})});
  RunRecords cur = records_of_entries({compare_entry("p", "v", spread(120e3, 0.5e3))});
  nlohmann::json j = comparison_to_json(compare_runs(base, cur, {}));
  EXPECT_EQ(j["exit_code"], kCompareSlower);
  EXPECT_EQ(j["entries"][0]["name"], "p/v");
  EXPECT_EQ(j["entries"][0]["time"]["verdict"], "SLOWER");
  EXPECT_NEAR(j["entries"][0]["time"]["change"].get<double>(), 0.2, 1e-9);
  EXPECT_EQ(j["only_in_baseline"][0], "gone/v");
  EXPECT_EQ(j["summary"]["slower"], 1);
  EXPECT_EQ(j["options"]["threshold"], 0.05);
  const auto& interval = j["entries"][0]["time"]["interval"];
  ASSERT_EQ(interval.size(), 2u);
  EXPECT_LT(interval[0].get<double>(), 0.2);
  EXPECT_GT(interval[1].get<double>(), 0.2);
  EXPECT_LT(j["entries"][0]["time"]["mann_whitney"]["p_value"].get<double>(), 1e-3);
  // An unbounded end is null (JSON has no infinity).
  RunRecords two = records_of_entries({compare_entry("p", "v", {1e3, 2e3})});
  EXPECT_TRUE(comparison_to_json(compare_runs(two, two, {}))["entries"][0]["time"]["interval"][0]
                  .is_null());
}

}  // namespace
}  // namespace gnbench
