// The tensors that flow between stages: float32 inputs and GPU outputs, float64 reference.
#pragma once

#include <Eigen/Core>
#include <cstdint>

namespace gnbench {

// The bit pattern outputs are filled with before every run. A quiet NaN with a payload no
// arithmetic produces, so "never written" is told apart from "computed NaN".
inline constexpr uint32_t kPoisonBits = 0x7FC0DEADu;

// Inputs exactly as the GPU sees them (float32). x and grad_out are [N, C, HW].
struct Inputs {
  Eigen::ArrayXf x;
  Eigen::ArrayXf grad_out;
  Eigen::ArrayXf weight;  // [C]
};

// What a kernel variant wrote (float32).
struct GpuOutputs {
  Eigen::ArrayXf grad_input;   // [N, C, HW]
  Eigen::ArrayXf grad_weight;  // [C]
  Eigen::ArrayXf grad_bias;    // [C]
};

// The float64 reference gradients.
struct ReferenceOutputs {
  Eigen::ArrayXd grad_input;
  Eigen::ArrayXd grad_weight;
  Eigen::ArrayXd grad_bias;
  // [N * G] rstd * rms(weight * grad_out) over each (n, group): the size of the terms whose
  // difference grad_input is. Where they cancel (groups of two elements, eps far below the
  // variance, grad_out aligned with xhat) grad_input is a small residual and float32 can only
  // be judged against this scale, not against the residual itself.
  Eigen::ArrayXd grad_input_scale;
  // rms over channels of the l2 norm of each channel's terms (dy * xhat over n and hw for
  // grad_weight, dy for grad_bias): the size of what each sum adds up. Where the terms cancel
  // (one channel, a few samples) the sum is a residual far below them, and float32 summation
  // can only be judged against this scale (run-30 tests: grad_weight of 7x1x53 at 1.1e-4 of
  // itself, 2.5e-7 of its terms).
  double grad_weight_scale = 0;
  double grad_bias_scale = 0;
};

}  // namespace gnbench
