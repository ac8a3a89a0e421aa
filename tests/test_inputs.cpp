// Input generation: reproducible to the bit, independent streams, and each distribution has
// the property its name promises.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/problem.hpp"
#include "base/tensors.hpp"
#include "cli/inputs/input_generator.hpp"

namespace gnbench {
namespace {

bool same_bits(const Eigen::ArrayXf& a, const Eigen::ArrayXf& b) {
  if (a.size() != b.size()) return false;
  for (Eigen::Index i = 0; i < a.size(); ++i)
    if (std::bit_cast<uint32_t>(a[i]) != std::bit_cast<uint32_t>(b[i])) return false;
  return true;
}

bool same_inputs(const Inputs& a, const Inputs& b) {
  return same_bits(a.x, b.x) && same_bits(a.grad_out, b.grad_out) && same_bits(a.weight, b.weight);
}

// FNV-1a over the bit patterns of all three tensors.
uint64_t fingerprint(const Inputs& in) {
  uint64_t h = 0xCBF29CE484222325ull;
  for (const Eigen::ArrayXf* a : {&in.x, &in.grad_out, &in.weight})
    for (Eigen::Index i = 0; i < a->size(); ++i) {
      h ^= std::bit_cast<uint32_t>((*a)[i]);
      h *= 0x100000001B3ull;
    }
  return h;
}

double mean(const Eigen::ArrayXd& a) { return a.mean(); }
double stddev(const Eigen::ArrayXd& a) { return std::sqrt((a - a.mean()).square().mean()); }
double rms(const Eigen::ArrayXf& a) { return std::sqrt(a.cast<double>().square().mean()); }

double median_abs(const Eigen::ArrayXf& a) {
  std::vector<float> v(a.data(), a.data() + a.size());
  for (float& f : v) f = std::abs(f);
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

std::vector<std::string> kind_names() {
  std::vector<std::string> names;
  for (const auto& info : distribution_kinds()) names.push_back(info.kind);
  return names;
}

// ---- Catalogue -------------------------------------------------------------------------

TEST(Inputs, KindsAreTheAdvertisedOnes) {
  const std::vector<std::string> expected = {"normal",        "uniform",      "large_mean",
                                             "near_constant", "weight_zeros", "heavy_tail",
                                             "grad_scale"};
  EXPECT_EQ(kind_names(), expected);
  for (const auto& info : distribution_kinds()) {
    EXPECT_TRUE(is_distribution_kind(info.kind));
    EXPECT_FALSE(info.description.empty()) << info.kind;
  }
  EXPECT_FALSE(is_distribution_kind("Normal"));
  EXPECT_FALSE(is_distribution_kind(""));
  const auto default_of = [](const std::string& kind) {
    for (const auto& info : distribution_kinds())
      if (info.kind == kind) return info.default_param;
    return -1.0;
  };
  EXPECT_EQ(default_of("large_mean"), 1e3);
  EXPECT_EQ(default_of("near_constant"), 1e-3);
  EXPECT_EQ(default_of("heavy_tail"), 2.0);
  EXPECT_EQ(default_of("grad_scale"), 1e-6);
}

TEST(Inputs, RejectsBadRequests) {
  const Shape s{1, 4, 8, 2};
  EXPECT_THROW(generate_inputs(s, {"gaussian", 0.0}, 1), std::invalid_argument);
  EXPECT_THROW(generate_inputs(s, {"", 0.0}, 1), std::invalid_argument);
  EXPECT_THROW(generate_inputs(s, {"large_mean", -5.0}, 1), std::invalid_argument);
  EXPECT_THROW(generate_inputs(s, {"heavy_tail", NAN}, 1), std::invalid_argument);
  EXPECT_THROW(generate_inputs(s, {"normal", 2.0}, 1), std::invalid_argument);  // no knob
  EXPECT_THROW(generate_inputs(s, {"weight_zeros", 1.0}, 1), std::invalid_argument);
  EXPECT_THROW(generate_inputs(s, {"large_mean", 1e40}, 1), std::invalid_argument);  // > FLT_MAX
  EXPECT_THROW(generate_inputs(Shape{1, 4, 8, 3}, {"normal", 0.0}, 1), std::invalid_argument);
}

// ---- Reproducibility -------------------------------------------------------------------

class EveryKind : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryKind, SameSeedSameBitsOtherSeedOtherValues) {
  const Shape s{2, 16, 33, 4};
  const Inputs a = generate_inputs(s, {GetParam(), 0.0}, 42);
  const Inputs b = generate_inputs(s, {GetParam(), 0.0}, 42);
  const Inputs c = generate_inputs(s, {GetParam(), 0.0}, 43);
  EXPECT_TRUE(same_inputs(a, b));
  EXPECT_FALSE(same_bits(a.x, c.x));
  EXPECT_FALSE(same_bits(a.grad_out, c.grad_out));
  EXPECT_FALSE(same_bits(a.weight, c.weight));
  EXPECT_EQ(a.x.size(), static_cast<Eigen::Index>(s.elements()));
  EXPECT_EQ(a.grad_out.size(), static_cast<Eigen::Index>(s.elements()));
  EXPECT_EQ(a.weight.size(), Eigen::Index{s.channels});
}

TEST_P(EveryKind, AllFiniteIncludingExtremeParams) {
  const Shape s{2, 16, 1000, 4};
  for (double param : {0.0, 1e-3, 1.0, 1e4, 1e6}) {
    if (GetParam() == "normal" || GetParam() == "uniform") param = 0.0;
    if (GetParam() == "weight_zeros" && param >= 1.0) param = 0.9;
    if (GetParam() == "heavy_tail" && param > 0.0 && param < 0.1) param = 0.1;  // its lower bound
    const Inputs in = generate_inputs(s, {GetParam(), param}, 5);
    EXPECT_TRUE(in.x.allFinite() && in.grad_out.allFinite() && in.weight.allFinite())
        << GetParam() << " param " << param;
  }
}

// Tensors larger than one generation chunk, filled by several threads, are still identical.
TEST_P(EveryKind, DeterministicAcrossChunks) {
  const Shape s{2, 4, 50000, 2};  // 400k elements, several chunks per tensor
  EXPECT_TRUE(same_inputs(generate_inputs(s, {GetParam(), 0.0}, 9),
                          generate_inputs(s, {GetParam(), 0.0}, 9)));
}

INSTANTIATE_TEST_SUITE_P(Inputs, EveryKind, ::testing::ValuesIn(kind_names()));

// Pins the exact bits: a change here means every stored result's inputs changed. Update the
// values only for an intended change of the generator.
TEST(Inputs, GoldenFingerprints) {
  const Shape s{2, 8, 10000, 4};  // more than one chunk
  const std::vector<std::pair<std::string, uint64_t>> golden = {
      {"normal", 0x9a59d4baac1e8261ull},       {"uniform", 0x1ec355dc92d90ee7ull},
      {"large_mean", 0xaf773753c3679d4eull},   {"near_constant", 0x8051cca481504d1full},
      {"weight_zeros", 0x53edd157028bf5ddull}, {"heavy_tail", 0x83245264240862e7ull},
      {"grad_scale", 0x4e341f48dbfa86f6ull},
  };
  for (const auto& [kind, hash] : golden) {
    const uint64_t got = fingerprint(generate_inputs(s, {kind, 0.0}, 12345));
    EXPECT_EQ(got, hash) << kind << ": 0x" << std::hex << got;
  }
}

TEST(Inputs, TrialSeeds) {
  for (uint64_t seed : {0ull, 1ull, 42ull, 0xFFFFFFFFFFFFFFFFull}) {
    EXPECT_EQ(trial_seed(seed, 0), seed);
    std::set<uint64_t> seen{seed};
    for (uint32_t t = 1; t <= 1000; ++t) {
      EXPECT_EQ(trial_seed(seed, t), trial_seed(seed, t));
      EXPECT_TRUE(seen.insert(trial_seed(seed, t)).second) << seed << " trial " << t;
    }
  }
  // Well mixed: neighbouring seeds and trials differ in about half of the 64 bits.
  double flipped = 0;
  constexpr int kSamples = 1000;
  for (int i = 0; i < kSamples; ++i) {
    const auto u = static_cast<uint64_t>(i);
    flipped += std::popcount(trial_seed(u, 1) ^ trial_seed(u + 1, 1));
    flipped += std::popcount(trial_seed(u, 1) ^ trial_seed(u, 2));
  }
  EXPECT_NEAR(flipped / (2 * kSamples), 32.0, 1.0);
  // And the trials draw different inputs.
  const Shape s{1, 4, 16, 2};
  EXPECT_FALSE(same_bits(generate_inputs(s, {}, trial_seed(7, 0)).x,
                         generate_inputs(s, {}, trial_seed(7, 1)).x));
}

// x, grad_out and weight come from separate streams: uncorrelated, and a kind that changes
// one tensor leaves the others bit-identical to "normal".
TEST(Inputs, IndependentStreams) {
  const Shape s{4, 32, 2048, 8};
  const Inputs in = generate_inputs(s, {"normal", 0.0}, 1);
  const Eigen::ArrayXd x = in.x.cast<double>(), g = in.grad_out.cast<double>();
  const double corr = ((x - mean(x)) * (g - mean(g))).mean() / (stddev(x) * stddev(g));
  EXPECT_LT(std::abs(corr), 0.01);

  const Inputs scaled = generate_inputs(s, {"grad_scale", 0.0}, 1);
  EXPECT_TRUE(same_bits(in.x, scaled.x));
  EXPECT_TRUE(same_bits(in.weight, scaled.weight));
  const Inputs zeros = generate_inputs(s, {"weight_zeros", 0.0}, 1);
  EXPECT_TRUE(same_bits(in.x, zeros.x));
  EXPECT_TRUE(same_bits(in.grad_out, zeros.grad_out));
}

// ---- Distribution properties -----------------------------------------------------------

TEST(Inputs, NormalMoments) {
  const Shape s{1, 8192, 64, 1};  // many channels for the weight statistics
  const Inputs in = generate_inputs(s, {"normal", 0.0}, 2);
  for (const Eigen::ArrayXf* a : {&in.x, &in.grad_out}) {
    const Eigen::ArrayXd d = a->cast<double>();
    EXPECT_NEAR(mean(d), 0.0, 0.005);
    EXPECT_NEAR(stddev(d), 1.0, 0.005);
    // Normal tails: P(|z| > 3) = 0.27%.
    EXPECT_NEAR((d.abs() > 3.0).cast<double>().mean(), 0.0027, 0.0003);
  }
  const Eigen::ArrayXd w = in.weight.cast<double>();
  EXPECT_NEAR(mean(w), 1.0, 0.02);
  EXPECT_NEAR(stddev(w), 0.5, 0.02);
}

TEST(Inputs, UniformRanges) {
  const Shape s{1, 8192, 64, 1};
  const Inputs in = generate_inputs(s, {"uniform", 0.0}, 2);
  for (const Eigen::ArrayXf* a : {&in.x, &in.grad_out}) {
    EXPECT_GE(a->minCoeff(), -1.0f);
    EXPECT_LE(a->maxCoeff(), 1.0f);
    const Eigen::ArrayXd d = a->cast<double>();
    EXPECT_NEAR(mean(d), 0.0, 0.005);
    EXPECT_NEAR(d.square().mean(), 1.0 / 3.0, 0.005);
  }
  EXPECT_GE(in.weight.minCoeff(), 0.5f);
  EXPECT_LE(in.weight.maxCoeff(), 1.5f);
  EXPECT_NEAR(in.weight.cast<double>().mean(), 1.0, 0.02);
}

TEST(Inputs, LargeMeanRatio) {
  const Shape s{2, 16, 2048, 8};
  for (double param : {0.0, 1e1, 1e4}) {
    const double ratio = param == 0.0 ? 1e3 : param;
    const Inputs in = generate_inputs(s, {"large_mean", param}, 3);
    const Eigen::Index m = static_cast<Eigen::Index>(s.group_size());
    int positive = 0, negative = 0;
    double smallest = 1e300, largest = 0;
    for (Eigen::Index k = 0; k < s.batch * s.groups; ++k) {
      const Eigen::ArrayXd v = in.x.segment(k * m, m).cast<double>();
      const double mu = mean(v), sd = stddev(v);
      EXPECT_NEAR(std::abs(mu) / sd, ratio, 0.05 * ratio) << "group " << k;
      (mu > 0 ? positive : negative)++;
      smallest = std::min(smallest, sd);
      largest = std::max(largest, sd);
    }
    EXPECT_GT(positive, 0);
    EXPECT_GT(negative, 0);
    // std is log-uniform in [0.1, 10]: spread over orders of magnitude, within the range.
    EXPECT_GE(smallest, 0.1 * 0.95);
    EXPECT_LE(largest, 10 * 1.05);
    EXPECT_GT(largest / smallest, 10.0);
    EXPECT_NEAR(stddev(in.grad_out.cast<double>()), 1.0, 0.01);
  }
}

TEST(Inputs, NearConstantGroups) {
  const double eps = 1e-5;
  for (const Shape& s : {Shape{2, 16, 64, 8}, Shape{4, 8, 64, 1}}) {
    for (double param : {0.0, 1.0}) {
      const double noise = (param == 0.0 ? 1e-3 : param) * 1e-3;  // std of the noisy groups
      const Inputs in = generate_inputs(s, {"near_constant", param}, 4);
      const Eigen::Index m = static_cast<Eigen::Index>(s.group_size());
      for (uint32_t n = 0; n < s.batch; ++n) {
        int constant = 0, noisy = 0, ordinary = 0;
        for (uint32_t g = 0; g < s.groups; ++g) {
          const Eigen::Index k = Eigen::Index{n} * s.groups + g;
          const Eigen::ArrayXf v = in.x.segment(k * m, m);
          const double sd = stddev(v.cast<double>());
          if (v.minCoeff() == v.maxCoeff())
            ++constant;
          else if (sd < 0.1)
            ++noisy;
          else
            ++ordinary;
          // Every 4th group exactly constant, odd groups noisy; with G = 1 along the batch,
          // starting with a noisy item.
          const uint32_t r = s.groups > 1 ? g : n ^ 1;
          if (r % 4 == 0) {
            EXPECT_EQ(v.minCoeff(), v.maxCoeff()) << "n " << n << " g " << g;
          }
          if (r % 2 == 1) {
            EXPECT_NEAR(sd, noise, 0.2 * noise) << "n " << n << " g " << g;
            if (param == 0.0) {
              EXPECT_LT(sd * sd, 1e-6 * eps);  // far below eps by default
            }
          }
        }
        if (s.groups > 1) {
          EXPECT_GE(constant, 1) << "batch item " << n;
          EXPECT_EQ(noisy, static_cast<int>(s.groups) / 2);
          EXPECT_GE(ordinary, 1);
        }
      }
      EXPECT_NEAR(stddev(in.grad_out.cast<double>()), 1.0, 0.05);
    }
  }
}

TEST(Inputs, WeightZerosHasZerosAndBothSigns) {
  for (uint32_t channels : {3u, 6u, 64u, 1000u}) {
    const Shape s{1, channels, 4, 1};
    const Inputs in = generate_inputs(s, {"weight_zeros", 0.0}, 5);
    const Inputs normal = generate_inputs(s, {"normal", 0.0}, 5);
    const auto zeros = (in.weight == 0.0f).count();
    EXPECT_GE(zeros, 1) << channels;
    EXPECT_GE((in.weight > 0.0f).count(), 1) << channels;
    EXPECT_GE((in.weight < 0.0f).count(), 1) << channels;
    if (channels >= 64) {
      EXPECT_NEAR(static_cast<double>(zeros) / channels, 0.25, 0.01);
      EXPECT_NEAR(static_cast<double>((in.weight < 0.0f).count()) / channels, 0.375, 0.01);
    }
    // The nonzero weights keep normal's magnitudes.
    for (Eigen::Index c = 0; c < in.weight.size(); ++c)
      if (in.weight[c] != 0.0f) {
        EXPECT_EQ(std::abs(in.weight[c]), std::abs(normal.weight[c])) << c;
      }
  }
  const Inputs half = generate_inputs(Shape{1, 100, 4, 1}, {"weight_zeros", 0.5}, 5);
  EXPECT_EQ((half.weight == 0.0f).count(), 50);
}

// Student-t: median |t| is 0.8165 for 2 degrees of freedom, 1 for 1 (Cauchy), 0.6794 for 50;
// checking it pins the shape, the maximum shows the tail.
TEST(Inputs, HeavyTailIsStudentT) {
  const Shape s{4, 32, 2048, 8};
  const std::vector<std::pair<double, double>> cases = {{0.0, 0.8165}, {1.0, 1.0}, {50.0, 0.6794}};
  for (const auto& [param, median] : cases) {
    const Inputs in = generate_inputs(s, {"heavy_tail", param}, 6);
    for (const Eigen::ArrayXf* a : {&in.x, &in.grad_out}) {
      EXPECT_NEAR(median_abs(*a), median, 0.01 * median) << "dof " << param;
      EXPECT_LE(a->abs().maxCoeff(), 1e8f);
    }
    if (param != 50.0) {
      EXPECT_GT(in.x.abs().maxCoeff(), 100.0f) << "dof " << param;
    }
  }
}

TEST(Inputs, GradScaleRatio) {
  const Shape s{2, 16, 4096, 4};
  const Inputs normal = generate_inputs(s, {"normal", 0.0}, 8);
  for (double param : {0.0, 1e-6, 1e6, 3.0}) {
    const double scale = param == 0.0 ? 1e-6 : param;
    const Inputs in = generate_inputs(s, {"grad_scale", param}, 8);
    EXPECT_NEAR(rms(in.grad_out) / rms(in.x), scale, 0.01 * scale);
    // Exactly normal's grad_out times the scale, rounded once to float32.
    const Eigen::ArrayXd ratio = in.grad_out.cast<double>() / normal.grad_out.cast<double>();
    EXPECT_LE((ratio / scale - 1.0).abs().maxCoeff(), 1.2e-7);
  }
}

}  // namespace
}  // namespace gnbench
