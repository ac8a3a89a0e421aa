#version 450
// EXPERIMENT (run 16): the 3T elementwise floor: read x and grad_out, write grad_input,
// 2 vec4 per invocation, no statistics (results are wrong on purpose).
#define PARAMS_BINDING 2
#include "../../kernels/glsl/gn_common.glsl"
layout(std430, set = 0, binding = 0) readonly buffer DyBuf { vec4 dy_v[]; };
layout(std430, set = 0, binding = 1) readonly buffer XBuf { vec4 x_v[]; };
layout(std430, set = 0, binding = 3) writeonly buffer DxBuf { vec4 dx_v[]; };
void main() {
  const float z = uintBitsToFloat(params._pad0);
  const uint total = params.batch * params.channels * params.spatial / 4u;
  const uint base = linear_workgroup_id() * WG_SIZE * 2u + gl_LocalInvocationID.x;
  vec4 a[2], b[2];
  [[unroll]] for (uint i = 0; i < 2u; ++i) {
    const uint idx = base + i * WG_SIZE;
    a[i] = idx < total ? dy_v[idx] : vec4(0.0);
    b[i] = idx < total ? x_v[idx] : vec4(0.0);
  }
  [[unroll]] for (uint i = 0; i < 2u; ++i) {
    const uint idx = base + i * WG_SIZE;
    if (idx < total) dx_v[idx] = a[i] * (1.0 + z) - b[i] * z;
  }
}
