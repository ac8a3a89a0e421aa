#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>

#include "cli/verify/metrics.hpp"

namespace gnbench {
namespace {

// Reference values are arbitrary: the metrics do not care about GroupNorm semantics. They are
// float32-representable so the "exact" GPU output is bit-for-bit the reference.
class VerifyMetrics : public ::testing::Test {
 protected:
  void SetUp() override {
    shape.batch = 2;
    shape.channels = 8;
    shape.spatial = 16;
    shape.groups = 4;  // 2 channels per group, 32 elements per (n, group)
    std::mt19937_64 rng(42);
    std::normal_distribution<float> normal;
    const auto draw = [&](Eigen::Index n) {
      Eigen::ArrayXf a(n);
      for (auto& v : a) v = normal(rng);
      return a;
    };
    exact.grad_input = draw(shape.elements());
    exact.grad_weight = draw(shape.channels);
    exact.grad_bias = draw(shape.channels);
    ref.grad_input = exact.grad_input.cast<double>();
    ref.grad_weight = exact.grad_weight.cast<double>();
    ref.grad_bias = exact.grad_bias.cast<double>();
  }

  static Eigen::Index index(const Shape& s, int64_t n, int64_t c, int64_t hw) {
    return (n * s.channels + c) * s.spatial + hw;
  }
  TensorMetrics input_metrics(const Eigen::ArrayXf& gpu) const {
    return measure_tensor("grad_input", shape, gpu, ref.grad_input, tolerances.grad_input);
  }
  static float poison() { return std::bit_cast<float>(kPoisonBits); }

  Shape shape;
  GpuOutputs exact;
  ReferenceOutputs ref;
  Tolerances tolerances;
};

TEST_F(VerifyMetrics, ExactOutputsPassWithZeroError) {
  const VerificationResult r = verify(shape, exact, ref, tolerances);
  EXPECT_TRUE(r.pass);
  EXPECT_EQ(r.summary(), "ok");
  ASSERT_EQ(r.tensors.size(), 3u);
  EXPECT_EQ(r.tensors[0].tensor, "grad_input");
  EXPECT_EQ(r.tensors[1].tensor, "grad_weight");
  EXPECT_EQ(r.tensors[2].tensor, "grad_bias");
  for (const auto& t : r.tensors) {
    EXPECT_TRUE(t.pass) << t.failure;
    EXPECT_TRUE(t.failure.empty());
    EXPECT_EQ(t.max_abs, 0.0);
    EXPECT_EQ(t.max_rel, 0.0);
    EXPECT_EQ(t.l2_rel, 0.0);
    EXPECT_EQ(t.max_scaled, 0.0);
    EXPECT_EQ(t.unwritten, 0u);
    EXPECT_EQ(t.nonfinite, 0u);
  }
  EXPECT_EQ(r.tensors[0].elements, shape.elements());
  EXPECT_EQ(r.tensors[1].elements, shape.channels);
}

TEST_F(VerifyMetrics, AllZerosFailsOnL2AndMaxScaled) {
  const TensorMetrics m = input_metrics(Eigen::ArrayXf::Zero(shape.elements()));
  EXPECT_FALSE(m.pass);
  EXPECT_DOUBLE_EQ(m.l2_rel, 1.0);
  EXPECT_GT(m.l2_rel, tolerances.grad_input.l2_rel);
  EXPECT_GE(m.max_scaled, 1.0);
  EXPECT_NE(m.failure.find("grad_input: max scaled error"), std::string::npos) << m.failure;
}

TEST_F(VerifyMetrics, ConstantOutputFails) {
  const float mean = static_cast<float>(ref.grad_input.mean());
  const TensorMetrics m = input_metrics(Eigen::ArrayXf::Constant(shape.elements(), mean));
  EXPECT_FALSE(m.pass);
  EXPECT_GT(m.l2_rel, 0.5);
  EXPECT_GT(m.max_scaled, 1.0);
}

TEST_F(VerifyMetrics, PerturbedElementIsLocated) {
  Eigen::ArrayXf gpu = exact.grad_input;
  const Eigen::Index i = index(shape, 1, 5, 7);
  gpu(i) += 0.01f;
  const TensorMetrics m = input_metrics(gpu);
  EXPECT_FALSE(m.pass);
  EXPECT_EQ(m.worst.n, 1);
  EXPECT_EQ(m.worst.c, 5);
  EXPECT_EQ(m.worst.hw, 7);
  EXPECT_EQ(m.worst_gpu, gpu(i));
  EXPECT_EQ(m.worst_ref, ref.grad_input(i));
  EXPECT_NEAR(m.max_abs, 0.01, 1e-6);
  EXPECT_NE(m.failure.find("at (n=1, c=5, hw=7): gpu "), std::string::npos) << m.failure;
  EXPECT_NE(m.failure.find("> 1.0e-03"), std::string::npos) << m.failure;
}

TEST_F(VerifyMetrics, PerturbedChannelIsLocated) {
  GpuOutputs gpu = exact;
  gpu.grad_weight(6) += 0.05f;
  const VerificationResult r = verify(shape, gpu, ref, tolerances);
  EXPECT_FALSE(r.pass);
  EXPECT_TRUE(r.tensors[0].pass);
  EXPECT_FALSE(r.tensors[1].pass);
  EXPECT_EQ(r.tensors[1].worst.c, 6);
  EXPECT_EQ(r.tensors[1].worst.n, -1);
  EXPECT_EQ(r.tensors[1].worst.hw, -1);
  EXPECT_EQ(r.summary().rfind("grad_weight: max scaled error ", 0), 0u) << r.summary();
  EXPECT_NE(r.summary().find("at (c=6)"), std::string::npos) << r.summary();
}

TEST_F(VerifyMetrics, SmallSpreadErrorFailsOnL2Only) {
  // 2e-4 of every element: under max_scaled 1e-3, over l2_rel 1e-4.
  const Eigen::ArrayXf gpu = (ref.grad_input * (1 + 2e-4)).cast<float>();
  const TensorMetrics m = input_metrics(gpu);
  EXPECT_FALSE(m.pass);
  EXPECT_LE(m.max_scaled, tolerances.grad_input.max_scaled);
  EXPECT_NEAR(m.l2_rel, 2e-4, 1e-6);
  EXPECT_EQ(m.failure.rfind("grad_input: l2 relative error 2.0e-04 > 1.0e-04", 0), 0u) << m.failure;
}

TEST_F(VerifyMetrics, UnwrittenPoisonIsCountedAndLocated) {
  Eigen::ArrayXf gpu = exact.grad_input;
  gpu(index(shape, 0, 3, 15)) = poison();
  gpu(index(shape, 1, 0, 0)) = poison();
  gpu(index(shape, 1, 7, 2)) = poison();
  const TensorMetrics m = input_metrics(gpu);
  EXPECT_FALSE(m.pass);
  EXPECT_EQ(m.unwritten, 3u);
  EXPECT_EQ(m.nonfinite, 0u);
  EXPECT_EQ(m.worst.str(), "(n=0, c=3, hw=15)");
  EXPECT_EQ(m.failure, "grad_input: 3 elements unwritten, first at (n=0, c=3, hw=15)");
  // The rest is exact, and the poison must not leak NaN into the norms.
  EXPECT_EQ(m.max_abs, 0.0);
  EXPECT_EQ(m.max_rel, 0.0);
  EXPECT_EQ(m.l2_rel, 0.0);
  EXPECT_EQ(m.max_scaled, 0.0);
}

TEST_F(VerifyMetrics, ComputedNanIsNonfiniteNotUnwritten) {
  Eigen::ArrayXf gpu = exact.grad_input;
  gpu(index(shape, 0, 1, 4)) = std::numeric_limits<float>::quiet_NaN();
  gpu(index(shape, 1, 2, 3)) = std::numeric_limits<float>::infinity();
  gpu(index(shape, 1, 6, 9)) += 0.001f;  // a finite error still measured alongside
  const TensorMetrics m = input_metrics(gpu);
  EXPECT_FALSE(m.pass);
  EXPECT_EQ(m.nonfinite, 2u);
  EXPECT_EQ(m.unwritten, 0u);
  EXPECT_EQ(m.worst.str(), "(n=0, c=1, hw=4)");
  EXPECT_TRUE(std::isfinite(m.max_abs));
  EXPECT_TRUE(std::isfinite(m.l2_rel));
  EXPECT_TRUE(std::isfinite(m.max_scaled));
  EXPECT_NEAR(m.max_abs, 0.001, 1e-6);
  EXPECT_EQ(m.failure.rfind("grad_input: 2 elements NaN/Inf, first at (n=0, c=1, hw=4)", 0), 0u)
      << m.failure;
}

TEST_F(VerifyMetrics, UnwrittenIsReportedBeforeNonfinite) {
  Eigen::ArrayXf gpu = exact.grad_input;
  gpu(index(shape, 0, 0, 1)) = std::numeric_limits<float>::quiet_NaN();
  gpu(index(shape, 1, 4, 4)) = poison();
  const TensorMetrics m = input_metrics(gpu);
  EXPECT_EQ(m.unwritten, 1u);
  EXPECT_EQ(m.nonfinite, 1u);
  EXPECT_EQ(m.worst.str(), "(n=1, c=4, hw=4)");
  EXPECT_EQ(m.failure.rfind("grad_input: 1 elements unwritten", 0), 0u) << m.failure;
}

TEST_F(VerifyMetrics, SwappedWeightAndBiasFail) {
  GpuOutputs gpu = exact;
  std::swap(gpu.grad_weight, gpu.grad_bias);
  const VerificationResult r = verify(shape, gpu, ref, tolerances);
  EXPECT_FALSE(r.pass);
  EXPECT_TRUE(r.tensors[0].pass);
  EXPECT_FALSE(r.tensors[1].pass);
  EXPECT_FALSE(r.tensors[2].pass);
  EXPECT_EQ(r.summary().rfind("grad_weight: ", 0), 0u) << r.summary();
}

TEST_F(VerifyMetrics, TinyRelativeNoisePasses) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> normal;
  GpuOutputs gpu;
  const auto noisy = [&](const Eigen::ArrayXd& r) {
    Eigen::ArrayXf out(r.size());
    for (Eigen::Index i = 0; i < r.size(); ++i)
      out(i) = static_cast<float>(r(i) * (1 + 1e-7 * normal(rng)));
    return out;
  };
  gpu.grad_input = noisy(ref.grad_input);
  gpu.grad_weight = noisy(ref.grad_weight);
  gpu.grad_bias = noisy(ref.grad_bias);
  const VerificationResult r = verify(shape, gpu, ref, tolerances);
  EXPECT_TRUE(r.pass) << r.summary();
  EXPECT_GT(r.tensors[0].max_abs, 0.0);
}

TEST_F(VerifyMetrics, TinyGroupStillCatchesWrongValue) {
  // Group (n=1, group=2) = channels 4..5 of batch 1: its gradients are a millionth of the rest.
  const Eigen::Index start = index(shape, 1, 4, 0), size = shape.group_size();
  ref.grad_input.segment(start, size) *= 1e-6;
  Eigen::ArrayXf gpu = ref.grad_input.cast<float>();
  ref.grad_input = gpu.cast<double>();
  ASSERT_TRUE(input_metrics(gpu).pass);

  const double group_rms = std::sqrt(ref.grad_input.segment(start, size).square().mean());
  const Eigen::Index i = index(shape, 1, 5, 11);
  gpu(i) += static_cast<float>(0.01 * group_rms);
  const TensorMetrics m = input_metrics(gpu);
  EXPECT_LT(m.l2_rel, tolerances.grad_input.l2_rel);  // invisible to the tensor-wide norm
  EXPECT_FALSE(m.pass);
  EXPECT_NEAR(m.max_scaled, 0.01, 1e-4);
  EXPECT_EQ(m.worst.str(), "(n=1, c=5, hw=11)");
}

TEST_F(VerifyMetrics, ZeroReferenceJudgesAbsoluteValues) {
  ref.grad_input.setZero();
  EXPECT_TRUE(input_metrics(Eigen::ArrayXf::Zero(shape.elements())).pass);
  Eigen::ArrayXf gpu = Eigen::ArrayXf::Zero(shape.elements());
  gpu(3) = 1e-20f;
  const TensorMetrics m = input_metrics(gpu);
  EXPECT_FALSE(m.pass);
  EXPECT_TRUE(std::isfinite(m.max_scaled));
  EXPECT_TRUE(std::isfinite(m.max_rel));
  EXPECT_FLOAT_EQ(m.l2_rel, 1e-20f);
}

TEST_F(VerifyMetrics, SizeMismatchFails) {
  const TensorMetrics m = input_metrics(Eigen::ArrayXf::Zero(shape.elements() - 1));
  EXPECT_FALSE(m.pass);
  EXPECT_FALSE(m.failure.empty());
}

TEST(VerifyMetricsLocation, Strings) {
  EXPECT_EQ((ElementLocation{1, 7, 33}).str(), "(n=1, c=7, hw=33)");
  EXPECT_EQ((ElementLocation{-1, 7, -1}).str(), "(c=7)");
}

}  // namespace
}  // namespace gnbench
