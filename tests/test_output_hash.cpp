// The determinism check's hash: equal outputs hash equal, and any single changed bit, in any
// tensor and at any position (the tail past the last whole word included), changes it.
#include <gtest/gtest.h>

#include <bit>
#include <random>

#include "cli/bench/output_hash.hpp"

namespace gnbench {
namespace {

GpuOutputs random_outputs(std::mt19937_64& rng, Eigen::Index elements, Eigen::Index channels) {
  std::normal_distribution<float> d;
  GpuOutputs o{Eigen::ArrayXf(elements), Eigen::ArrayXf(channels), Eigen::ArrayXf(channels)};
  for (auto* a : {&o.grad_input, &o.grad_weight, &o.grad_bias})
    for (auto& v : *a) v = d(rng);
  return o;
}

TEST(OutputHash, EqualOutputsHashEqualAndEveryBitFlipChangesIt) {
  std::mt19937_64 rng(1);
  for (int t = 0; t < 200; ++t) {
    const Eigen::Index elements = 1 + static_cast<Eigen::Index>(rng() % 5000);
    const Eigen::Index channels = 1 + static_cast<Eigen::Index>(rng() % 70);
    const GpuOutputs a = random_outputs(rng, elements, channels);
    GpuOutputs b = a;
    ASSERT_EQ(output_hash(a), output_hash(b));
    Eigen::ArrayXf* tensors[] = {&b.grad_input, &b.grad_weight, &b.grad_bias};
    Eigen::ArrayXf& target = *tensors[rng() % 3];
    const Eigen::Index at = static_cast<Eigen::Index>(rng() % static_cast<uint64_t>(target.size()));
    target[at] = std::bit_cast<float>(std::bit_cast<uint32_t>(target[at]) ^ (1u << (rng() % 32)));
    EXPECT_NE(output_hash(a), output_hash(b)) << "element " << at << " of " << target.size();
  }
}

TEST(OutputHash, SwappedValuesAndTensorsDiffer) {
  std::mt19937_64 rng(2);
  GpuOutputs a = random_outputs(rng, 64, 8);
  GpuOutputs b = a;
  std::swap(b.grad_input[3], b.grad_input[40]);
  EXPECT_NE(output_hash(a), output_hash(b));
  GpuOutputs c = a;
  std::swap(c.grad_weight, c.grad_bias);
  EXPECT_NE(output_hash(a), output_hash(c));
}

}  // namespace
}  // namespace gnbench
