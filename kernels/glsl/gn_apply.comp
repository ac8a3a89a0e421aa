#version 450
// Last stage of the gn_* variants.
//  ENTRY_APPLY (gn_fused stage 3): grad_input = rstd*(w*dy - (cA + k2*((x - K) - mean)))
//    with per-(n, c) coefficients from gn_combine.comp, ITEMS VT values per invocation, loads first. The
//    first ceil(C / WG_SIZE) workgroups reduce grad_weight / grad_bias over n instead, so no
//    extra dispatch is needed. Blocks run in reverse order: stage 1 read the tensor
//    front to back, so its tail is what is still in L2 when this stage starts.
// Sums over n run in order n = 0, 1, ...: deterministic.
// (A reduction-only entry served gn_onchip2 until run 31; it now uses gn_dwdb_split.comp.)
#if !defined(ENTRY_APPLY)
#error "define ENTRY_APPLY"
#endif
#define PARAMS_BINDING 7
#include "gn_common.glsl"

layout(std430, set = 0, binding = 0) readonly restrict buffer DyBuf { VT dy_v[]; };
layout(std430, set = 0, binding = 1) readonly restrict buffer XBuf { VT x_v[]; };
layout(std430, set = 0, binding = 2) readonly restrict buffer CoefBuf { vec4 coef[]; };
layout(std430, set = 0, binding = 3) readonly restrict buffer PartBuf { vec2 part[]; };
layout(std430, set = 0, binding = 4) writeonly restrict buffer DxBuf { VT dx_v[]; };
layout(std430, set = 0, binding = 5) writeonly restrict buffer GwBuf { float grad_weight[]; };
layout(std430, set = 0, binding = 6) writeonly restrict buffer GbBuf { float grad_bias[]; };
#ifndef ITEMS
#error "define ITEMS (VT values per invocation)"
#endif

#include "gn_dwdb.glsl"

void main() {
  const uint C = params.channels;
  const uint ndw = (C + WG_SIZE - 1) / WG_SIZE;
  const uint wg = linear_workgroup_id();
  if (wg < ndw) {
    if (wg * WG_SIZE + gl_LocalInvocationID.x < C) reduce_dwdb(wg * WG_SIZE + gl_LocalInvocationID.x);
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
      dx_v[i] = cf.y * (weighted(cf.x, dys[k]) - (cf.z + cf.w * ((xs[k] - km.x) - km.y)));
    }
  }
}
