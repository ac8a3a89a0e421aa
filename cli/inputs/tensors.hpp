// The tensors that flow between stages: float32 inputs and GPU outputs, float64 reference.
#pragma once

#include <Eigen/Core>

namespace gnbench {

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
};

}  // namespace gnbench
