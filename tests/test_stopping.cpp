// The stopping rule on generated samples: the median's interval covers the true median at
// its nominal rate, bimodal samples are told from long tails and outliers, and measure()
// converges on bimodal samples near the true median and records which rule stopped it.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <thread>
#include <vector>

#include "cli/report/stopping_json.hpp"
#include "cli/timing/sampler.hpp"
#include "cli/timing/stopping.hpp"

namespace gnbench {
namespace {

// A mixture of two normal modes: `low_share` of the draws around `low`, the rest around
// `high`, each with relative spread `spread`.
struct Mixture {
  double low, high, low_share, spread;
  double draw(std::mt19937_64& rng) const {
    std::bernoulli_distribution pick_low(low_share);
    const double centre = pick_low(rng) ? low : high;
    return std::normal_distribution<double>(centre, spread * centre)(rng);
  }
  // The mixture's median, by bisection on its CDF.
  double median() const {
    auto cdf = [&](double x) {
      auto phi = [](double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); };
      return low_share * phi((x - low) / (spread * low)) +
             (1 - low_share) * phi((x - high) / (spread * high));
    };
    double a = 0, b = 2 * high;
    for (int i = 0; i < 200; ++i) (cdf((a + b) / 2) < 0.5 ? a : b) = (a + b) / 2;
    return (a + b) / 2;
  }
};

std::vector<double> draws(const Mixture& m, size_t n, std::mt19937_64& rng) {
  std::vector<double> v(n);
  for (auto& x : v) x = m.draw(rng);
  return v;
}

TEST(MedianInterval, CoversTheTrueMedianAtItsNominalRate) {
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> u(0, 1);
  int covered = 0;
  const int trials = 600;
  for (int t = 0; t < trials; ++t) {
    // Random unimodal and bimodal shapes and sample counts.
    const Mixture m{100, 100 * (1.2 + u(rng)), u(rng) < 0.5 ? 1.0 : 0.55 + 0.4 * u(rng),
                    0.005 + 0.03 * u(rng)};
    const size_t n = 20 + static_cast<size_t>(u(rng) * 400);
    const Interval ci = median_interval(draws(m, n, rng));
    covered += ci.lo <= m.median() && m.median() <= ci.hi;
  }
  // The interval is of the median's own spread: covering the truth about 95 % of the time.
  EXPECT_GT(covered, trials * 0.90);
  EXPECT_LT(covered, trials * 0.995);
}

TEST(MedianInterval, NarrowsWithMoreSamplesAndIsUndefinedBelowSix) {
  std::mt19937_64 rng(3);
  const Mixture m{100, 150, 0.7, 0.02};
  EXPECT_TRUE(std::isinf(median_ci_rel_halfwidth({1, 2, 3, 4, 5})));
  const double few = median_ci_rel_halfwidth(draws(m, 100, rng));
  const double many = median_ci_rel_halfwidth(draws(m, 10000, rng));
  EXPECT_LT(many, few / 5);  // ~1/sqrt(n): a tenth, give or take
}

TEST(Modes, FindsTwoModesWhereTheyAre) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(0, 1);
  for (int t = 0; t < 50; ++t) {
    const Mixture m{50 + 100 * u(rng), 0, 0.15 + 0.7 * u(rng), 0.002 + 0.01 * u(rng)};
    Mixture mm = m;
    mm.high = m.low * (1.2 + 0.6 * u(rng));
    const Modes found = find_modes(draws(mm, 200 + static_cast<size_t>(800 * u(rng)), rng));
    SCOPED_TRACE(::testing::Message() << mm.low << " " << mm.high << " " << mm.low_share);
    ASSERT_TRUE(found.bimodal);
    EXPECT_NEAR(found.low_ns, mm.low, 0.02 * mm.low);
    EXPECT_NEAR(found.high_ns, mm.high, 0.02 * mm.high);
    EXPECT_NEAR(found.low_fraction, mm.low_share, 0.1);
  }
}

TEST(Modes, LongTailsAndOutliersAreNotModes) {
  std::mt19937_64 rng(9);
  for (int t = 0; t < 30; ++t) {
    std::vector<double> normal = draws({100, 100, 1.0, 0.01}, 500, rng);
    EXPECT_FALSE(find_modes(normal).bimodal);
    std::lognormal_distribution<double> tail(std::log(100.0), 0.3);
    std::vector<double> skewed(500);
    for (auto& x : skewed) x = tail(rng);
    EXPECT_FALSE(find_modes(skewed).bimodal);
    // A few far outliers (under 10 %) are not a mode.
    for (int i = 0; i < 20; ++i) normal[static_cast<size_t>(i) * 7] = 500 + i;
    EXPECT_FALSE(find_modes(normal).bimodal);
  }
}

// One narrow mode at 100 us: a device whose samples converge at once.
const Mixture kTight{100e3, 100e3, 1.0, 0.001};

// A fake device: each sample's time drawn from `m`, in ns; `runs` runs per sample.
SampleBatch fake_device(const Mixture& m, std::mt19937_64& rng, uint32_t runs = 1) {
  return [&m, &rng, runs](uint32_t count) {
    std::vector<SampleTimes> out(count);
    for (auto& s : out) {
      s.total_ns = m.draw(rng);
      s.runs = runs;
    }
    return out;
  };
}

TEST(Measure, ConvergesOnBimodalSamplesNearTheTrueMedian) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(0, 1);
  for (int t = 0; t < 20; ++t) {
    // Cold samples as seen on the H200: two modes ~50 % apart, the larger one heavier or
    // lighter; a tenth of a millisecond each.
    const bool low_heavy = u(rng) < 0.5;
    const Mixture m{90e3, 140e3, low_heavy ? 0.65 + 0.2 * u(rng) : 0.15 + 0.2 * u(rng), 0.01};
    SamplingOptions o;
    o.warmup = 0;
    o.timeout_s = 10;
    const TimingResult r = measure(fake_device(m, rng), o, {}, "cold");
    SCOPED_TRACE(::testing::Message() << "low share " << m.low_share);
    EXPECT_NE(r.stop_reason, StopReason::kTimeout);
    EXPECT_TRUE(r.noise_target_reached);
    EXPECT_LE(r.median_ci, o.max_noise);
    EXPECT_NEAR(r.total.median, m.median(), 0.02 * m.median());
    EXPECT_TRUE(r.modes.bimodal);
  }
}

TEST(Measure, RecordsWhichRuleStopped) {
  std::mt19937_64 rng(13);
  SamplingOptions o;
  o.warmup = 0;
  o.min_time_s = 0.001;
  EXPECT_EQ(measure(fake_device(kTight, rng), o, {}, "hot").stop_reason, StopReason::kConverged);
  o.min_time_s = 0.2;  // 2000 samples: the interval is narrow long before
  EXPECT_EQ(measure(fake_device(kTight, rng), o, {}, "hot").stop_reason, StopReason::kMinTime);
  // Half the samples in each mode, far apart: the median's interval spans the gap.
  const Mixture split{100e3, 200e3, 0.5, 0.001};
  o.min_time_s = 0.001;
  o.timeout_s = 0.05;
  const TimingResult r = measure(fake_device(split, rng), o, {}, "cold");
  EXPECT_EQ(r.stop_reason, StopReason::kTimeout);
  EXPECT_FALSE(r.noise_target_reached);
  o.fixed_samples = 37;
  const TimingResult f = measure(fake_device(split, rng), o, {}, "cold");
  EXPECT_EQ(f.stop_reason, StopReason::kFixed);
  EXPECT_EQ(f.samples_ns.size(), 37u);
}

// Samples of several runs (--hot-batch) count the GPU time they took, all runs, towards
// --min-time: K runs per sample reach it in 1/K of the samples, at the same reported median.
TEST(Measure, MinTimeCountsEveryRunOfASample) {
  std::mt19937_64 rng(17);
  SamplingOptions o;
  o.warmup = 0;
  o.warmup_time_s = 0;
  o.min_samples = 2;
  o.min_time_s = 0.2;  // 2000 one-run samples of 100 us
  o.timeout_s = 10;
  const TimingResult one = measure(fake_device(kTight, rng), o, {}, "hot");
  const uint32_t runs = 5 + static_cast<uint32_t>(rng() % 20);
  const TimingResult several = measure(fake_device(kTight, rng, runs), o, {}, "hot");
  EXPECT_EQ(one.stop_reason, StopReason::kMinTime);
  EXPECT_EQ(several.stop_reason, StopReason::kMinTime);
  EXPECT_NEAR(several.total.median, one.total.median, 0.01 * one.total.median);
  const double ratio = static_cast<double>(one.samples_ns.size()) / several.samples_ns.size();
  EXPECT_GT(ratio, 0.7 * runs) << one.samples_ns.size() << " against " << several.samples_ns.size();
  EXPECT_LT(ratio, 1.3 * runs) << one.samples_ns.size() << " against " << several.samples_ns.size();
}

// A device whose clocks step up: the first samples 2.5x slower, then 1.5x, then settled, at
// random points (as an H200 fresh from idle, docs/gpu-log.md run 21a).
TEST(Measure, WarmUpWaitsForTheClocksToRamp) {
  std::mt19937_64 rng(19);
  for (int t = 0; t < 10; ++t) {
    const double settled = 50e3 + 50e3 * std::uniform_real_distribution<double>(0, 1)(rng);
    // Steps within the first 0.05 s of GPU time.
    const int first = 5 + static_cast<int>(rng() % 100),
              second = first + 5 + static_cast<int>(rng() % 100);
    int calls = 0;
    SampleBatch device = [&](uint32_t count) {
      std::vector<SampleTimes> out(count);
      for (auto& s : out) {
        const double slow = calls < first ? 2.5 : calls < second ? 1.5 : 1.0;
        ++calls;
        s.total_ns = settled * slow * std::normal_distribution<double>(1, 0.003)(rng);
      }
      return out;
    };
    SamplingOptions o;
    o.warmup = 3;
    o.fixed_samples = 30;  // as run 21a: a fixed count after a few warm-up runs
    o.warmup_time_s = 0.06;
    const TimingResult r = measure(device, o, {}, "cold");
    EXPECT_NEAR(r.total.median, settled, 0.02 * settled) << "steps at " << first << ", " << second;
    EXPECT_GT(r.warmup_s, 0);
  }
}

// A device just idle is slower, but steadily, for a while of wall time (gpu-log run 22): the
// settling warm-up alone takes the slow state for settled; the device warm-up outlasts it.
TEST(Measure, DeviceWarmupOutlastsASteadySlowState) {
  std::mt19937_64 rng(22);
  for (int t = 0; t < 3; ++t) {
    const double settled = 40e3 + 40e3 * std::uniform_real_distribution<double>(0, 1)(rng);
    const double slow_for_s = 0.05 + 0.1 * std::uniform_real_distribution<double>(0, 1)(rng);
    const auto start = std::chrono::steady_clock::now();
    SampleBatch device = [&](uint32_t count) {
      std::vector<SampleTimes> out(count);
      for (auto& s : out) {
        const double since =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        s.total_ns = settled * (since < slow_for_s ? 1.6 : 1.0) *
                     std::normal_distribution<double>(1, 0.002)(rng);
      }
      std::this_thread::sleep_for(std::chrono::microseconds(50 * count));
      return out;
    };
    SamplingOptions o;
    o.warmup_time_s = 0.001;  // settles at once on the steady slow samples
    o.min_time_s = 0;
    o.timeout_s = 0.02;
    o.device_warmup_s = slow_for_s + 0.1;
    const TimingResult r = measure(device, o, {}, "cold");
    EXPECT_NEAR(r.total.median, settled, 0.02 * settled) << "slow for " << slow_for_s << " s";
    EXPECT_GE(r.warmup_s, o.device_warmup_s);
  }
}

TEST(StoppingJson, RoundTripsAndReadsOlderFiles) {
  TimingResult t;
  t.stop_reason = StopReason::kMinTime;
  t.median_ci = 0.0031;
  t.modes = {true, 90e3, 140e3, 0.7, 0.61};
  nlohmann::json j;
  add_stopping_json(j, t);
  TimingResult back;
  read_stopping_json(j, back);
  EXPECT_EQ(back.stop_reason, StopReason::kMinTime);
  EXPECT_DOUBLE_EQ(back.median_ci, 0.0031);
  EXPECT_TRUE(back.modes.bimodal);
  EXPECT_DOUBLE_EQ(back.modes.high_ns, 140e3);
  EXPECT_EQ(stop_label(back), "min-time bimodal");
  // Before the fields existed: the stop follows noise_target_reached.
  TimingResult old;
  old.noise_target_reached = false;
  read_stopping_json(nlohmann::json::object(), old);
  EXPECT_EQ(old.stop_reason, StopReason::kTimeout);
  EXPECT_FALSE(old.modes.bimodal);
}

}  // namespace
}  // namespace gnbench
