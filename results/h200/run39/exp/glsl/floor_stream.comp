#version 450
#extension GL_EXT_control_flow_attributes : require
// Diagnostic, not a GroupNorm backward: the memory floor of a 3T variant at a problem's size
// under gnbench's own timing. STREAM: grad_input = x + grad_out, each invocation ITEMS vec4
// with all its loads issued before its stores (the pure 3T stream). TAIL: grad_weight and
// grad_bias zeroed, one element per invocation (a second dispatch as small as the dwdb
// stage can be). Fails verification by design; only its time is read.
layout(local_size_x = WG_SIZE) in;
layout(std140, set = 0, binding = PARAMS_BINDING) uniform ParamsBlock {
  uint batch;
  uint channels;
  uint spatial;
  uint num_groups;
  uint eps_bits;
  uint _pad0;
  uint _pad1;
  uint _pad2;
  uvec4 aux_lo;
  uvec4 aux_hi;
} params;
#ifdef STREAM
layout(std430, set = 0, binding = 0) readonly restrict buffer DyBuf { vec4 dy[]; };
layout(std430, set = 0, binding = 1) readonly restrict buffer XBuf { vec4 x[]; };
layout(std430, set = 0, binding = 2) writeonly restrict buffer GiBuf { vec4 gi[]; };
void main() {
  const uint n4 = params.batch * params.channels * params.spatial / 4u;
  const uint wg = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  const uint base = wg * WG_SIZE * ITEMS + gl_LocalInvocationID.x;
  vec4 a[ITEMS], b[ITEMS];
  [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
    const uint i = base + k * WG_SIZE;
    a[k] = i < n4 ? x[i] : vec4(0.0);
    b[k] = i < n4 ? dy[i] : vec4(0.0);
  }
  [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
    const uint i = base + k * WG_SIZE;
    if (i < n4) gi[i] = a[k] + b[k];
  }
}
#else
layout(std430, set = 0, binding = 0) writeonly restrict buffer GwBuf { float gw[]; };
layout(std430, set = 0, binding = 1) writeonly restrict buffer GbBuf { float gb[]; };
void main() {
  const uint c = gl_GlobalInvocationID.x;
  if (c < params.channels) {
    gw[c] = 0.0;
    gb[c] = 0.0;
  }
}
#endif
