#version 450
// Writes zeros to every output through the standard six bindings (0-4 storage, 5 uniform).
layout(local_size_x = WG_SIZE) in;
layout(std430, set = 0, binding = 0) readonly buffer GradOut { float grad_out[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 2) readonly buffer Weight { float weight[]; };
layout(std430, set = 0, binding = 3) buffer GradInput { float grad_input[]; };
layout(std430, set = 0, binding = 4) buffer GradWeightBias { float grad_weight_bias[]; };
layout(std140, set = 0, binding = 5) uniform Params { uint batch, channels, spatial, groups; } params;
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint elements = params.batch * params.channels * params.spatial;
  if (i < elements) grad_input[i] = 0.0 * grad_out[i] * x[i];
  if (i < 2 * params.channels) grad_weight_bias[i] = 0.0 * weight[i % params.channels];
}
