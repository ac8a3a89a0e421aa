// GroupNorm in float64 with Eigen, written from the math: the CPU reference every GPU
// variant is checked against. No Vulkan, no float32 shortcuts.
#pragma once

#include <Eigen/Core>

#include "base/problem.hpp"
#include "base/tensors.hpp"

namespace gnbench::reference {

// Per-(n, group) statistics from a two-pass mean and variance (biased, as GroupNorm uses).
struct GroupStats {
  Eigen::ArrayXd mean;     // [N * G]
  Eigen::ArrayXd inv_std;  // [N * G], 1 / sqrt(var + eps)
};
GroupStats group_stats(const Shape& shape, const Eigen::ArrayXd& x, double eps);

// y = (x - mean) * inv_std * weight + bias. Used to check the backward by finite differences.
Eigen::ArrayXd forward(const Shape& shape, const Eigen::ArrayXd& x, const Eigen::ArrayXd& weight,
                       const Eigen::ArrayXd& bias, double eps);

// Gradients of sum(grad_out * y) w.r.t. x, weight and bias, statistics recomputed from x.
ReferenceOutputs backward(const Shape& shape, const Eigen::ArrayXd& grad_out,
                          const Eigen::ArrayXd& x, const Eigen::ArrayXd& weight, double eps);

// Convenience: widen the float32 inputs (and eps) exactly and run backward().
ReferenceOutputs backward(const Shape& shape, const Inputs& inputs, float eps);

}  // namespace gnbench::reference
