#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <random>

#include "cli/verify/invariants.hpp"
#include "cli/verify/metrics.hpp"

namespace gnbench {
namespace {

Shape make_shape(uint32_t n, uint32_t c, uint32_t hw, uint32_t g) {
  Shape s;
  s.batch = n;
  s.channels = c;
  s.spatial = hw;
  s.groups = g;
  return s;
}

Inputs make_inputs(const Shape& s, uint64_t seed, double x_mean = 0, double x_std = 1,
                   double dy_mean = 0) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> uniform(0.5, 1.5);
  Inputs in;
  in.x.resize(s.elements());
  in.grad_out.resize(s.elements());
  in.weight.resize(s.channels);
  for (auto& v : in.x) v = static_cast<float>(x_mean + x_std * normal(rng));
  for (auto& v : in.grad_out) v = static_cast<float>(dy_mean + normal(rng));
  for (auto& v : in.weight) v = static_cast<float>((rng() & 1 ? 1 : -1) * uniform(rng));
  return in;
}

enum class Bug { kNone, kDropMeanTerm, kDropXhatTerm };

// GroupNorm backward written out per (n, group) in Scalar precision with plain sequential sums,
// like a naive kernel: double gives the exact answer, float a realistic float32 one.
template <typename Scalar>
GpuOutputs backward(const Shape& s, const Inputs& in, float eps, Bug bug = Bug::kNone) {
  const int64_t cpg = s.channels_per_group(), hw = s.spatial, m = cpg * hw;
  GpuOutputs out;
  out.grad_input.resize(s.elements());
  out.grad_weight = Eigen::ArrayXf::Zero(s.channels);
  out.grad_bias = Eigen::ArrayXf::Zero(s.channels);
  Eigen::Array<Scalar, Eigen::Dynamic, 1> dw = decltype(dw)::Zero(s.channels), db = dw;
  for (int64_t n = 0; n < s.batch; ++n) {
    for (int64_t g = 0; g < s.groups; ++g) {
      const int64_t off = (n * s.groups + g) * m;
      const auto x = [&](int64_t i) { return static_cast<Scalar>(in.x(off + i)); };
      const auto dy = [&](int64_t i) { return static_cast<Scalar>(in.grad_out(off + i)); };
      const auto w = [&](int64_t i) { return static_cast<Scalar>(in.weight(g * cpg + i / hw)); };
      Scalar mean = 0, var = 0;
      for (int64_t i = 0; i < m; ++i) mean += x(i);
      mean /= m;
      for (int64_t i = 0; i < m; ++i) var += (x(i) - mean) * (x(i) - mean);
      var /= m;
      const Scalar rstd = 1 / std::sqrt(var + static_cast<Scalar>(eps));
      Scalar mean_g = 0, mean_gx = 0;
      for (int64_t i = 0; i < m; ++i) {
        const Scalar xhat = (x(i) - mean) * rstd;
        mean_g += w(i) * dy(i);
        mean_gx += w(i) * dy(i) * xhat;
        dw(g * cpg + i / hw) += dy(i) * xhat;
        db(g * cpg + i / hw) += dy(i);
      }
      mean_g /= m;
      mean_gx /= m;
      if (bug == Bug::kDropMeanTerm) mean_g = 0;
      if (bug == Bug::kDropXhatTerm) mean_gx = 0;
      for (int64_t i = 0; i < m; ++i) {
        const Scalar xhat = (x(i) - mean) * rstd;
        out.grad_input(off + i) =
            static_cast<float>(rstd * (w(i) * dy(i) - mean_g - xhat * mean_gx));
      }
    }
  }
  out.grad_weight = dw.template cast<float>();
  out.grad_bias = db.template cast<float>();
  return out;
}

constexpr float kEps = 1e-5f;
constexpr double kTol = kDefaultInvariantTolerance;

TEST(VerifyInvariants, ExactGradientsPass) {
  const Shape s = make_shape(2, 8, 64, 4);
  const Inputs in = make_inputs(s, 1);
  const InvariantResult r = check_invariants(s, in, kEps, backward<double>(s, in, kEps));
  EXPECT_TRUE(r.pass) << r.failure;
  EXPECT_TRUE(r.failure.empty());
  EXPECT_LT(r.worst_sum_violation, 1e-6);
  EXPECT_LT(r.worst_xhat_violation, 1e-6);
  EXPECT_LT(r.worst_bias_violation, 1e-6);
}

TEST(VerifyInvariants, Float32KernelPasses) {
  for (const auto& [s, x_mean, dy_mean] : {std::tuple{make_shape(2, 8, 64, 4), 0.0, 0.0},
                                           std::tuple{make_shape(1, 16, 4096, 2), 0.0, 3.0},
                                           std::tuple{make_shape(3, 12, 300, 3), 100.0, 0.0}}) {
    const Inputs in = make_inputs(s, 2, x_mean, 1.0, dy_mean);
    const InvariantResult r = check_invariants(s, in, kEps, backward<float>(s, in, kEps));
    EXPECT_TRUE(r.pass) << r.failure;
    EXPECT_LT(r.worst_sum_violation, kTol / 10);
    EXPECT_LT(r.worst_xhat_violation, kTol / 10);
    EXPECT_LT(r.worst_bias_violation, kTol / 10);
  }
}

TEST(VerifyInvariants, DroppedMeanTermFails) {
  const Shape s = make_shape(2, 8, 64, 4);
  {
    // Zero-mean grad_out: the dropped term is only ~1/sqrt(M) of the gradient, still caught.
    const Inputs in = make_inputs(s, 3);
    const InvariantResult r =
        check_invariants(s, in, kEps, backward<float>(s, in, kEps, Bug::kDropMeanTerm));
    EXPECT_FALSE(r.pass);
    EXPECT_GT(r.worst_sum_violation, 10 * kTol);
    EXPECT_EQ(r.failure.rfind("grad_input: shift invariance sum(grad_input) = 0 violated by ", 0),
              0u)
        << r.failure;
    EXPECT_NE(r.failure.find(" at (n="), std::string::npos) << r.failure;
  }
  {
    const Inputs in = make_inputs(s, 3, 0.0, 1.0, 2.0);
    const InvariantResult r =
        check_invariants(s, in, kEps, backward<float>(s, in, kEps, Bug::kDropMeanTerm));
    EXPECT_FALSE(r.pass);
    EXPECT_GT(r.worst_sum_violation, 0.5);
  }
}

TEST(VerifyInvariants, DroppedXhatTermFails) {
  const Shape s = make_shape(2, 8, 64, 4);
  const Inputs in = make_inputs(s, 4);
  const InvariantResult r =
      check_invariants(s, in, kEps, backward<float>(s, in, kEps, Bug::kDropXhatTerm));
  EXPECT_FALSE(r.pass);
  EXPECT_LT(r.worst_sum_violation, kTol);  // still shift invariant
  EXPECT_GT(r.worst_xhat_violation, 10 * kTol);
  EXPECT_EQ(r.failure.rfind("grad_input: scale invariance", 0), 0u) << r.failure;
}

TEST(VerifyInvariants, EpsTermMattersWhenVarianceIsNearEps) {
  // var ~ 1e-5 ~ eps: sum(dx * xhat) is far from 0, yet exact gradients must pass.
  const Shape s = make_shape(2, 8, 64, 4);
  const Inputs in = make_inputs(s, 5, 0.0, 3e-3);
  const GpuOutputs gpu = backward<double>(s, in, kEps);
  const InvariantResult r = check_invariants(s, in, kEps, gpu);
  EXPECT_TRUE(r.pass) << r.failure;

  // The naive identity would have failed: check on the first group.
  const Eigen::Index m = s.group_size();
  const Eigen::ArrayXd x = in.x.head(m).cast<double>(), dx = gpu.grad_input.head(m).cast<double>();
  const Eigen::ArrayXd xc = x - x.mean();
  const Eigen::ArrayXd xhat = xc / std::sqrt(xc.square().mean() + kEps);
  EXPECT_GT(std::abs((dx * xhat).sum()) / (xhat.matrix().norm() * dx.matrix().norm()), 10 * kTol);
}

TEST(VerifyInvariants, WrongBiasIsLocated) {
  const Shape s = make_shape(2, 8, 64, 4);
  const Inputs in = make_inputs(s, 6);
  GpuOutputs gpu = backward<float>(s, in, kEps);
  gpu.grad_bias(3) += 0.1f * static_cast<float>(gpu.grad_bias.matrix().norm());
  const InvariantResult r = check_invariants(s, in, kEps, gpu);
  EXPECT_FALSE(r.pass);
  EXPECT_GT(r.worst_bias_violation, 0.05);
  EXPECT_EQ(r.failure.rfind("grad_bias: ", 0), 0u) << r.failure;
  EXPECT_NE(r.failure.find("at (c=3): gpu "), std::string::npos) << r.failure;
}

TEST(VerifyInvariants, SwappedWeightAndBiasFails) {
  const Shape s = make_shape(2, 8, 64, 4);
  const Inputs in = make_inputs(s, 7);
  GpuOutputs gpu = backward<float>(s, in, kEps);
  gpu.grad_bias = gpu.grad_weight;
  EXPECT_FALSE(check_invariants(s, in, kEps, gpu).pass);
}

TEST(VerifyInvariants, NonfiniteGradInputFailsWithGroup) {
  const Shape s = make_shape(2, 8, 64, 4);
  const Inputs in = make_inputs(s, 8);
  GpuOutputs gpu = backward<float>(s, in, kEps);
  gpu.grad_input((1 * 8 + 6) * 64 + 5) = std::bit_cast<float>(kPoisonBits);  // n=1, group=3
  const InvariantResult r = check_invariants(s, in, kEps, gpu);
  EXPECT_FALSE(r.pass);
  EXPECT_TRUE(std::isinf(r.worst_sum_violation));
  EXPECT_EQ(r.failure,
            "grad_input: shift invariance sum(grad_input) = 0 NaN/Inf or unwritten values at "
            "(n=1, group=3)");
}

TEST(VerifyInvariants, NonfiniteGradBiasFails) {
  const Shape s = make_shape(2, 8, 64, 4);
  const Inputs in = make_inputs(s, 8);
  GpuOutputs gpu = backward<float>(s, in, kEps);
  gpu.grad_bias(2) = std::numeric_limits<float>::quiet_NaN();
  const InvariantResult r = check_invariants(s, in, kEps, gpu);
  EXPECT_FALSE(r.pass);
  EXPECT_NE(r.failure.find("(c=2)"), std::string::npos) << r.failure;
}

TEST(VerifyInvariants, DegenerateGroupsPass) {
  const Shape s = make_shape(2, 8, 64, 4);
  Inputs in = make_inputs(s, 9);
  in.x.segment(s.group_size(), s.group_size()).setConstant(2.5f);  // zero variance in (0, 1)
  EXPECT_TRUE(check_invariants(s, in, kEps, backward<float>(s, in, kEps)).pass);

  in.grad_out.setZero();  // all gradients exactly zero
  const InvariantResult r = check_invariants(s, in, kEps, backward<float>(s, in, kEps));
  EXPECT_TRUE(r.pass) << r.failure;
  EXPECT_EQ(r.worst_sum_violation, 0.0);
  EXPECT_EQ(r.worst_bias_violation, 0.0);
}

TEST(VerifyInvariants, WrongSizesThrow) {
  const Shape s = make_shape(2, 8, 64, 4);
  const Inputs in = make_inputs(s, 10);
  GpuOutputs gpu = backward<float>(s, in, kEps);
  gpu.grad_input.conservativeResize(gpu.grad_input.size() - 1);
  EXPECT_THROW(check_invariants(s, in, kEps, gpu), std::invalid_argument);
  EXPECT_THROW(check_invariants(make_shape(2, 8, 64, 3), in, kEps, backward<float>(s, in, kEps)),
               std::invalid_argument);
}

}  // namespace
}  // namespace gnbench
