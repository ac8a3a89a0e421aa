#version 450
// Experiment: grad_weight / grad_bias over n with BATCH loads in flight per step.
#define PARAMS_BINDING 3
#include "../../kernels/glsl/gn_common.glsl"
layout(std430, set = 0, binding = 0) readonly restrict buffer PartBuf { vec2 part[]; };
layout(std430, set = 0, binding = 1) writeonly restrict buffer GwBuf { float grad_weight[]; };
layout(std430, set = 0, binding = 2) writeonly restrict buffer GbBuf { float grad_bias[]; };
void main() {
  const uint C = params.channels;
  const uint c = linear_workgroup_id() * WG_SIZE + gl_LocalInvocationID.x;
  if (c >= C) return;
  vec2 acc = vec2(0.0);
  for (uint n0 = 0; n0 < params.batch; n0 += BATCH) {
    vec2 v[BATCH];
    [[unroll]] for (uint k = 0; k < BATCH; ++k) v[k] = n0 + k < params.batch ? part[(n0 + k) * C + c] : vec2(0.0);
    [[unroll]] for (uint k = 0; k < BATCH; ++k) acc += v[k];
  }
  grad_weight[c] = acc.x;
  grad_bias[c] = acc.y;
}
