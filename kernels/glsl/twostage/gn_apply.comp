#version 450
// Two-dispatch build of the on-chip kernels (kept as measured in H200 run 3; see docs/gpu-log.md).
// Last stage of the gn_* variants.
//  ENTRY_APPLY (gn_fused stage 3): grad_input = rstd*(w*dy - (cA + k2*((x - K) - mean)))
//    with per-(n, c) coefficients from gn_combine.comp, ITEMS VT values per invocation, loads first. The
//    first ceil(C / WG_SIZE) workgroups reduce grad_weight / grad_bias over n instead, so no
//    extra dispatch is needed. Blocks run in reverse order: stage 1 read the tensor
//    front to back, so its tail is what is still in L2 when this stage starts.
//  ENTRY_DWDB (gn_onchip stage 2): only the grad_weight / grad_bias reduction.
// Sums over n run in order n = 0, 1, ...: deterministic.
#if defined(ENTRY_APPLY)
#define PARAMS_BINDING 7
#elif defined(ENTRY_DWDB)
#define PARAMS_BINDING 3
#else
#error "define ENTRY_APPLY or ENTRY_DWDB"
#endif
#include "../gn_common.glsl"

#if defined(ENTRY_APPLY)
layout(std430, set = 0, binding = 0) readonly buffer DyBuf { VT dy_v[]; };
layout(std430, set = 0, binding = 1) readonly buffer XBuf { VT x_v[]; };
layout(std430, set = 0, binding = 2) readonly buffer CoefBuf { vec4 coef[]; };
layout(std430, set = 0, binding = 3) readonly buffer PartBuf { vec2 part[]; };
layout(std430, set = 0, binding = 4) writeonly buffer DxBuf { VT dx_v[]; };
layout(std430, set = 0, binding = 5) writeonly buffer GwBuf { float grad_weight[]; };
layout(std430, set = 0, binding = 6) writeonly buffer GbBuf { float grad_bias[]; };
#ifndef ITEMS
#error "define ITEMS (VT values per invocation)"
#endif
#else
layout(std430, set = 0, binding = 0) readonly buffer PartBuf { vec2 part[]; };
layout(std430, set = 0, binding = 1) writeonly buffer GwBuf { float grad_weight[]; };
layout(std430, set = 0, binding = 2) writeonly buffer GbBuf { float grad_bias[]; };
#endif

// grad_weight[c] = sum_n rstd*B, grad_bias[c] = sum_n A; one invocation per channel.
void reduce_dwdb(uint c) {
  const uint C = params.channels;
  if (c >= C) return;
  // Eight loads in flight per step (a plain loop would wait on each), summed in n order.
  vec2 acc = vec2(0.0);
  for (uint n0 = 0; n0 < params.batch; n0 += 8u) {
    vec2 v[8];
    [[unroll]] for (uint k = 0; k < 8u; ++k) v[k] = n0 + k < params.batch ? part[(n0 + k) * C + c] : vec2(0.0);
    [[unroll]] for (uint k = 0; k < 8u; ++k) acc += v[k];
  }
  grad_weight[c] = acc.x;
  grad_bias[c] = acc.y;
}

void main() {
  const uint C = params.channels;
  const uint ndw = (C + WG_SIZE - 1) / WG_SIZE;
  const uint wg = linear_workgroup_id();
#if defined(ENTRY_DWDB)
  if (wg < ndw) reduce_dwdb(wg * WG_SIZE + gl_LocalInvocationID.x);
#else
  if (wg < ndw) {
    reduce_dwdb(wg * WG_SIZE + gl_LocalInvocationID.x);
    return;
  }
  const uint HWV = params.spatial / VEC;
  const uint total = params.batch * C * HWV;  // VT values
  const uint per_block = WG_SIZE * ITEMS;
  const uint nblk = (total + per_block - 1) / per_block;
  if (wg - ndw >= nblk) return;
  const uint base = (nblk - 1u - (wg - ndw)) * per_block + gl_LocalInvocationID.x;

  VT xs[ITEMS], dys[ITEMS];
  [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
    const uint i = base + k * WG_SIZE;
    if (i < total) {
      xs[k] = x_v[i];
      dys[k] = dy_v[i];
    }
  }
  [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
    const uint i = base + k * WG_SIZE;
    if (i < total) {
      const uint row = i / HWV;  // n*C + c
      const vec4 cf = coef[2u * row], km = coef[2u * row + 1u];  // (w, rstd, cA, k2), (K, mean)
      dx_v[i] = cf.y * (cf.x * dys[k] - (cf.z + cf.w * ((xs[k] - km.x) - km.y)));
    }
  }
#endif
}
