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
};

}  // namespace gnbench
