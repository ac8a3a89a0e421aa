// How often `gnbench compare` is wrong, measured on synthetic pairs built from real samples:
// every timed entry of a stored run is resampled (with replacement) into a baseline and a
// current run; in A/A pairs nothing changes, in shifted pairs a random quarter of the entries
// is made slower by 5, 10 or 30 %. The rates printed here are the ones docs/compare.md quotes.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <set>

#include "cli/compare/compare.hpp"
#include "cli/report/results_json.hpp"
#include "source_paths.hpp"

namespace gnbench {
namespace {

// Each entry's headline timing as a "cold" timing of its stored samples (entries without
// per-sample times are dropped: they carry no noise to resample).
RunRecords timed_entries(const RunRecords& run) {
  RunRecords out{run.context, {}};
  for (const auto& e : run.entries) {
    const TimingResult* t = e.headline();
    if (!t || t->samples_ns.size() < 3) continue;
    EntryRecord copy = e;
    copy.cold = *t;
    copy.cold->mode = "cold";
    copy.hot.reset();
    out.entries.push_back(std::move(copy));
  }
  return out;
}

RunRecords resampled(const RunRecords& source, std::mt19937_64& rng,
                     const std::set<size_t>& shifted, double shift) {
  RunRecords out = source;
  for (size_t i = 0; i < out.entries.size(); ++i) {
    const std::vector<double>& from = source.entries[i].cold->samples_ns;
    std::uniform_int_distribution<size_t> pick(0, from.size() - 1);
    std::vector<double> s(from.size());
    const double factor = shifted.count(i) ? 1 + shift : 1;
    for (double& v : s) v = from[pick(rng)] * factor;
    TimingResult& t = *out.entries[i].cold;
    t.total = summarize(s);
    t.samples_ns = std::move(s);
  }
  return out;
}

struct Rates {
  size_t pairs = 0, alarm_pairs = 0, exact_pairs = 0;  // exit != 0; SLOWER = shifted set
  size_t unshifted = 0, wrongly_flagged = 0;           // flagged: SLOWER or significantly slower
  size_t shifted = 0, slower = 0, flagged = 0;
};

Rates measure(const RunRecords& source, double shift, size_t pairs, double threshold,
              uint64_t seed) {
  std::mt19937_64 rng(seed);
  CompareOptions o;
  o.threshold = threshold;
  Rates r;
  for (size_t p = 0; p < pairs; ++p) {
    std::set<size_t> shifted;
    if (shift > 0)
      for (size_t i = 0; i < source.entries.size(); ++i)
        if (rng() % 4 == 0) shifted.insert(i);
    const RunRecords base = resampled(source, rng, {}, 0);
    const RunRecords cur = resampled(source, rng, shifted, shift);
    const ComparisonReport c = compare_runs(base, cur, o);
    ++r.pairs;
    r.alarm_pairs += c.exit_code != kCompareOk;
    bool exact = true;
    for (size_t i = 0; i < c.entries.size(); ++i) {
      const TimeComparison& t = c.entries[i].time;
      const bool slower = t.verdict == TimeVerdict::kSlower;
      const bool flagged = slower || t.inconclusive;
      exact = exact && slower == (shifted.count(i) > 0);
      if (shifted.count(i)) {
        ++r.shifted;
        r.slower += slower;
        r.flagged += flagged;
      } else {
        ++r.unshifted;
        r.wrongly_flagged += flagged || t.verdict == TimeVerdict::kFaster;
      }
    }
    r.exact_pairs += exact;
  }
  return r;
}

double pct(size_t a, size_t b) { return b ? 100.0 * double(a) / double(b) : 0; }

Rates report(const std::string& set, const RunRecords& source, double shift, size_t pairs,
             double threshold) {
  const Rates r = measure(source, shift, pairs, threshold, 20261201);
  std::printf(
      "[calibration] %s shift %+.0f%% threshold %.0f%%: %zu pairs, exit != 0 in %.1f%%, "
      "SLOWER = exactly the shifted entries in %.1f%%; unshifted entries flagged %zu/%zu "
      "(%.2f%%); shifted entries SLOWER %zu/%zu (%.1f%%), flagged %.1f%%\n",
      set.c_str(), 100 * shift, 100 * threshold, r.pairs, pct(r.alarm_pairs, r.pairs),
      pct(r.exact_pairs, r.pairs), r.wrongly_flagged, r.unshifted,
      pct(r.wrongly_flagged, r.unshifted), r.slower, r.shifted, pct(r.slower, r.shifted),
      pct(r.flagged, r.shifted));
  return r;
}

// The checks of one set of real samples: A/A answers "no regression" (family-wise rate of
// alarms within the 5 % it is built for, with sampling slack), shifted pairs flag almost only
// the shifted entries, and detection grows with the shift.
void check_set(const std::string& set, const RunRecords& source, double min_detect_10,
               double min_detect_30) {
  ASSERT_GE(source.entries.size(), 20u) << set << ": too few timed entries to measure anything";
  const Rates aa = report(set, source, 0, 40, 0.05);
  EXPECT_LE(pct(aa.alarm_pairs, aa.pairs), 10.0) << set << ": A/A pairs raise alarms";
  EXPECT_LE(pct(aa.wrongly_flagged, aa.unshifted), 1.0) << set << ": A/A entries flagged";
  report(set, source, 0.05, 10, 0.05);  // a shift at the threshold: reported, not judged
  const Rates s5 = report(set, source, 0.05, 10, 0.02);
  const Rates s10 = report(set, source, 0.10, 10, 0.05);
  const Rates s30 = report(set, source, 0.30, 10, 0.05);
  for (const Rates* r : {&s5, &s10, &s30})
    EXPECT_LE(pct(r->wrongly_flagged, r->unshifted), 1.0) << set << ": unshifted entries flagged";
  EXPECT_GE(pct(s10.slower, s10.shifted), min_detect_10) << set << ": 10 % shifts missed";
  EXPECT_GE(pct(s30.slower, s30.shifted), min_detect_30) << set << ": 30 % shifts missed";
  EXPECT_GE(s30.slower, s10.slower) << set << ": detection must grow with the shift";
  EXPECT_TRUE(s30.flagged > s10.flagged || s30.flagged == s30.shifted)
      << set << ": detection must grow with the shift";
}

using testing::kResultsDir;

TEST(CompareCalibration, H200Run20) {
  check_set("h200", timed_entries(read_results_file(kResultsDir + "h200/run20_h200.json.gz")), 95,
            99);
}

// 40 samples a side with 22-190 % noise (a loaded 2-core machine): false alarms stay as rare
// as on the H200, but a 30 % shift is within the noise of most entries at the family-wise
// level; the detection rates are what docs/compare.md quotes, and only their order is judged.
TEST(CompareCalibration, NoisyLavapipe) {
  check_set("lavapipe",
            timed_entries(read_results_file(kResultsDir + "lavapipe/default_noisy.json.gz")), 0,
            10);
}

}  // namespace
}  // namespace gnbench
