#version 450
// EXPERIMENT: the ghost (loads and stores only) with interleaved chunks: slot k of
// subgroup s is chunk k * NUM_SG + s, so at each slot the workgroup reads one contiguous span.
#define PARAMS_BINDING 5
#include "../../kernels/glsl/gn_common.glsl"
layout(std430, set = 0, binding = 0) readonly buffer DyBuf { VT dy_v[]; };
layout(std430, set = 0, binding = 1) readonly buffer XBuf { VT x_v[]; };
layout(std430, set = 0, binding = 2) readonly buffer WBuf { float weight[]; };
layout(std430, set = 0, binding = 3) writeonly buffer DxBuf { VT dx_v[]; };
layout(std430, set = 0, binding = 4) writeonly buffer PartBuf { vec2 part[]; };
void main() {
  const uint C = params.channels, HW = params.spatial, G = params.num_groups;
  const uint CPG = C / G, HWV = HW / VEC;
  const uint J = (HWV + SUBGROUP_SIZE - 1) / SUBGROUP_SIZE;
  const uint ng = linear_workgroup_id();
  if (ng >= params.batch * G) return;
  const uint n = ng / G, g = ng % G;
  const uint Q = CPG * J;
  const uint tile_base = (n * C + g * CPG) * HWV;
  const uint s = gl_SubgroupID, lane = gl_SubgroupInvocationID;
  const float z = uintBitsToFloat(params._pad0);
  VT d[SLOTS], dy[SLOTS];
  uint idx[SLOTS];
  uint valid = 0u;
  [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
    const uint q = k * NUM_SG + s;
    const uint r = q / J, jj = q - r * J;
    const uint hw = jj * SUBGROUP_SIZE + lane;
    idx[k] = tile_base + r * HWV + hw;
    d[k] = VZERO; dy[k] = VZERO;
    if (q < Q && hw < HWV) { d[k] = x_v[idx[k]]; dy[k] = dy_v[idx[k]]; valid |= 1u << k; }
  }
  [[unroll]] for (uint k = 0; k < SLOTS; ++k)
    if (((valid >> k) & 1u) != 0u) dx_v[idx[k]] = (1.0 + z) * ((1.0 + z) * dy[k] - (z + z * (d[k] - z)));
}
