// Reference-free checks on GPU GroupNorm-backward outputs: identities every correct grad_input
// and grad_bias satisfy, evaluated in float64 from the inputs. They are necessary, not
// sufficient (an all-zero grad_input satisfies both grad_input identities), and complement the
// comparison against the reference in metrics.hpp.
#pragma once

#include <string>

#include "base/problem.hpp"
#include "base/tensors.hpp"

namespace gnbench {

// Same default as TensorTolerance::max_scaled: a kernel within that tolerance of the reference
// cannot violate the invariants by more (see invariants.cpp).
inline constexpr double kDefaultInvariantTolerance = 1e-3;

struct InvariantResult {
  bool pass = false;
  // Each is the worst over its (n, group) blocks or channels, dimensionless, after a float32
  // rounding allowance; pass needs all <= tolerance. +inf where the GPU output holds NaN/Inf
  // (poison included). dx = grad_input of one (n, group), M its size:
  // with ||dx|| raised to rstd * ||weight * grad_out|| where dx is a cancellation residual:
  double worst_sum_violation = 0;   // |sum(dx)| / sqrt(M) / ||dx||
  double worst_xhat_violation = 0;  // |sum(dx * xhat) - exact| / ||xhat|| / ||dx||
  double worst_bias_violation = 0;  // |grad_bias[c] - sum grad_out[:, c, :]| / rms over c of sums
  std::string failure;  // empty when pass; else one line naming the check, (n, group) or c
};

// Checks per (n, group) with M = channels_per_group * spatial elements, statistics in float64
// (two-pass, biased variance, eps widened exactly):
//   sum(grad_input) = 0                        (GroupNorm is invariant to shifting x)
//   sum(grad_input * xhat) = eps * rstd^3 * sum(weight * grad_out * xhat)
//                                              (0 when eps = 0: invariance to scaling x)
// and per channel grad_bias[c] = sum over (n, hw) of grad_out.
// Throws std::invalid_argument when the tensor sizes do not match the shape.
InvariantResult check_invariants(const Shape& shape, const Inputs& inputs, float eps,
                                 const GpuOutputs& gpu,
                                 double tolerance = kDefaultInvariantTolerance);

}  // namespace gnbench
