// The float64 reference backward against central finite differences of its own forward, for
// every input distribution and the edge shapes (G=1, G=C, HW=1), plus exact invariants.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "base/problem.hpp"
#include "base/tensors.hpp"
#include "cli/inputs/input_generator.hpp"
#include "reference/group_norm.hpp"

namespace gnbench {
namespace {

struct Problem64 {
  Shape shape;
  Eigen::ArrayXd x, grad_out, weight, bias;
  double eps = 1e-5;
};

Problem64 make_problem(const Shape& shape, const Distribution& dist, uint64_t seed) {
  const Inputs in = generate_inputs(shape, dist, seed);
  Problem64 p;
  p.shape = shape;
  p.x = in.x.cast<double>();
  p.grad_out = in.grad_out.cast<double>();
  p.weight = in.weight.cast<double>();
  // The loss is linear in the bias, so any bias works; a nonzero one checks it is ignored.
  p.bias = Eigen::ArrayXd::LinSpaced(shape.channels, -0.5, 0.75);
  p.eps = static_cast<double>(1e-5f);
  return p;
}

// L = sum(grad_out * y): its gradients are exactly what backward() returns.
double loss(const Problem64& p, const Eigen::ArrayXd& x, const Eigen::ArrayXd& weight,
            const Eigen::ArrayXd& bias) {
  return (p.grad_out * reference::forward(p.shape, x, weight, bias, p.eps)).sum();
}

// Central difference of L in coordinate i of `v` (one of x, weight, bias), step h. The step
// actually taken is (v+h) - (v-h) as rounded, not 2h: it matters when |v| >> h.
template <typename Eval>
double central_difference(Eigen::ArrayXd v, Eigen::Index i, double h, const Eval& eval) {
  const double v0 = v[i];
  v[i] = v0 + h;
  const double plus_at = v[i];
  const double lp = eval(v);
  v[i] = v0 - h;
  const double minus_at = v[i];
  const double lm = eval(v);
  return (lp - lm) / (plus_at - minus_at);
}

// max |numeric - analytic| relative to `scale` (or to the largest analytic value if larger).
double fd_error(const Eigen::ArrayXd& numeric, const Eigen::ArrayXd& analytic, double scale = 0) {
  scale = std::max(scale, analytic.abs().maxCoeff());
  const double err = (numeric - analytic).abs().maxCoeff();
  return scale > 0 ? err / scale : err;
}

struct FdCase {
  Shape shape;
  Distribution dist;
};

std::string case_name(const testing::TestParamInfo<FdCase>& info) {
  const Shape& s = info.param.shape;
  std::string name = info.param.dist.kind;
  if (info.param.dist.param != 0) {
    const int e = static_cast<int>(std::lround(std::log10(info.param.dist.param)));
    name += "_1e" + (e < 0 ? "m" + std::to_string(-e) : std::to_string(e));
  }
  return name + "_N" + std::to_string(s.batch) + "C" + std::to_string(s.channels) + "HW" +
         std::to_string(s.spatial) + "G" + std::to_string(s.groups);
}

std::vector<FdCase> fd_cases() {
  const std::vector<Shape> shapes = {
      {2, 6, 5, 3},  // ordinary
      {2, 6, 5, 1},  // one group spanning all channels
      {2, 6, 5, 6},  // one channel per group (InstanceNorm)
      {2, 6, 1, 3},  // HW = 1
      {2, 6, 1, 6},  // HW = 1 and G = C: every group a single element
      {3, 8, 7, 4},  // near_constant: groups of every type in each batch item
  };
  std::vector<Distribution> dists;
  for (const auto& info : distribution_kinds()) dists.push_back({info.kind, 0.0});
  for (double p : {1e1, 1e4}) dists.push_back({"large_mean", p});
  dists.push_back({"grad_scale", 1e6});
  dists.push_back({"heavy_tail", 1.0});
  dists.push_back({"near_constant", 1.0});
  std::vector<FdCase> cases;
  for (const auto& d : dists)
    for (const auto& s : shapes) cases.push_back({s, d});
  return cases;
}

class FiniteDifferences : public testing::TestWithParam<FdCase> {};

TEST_P(FiniteDifferences, BackwardMatchesForward) {
  const Problem64 p = make_problem(GetParam().shape, GetParam().dist, 7);
  const Shape& s = p.shape;
  const ReferenceOutputs ref = reference::backward(s, p.grad_out, p.x, p.weight, p.eps);
  const reference::GroupStats stats = reference::group_stats(s, p.x, p.eps);

  // x: the step is relative to the group's normalizer sqrt(var + eps) (its std for ordinary
  // groups, sqrt(eps) for near-constant ones), never to the possibly huge mean.
  // 1e-5 balances truncation (~step^2) against rounding (~1e-16 * |mean|/std / step).
  constexpr double kRelStep = 1e-5;
  Eigen::ArrayXd fd_x(p.x.size());
  for (Eigen::Index i = 0; i < p.x.size(); ++i) {
    const Eigen::Index k = i / static_cast<Eigen::Index>(s.group_size());
    fd_x[i] = central_difference(p.x, i, kRelStep / stats.inv_std[k],
                                 [&](const auto& x) { return loss(p, x, p.weight, p.bias); });
  }
  // weight and bias: L is linear in them, so only rounding limits the difference.
  Eigen::ArrayXd fd_w(s.channels), fd_b(s.channels);
  for (Eigen::Index c = 0; c < s.channels; ++c) {
    fd_w[c] = central_difference(p.weight, c, 1e-3 * (1 + std::abs(p.weight[c])),
                                 [&](const auto& w) { return loss(p, p.x, w, p.bias); });
    fd_b[c] = central_difference(p.bias, c, 1e-3,
                                 [&](const auto& b) { return loss(p, p.x, p.weight, b); });
  }

  // grad_input is judged against the size of the terms it is made of, inv_std * |w * dy|:
  // when groups have 2 elements it cancels to ~eps/var of that, and the rounding in the
  // differences follows the terms, not the result.
  double natural = 0;
  for (Eigen::Index i = 0; i < p.x.size(); ++i) {
    const Eigen::Index k = i / static_cast<Eigen::Index>(s.group_size());
    const Eigen::Index c = (i / s.spatial) % s.channels;
    natural = std::max(natural, stats.inv_std[k] * std::abs(p.weight[c] * p.grad_out[i]));
  }
  EXPECT_LE(fd_error(fd_x, ref.grad_input, natural), 1e-5);
  // Linear in weight and bias: the differences are exact up to rounding of L.
  EXPECT_LE(fd_error(fd_w, ref.grad_weight), 1e-8);
  EXPECT_LE(fd_error(fd_b, ref.grad_bias), 1e-8);
  EXPECT_TRUE(ref.grad_input.allFinite() && ref.grad_weight.allFinite() &&
              ref.grad_bias.allFinite());
}

INSTANTIATE_TEST_SUITE_P(AllDistributions, FiniteDifferences, testing::ValuesIn(fd_cases()),
                         case_name);

// Per (n, group): sum(grad_input) = 0 because the mean is subtracted, and
// sum(grad_input * xhat) = inv_std * M * mean(wdy*xhat) * eps / (var + eps), which is 0 when
// eps = 0 (the normalization removes the scale direction).
class Invariants : public testing::TestWithParam<std::string> {};

TEST_P(Invariants, HoldPerGroup) {
  const Shape s{3, 8, 50, 4};
  for (double eps : {1e-5, 0.0}) {
    Problem64 p = make_problem(s, {GetParam(), 0.0}, 11);
    p.eps = eps;
    if (eps == 0.0 && GetParam() == "near_constant") continue;  // constant groups need eps > 0
    const ReferenceOutputs ref = reference::backward(s, p.grad_out, p.x, p.weight, eps);
    const reference::GroupStats st = reference::group_stats(s, p.x, eps);
    const Eigen::Index m = static_cast<Eigen::Index>(s.group_size());
    const Eigen::Index cpg = s.channels_per_group();
    for (Eigen::Index k = 0; k < st.mean.size(); ++k) {
      const Eigen::Index g = k % s.groups;
      const Eigen::ArrayXd xhat = (p.x.segment(k * m, m) - st.mean[k]) * st.inv_std[k];
      const Eigen::ArrayXd gi = ref.grad_input.segment(k * m, m);
      const Eigen::ArrayXd w =
          p.weight.segment(g * cpg, cpg).replicate(1, s.spatial).transpose().reshaped();
      const Eigen::ArrayXd wdy = w * p.grad_out.segment(k * m, m);
      // Rounding bound: the terms grad_input is built from, summed in magnitude.
      const double terms = st.inv_std[k] * (wdy.abs().sum() + std::abs(wdy.mean()) * m +
                                            (xhat * (wdy * xhat).mean()).abs().sum());
      EXPECT_LE(std::abs(gi.sum()), 1e-12 * terms) << "group " << k << " eps " << eps;
      // eps / (var + eps) = eps * inv_std^2.
      const double expected =
          st.inv_std[k] * m * (wdy * xhat).mean() * eps * st.inv_std[k] * st.inv_std[k];
      EXPECT_LE(std::abs((gi * xhat).sum() - expected), 1e-12 * terms * (1 + xhat.abs().maxCoeff()))
          << "group " << k << " eps " << eps;
    }
  }
}

std::vector<std::string> reference_kind_names() {
  std::vector<std::string> names;
  for (const auto& info : distribution_kinds()) names.push_back(info.kind);
  return names;
}

INSTANTIATE_TEST_SUITE_P(AllDistributions, Invariants, testing::ValuesIn(reference_kind_names()));

// Hand-computed: x = [-1,-1,1,1] has mean 0, var 1, so with eps = 0 xhat = x. Then
// grad_bias = sum dy = 10 and grad_weight = sum dy*xhat = 4; swapping them fails.
TEST(Reference, HandComputedGradients) {
  const Shape s{1, 1, 4, 1};
  Eigen::ArrayXd x(4), dy(4), w(1);
  x << -1, -1, 1, 1;
  dy << 1, 2, 3, 4;
  w << 2;
  const ReferenceOutputs ref = reference::backward(s, dy, x, w, 0.0);
  EXPECT_DOUBLE_EQ(ref.grad_bias[0], 10.0);
  EXPECT_DOUBLE_EQ(ref.grad_weight[0], 4.0);
  // wdy = [2,4,6,8], mean 5; mean(wdy*xhat) = 2; grad_input = wdy - 5 - 2*xhat.
  Eigen::ArrayXd expected(4);
  expected << -1, 1, -1, 1;
  for (int i = 0; i < 4; ++i) EXPECT_DOUBLE_EQ(ref.grad_input[i], expected[i]) << i;
}

// Two channels with distinct statistics: grad_weight and grad_bias must land per channel.
TEST(Reference, GradWeightAndBiasPerChannel) {
  const Shape s{2, 2, 4, 2};
  Eigen::ArrayXd x(16), dy(16), w(2);
  // n = 0: channel 0 xhat = [-1,-1,1,1], channel 1 xhat = [1,-1,1,-1]; n = 1 the same.
  x << -1, -1, 1, 1, 5, 3, 5, 3, -1, -1, 1, 1, 5, 3, 5, 3;
  dy << 1, 2, 3, 4, 1, 0, 0, 0, 1, 1, 1, 1, 0, 2, 0, 0;
  w << 1, -3;
  const ReferenceOutputs ref = reference::backward(s, dy, x, w, 0.0);
  EXPECT_DOUBLE_EQ(ref.grad_bias[0], 10.0 + 4.0);
  EXPECT_DOUBLE_EQ(ref.grad_bias[1], 1.0 + 2.0);
  EXPECT_DOUBLE_EQ(ref.grad_weight[0], 4.0 + 0.0);
  EXPECT_DOUBLE_EQ(ref.grad_weight[1], 1.0 - 2.0);
}

// A constant group has variance 0: mean is the value exactly, inv_std = 1/sqrt(eps), xhat = 0,
// so grad_input = inv_std * (wdy - mean(wdy)) and the group adds nothing to grad_weight.
TEST(Reference, ConstantGroup) {
  const Shape s{1, 6, 7, 2};  // group 0 (channels 0-2) constant, group 1 random
  const Problem64 base = make_problem(s, {"normal", 0.0}, 3);
  Eigen::ArrayXd x = base.x;
  const Eigen::Index m = static_cast<Eigen::Index>(s.group_size());
  // A value whose naive mean sum/M comes out an ulp off, so the exact path is exercised. Not a
  // float: M copies of a float sum exactly in double, so their mean is always exact.
  double value = 0;
  for (int i = 1; i < 100 && value == 0; ++i) {
    x.head(m).setConstant(0.1 * i);
    if (x.head(m).sum() / static_cast<double>(m) != 0.1 * i) value = 0.1 * i;
  }
  ASSERT_NE(value, 0.0);
  const double eps = 1e-5;
  const reference::GroupStats st = reference::group_stats(s, x, eps);
  EXPECT_EQ(st.mean[0], value);
  EXPECT_EQ(st.inv_std[0], 1.0 / std::sqrt(eps));

  const ReferenceOutputs ref = reference::backward(s, base.grad_out, x, base.weight, eps);
  Eigen::ArrayXd wdy(m);
  for (Eigen::Index i = 0; i < m; ++i) wdy[i] = base.weight[i / s.spatial] * base.grad_out[i];
  const Eigen::ArrayXd expected = st.inv_std[0] * (wdy - wdy.mean());
  EXPECT_LE((ref.grad_input.head(m) - expected).abs().maxCoeff(),
            1e-13 * expected.abs().maxCoeff());
  for (int c = 0; c < 3; ++c) EXPECT_EQ(ref.grad_weight[c], 0.0) << c;
  for (int c = 0; c < 3; ++c)
    EXPECT_DOUBLE_EQ(ref.grad_bias[c], base.grad_out.segment(c * s.spatial, s.spatial).sum());
}

// The float overload widens exactly: eps is double(float eps), not the decimal value.
TEST(Reference, FloatOverloadWidensExactly) {
  const Shape s{2, 8, 9, 4};
  const Inputs in = generate_inputs(s, {"near_constant", 0.0}, 5);
  const ReferenceOutputs a = reference::backward(s, in, 1e-5f);
  const ReferenceOutputs b =
      reference::backward(s, in.grad_out.cast<double>(), in.x.cast<double>(),
                          in.weight.cast<double>(), static_cast<double>(1e-5f));
  EXPECT_TRUE((a.grad_input == b.grad_input).all());
  EXPECT_TRUE((a.grad_weight == b.grad_weight).all());
  EXPECT_TRUE((a.grad_bias == b.grad_bias).all());
  // Near-constant groups are dominated by eps, so the decimal 1e-5 gives different bits.
  const ReferenceOutputs c = reference::backward(s, in.grad_out.cast<double>(), in.x.cast<double>(),
                                                 in.weight.cast<double>(), 1e-5);
  EXPECT_FALSE((a.grad_input == c.grad_input).all());
}

// The float overload widens one block at a time on the thread pool; on random shapes, large
// enough to run on several threads and with blocks at every alignment, it stays bitwise the
// float64 overload over whole widened arrays.
TEST(Reference, BlockwiseWideningIsBitwiseTheWholeArrayOne) {
  std::mt19937_64 rng(21);
  const std::vector<std::string> kinds = reference_kind_names();
  for (int t = 0; t < 12; ++t) {
    const uint32_t groups = 1 + static_cast<uint32_t>(rng() % 8);
    const Shape s{1 + static_cast<uint32_t>(rng() % 5),
                  groups * (1 + static_cast<uint32_t>(rng() % 9)),
                  1 + static_cast<uint32_t>(rng() % 4099), groups};
    const std::string& kind = kinds[rng() % kinds.size()];
    SCOPED_TRACE(testing::Message() << s.batch << "x" << s.channels << "x" << s.spatial << "/"
                                    << s.groups << " " << kind);
    const Inputs in = generate_inputs(s, {kind, 0.0}, rng());
    const ReferenceOutputs a = reference::backward(s, in, 1e-5f);
    const ReferenceOutputs b =
        reference::backward(s, in.grad_out.cast<double>(), in.x.cast<double>(),
                            in.weight.cast<double>(), static_cast<double>(1e-5f));
    EXPECT_EQ(std::memcmp(a.grad_input.data(), b.grad_input.data(), a.grad_input.size() * 8), 0);
    EXPECT_TRUE((a.grad_weight == b.grad_weight).all());
    EXPECT_TRUE((a.grad_bias == b.grad_bias).all());
  }
}

TEST(Reference, ForwardIsNormalizedPerGroup) {
  const Shape s{2, 6, 10, 3};
  const Problem64 p = make_problem(s, {"large_mean", 0.0}, 9);
  const Eigen::ArrayXd ones = Eigen::ArrayXd::Ones(s.channels);
  const Eigen::ArrayXd zeros = Eigen::ArrayXd::Zero(s.channels);
  const Eigen::ArrayXd y = reference::forward(s, p.x, ones, zeros, 0.0);
  const Eigen::Index m = static_cast<Eigen::Index>(s.group_size());
  for (Eigen::Index k = 0; k < s.batch * s.groups; ++k) {
    const Eigen::ArrayXd yk = y.segment(k * m, m);
    EXPECT_NEAR(yk.mean(), 0.0, 1e-9);
    EXPECT_NEAR(yk.square().mean(), 1.0, 1e-9);
  }
}

TEST(Reference, RejectsMismatchedSizes) {
  const Shape s{1, 4, 3, 2};
  const Eigen::ArrayXd x = Eigen::ArrayXd::Ones(12), w = Eigen::ArrayXd::Ones(4);
  EXPECT_THROW(reference::backward(s, Eigen::ArrayXd::Ones(11), x, w, 1e-5), std::invalid_argument);
  EXPECT_THROW(reference::backward(s, x, x, Eigen::ArrayXd::Ones(3), 1e-5), std::invalid_argument);
  EXPECT_THROW(reference::group_stats(Shape{1, 4, 3, 3}, x, 1e-5), std::invalid_argument);
}

}  // namespace
}  // namespace gnbench
