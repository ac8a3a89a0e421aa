#version 450
// Last stage of the gn_* variants.
//  ENTRY_APPLY (gn_fused stage 3): grad_input = rstd*(w*dy - (cA + k2*((x - K) - mean)))
//    with per-(n, c) coefficients from gn_combine.comp, ITEMS VT values per invocation, loads first. The
//    first ceil(C / WG_SIZE) workgroups reduce grad_weight / grad_bias over n instead, so no
//    extra dispatch is needed. Blocks run in reverse order: stage 1 read the tensor
//    front to back, so its tail is what is still in L2 when this stage starts.
//  MASKED (VEC 4, the gn_fused_rp builds: HW % 4 != 0): the flat tensor read as vec4, rows
//    not on 16-byte boundaries notwithstanding; a vec4 that straddles two rows takes each
//    element's own row coefficients, and the tensor's partial last vec4 is read and written
//    per element (gn_masked.glsl).
// Sums over n run in order n = 0, 1, ...: deterministic.
// (A reduction-only entry served gn_onchip2 until run 31; it now uses gn_dwdb_split.comp.)
#if !defined(ENTRY_APPLY)
#error "define ENTRY_APPLY"
#endif
#define PARAMS_BINDING 7
#include "gn_common.glsl"
#ifdef MASKED
#include "gn_masked.glsl"
#endif

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
#ifdef MASKED
  const uint HW = params.spatial;
  const uint E = params.batch * C * HW;
  const uint total = (E + 3u) / 4u;  // vec4, the last one partial when E % 4 != 0
#else
  const uint HWV = params.spatial / VEC;
  const uint total = params.batch * C * HWV;  // VT values
#endif
  const uint per_block = WG_SIZE * ITEMS;
  const uint nblk = (total + per_block - 1) / per_block;
  if (wg - ndw >= nblk) return;
  const uint base = (nblk - 1u - (wg - ndw)) * per_block + gl_LocalInvocationID.x;

  VT xs[ITEMS], dys[ITEMS];
  [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
    const uint i = base + k * WG_SIZE;
    if (i < total) {
#ifdef MASKED
      LOAD_VEC4_BOUNDED(xs[k], x_v, i, E)
      LOAD_VEC4_BOUNDED(dys[k], dy_v, i, E)
#else
      xs[k] = x_v[i];
      dys[k] = dy_v[i];
#endif
    }
  }
  [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
    const uint i = base + k * WG_SIZE;
#ifdef MASKED
    if (i < total) {
      const uint row = (4u * i) / HW;  // n*C + c of the first element
      const uint last = min(4u * i + 3u, E - 1u);
      vec4 g;
      if (last < (row + 1u) * HW) {  // one row: one set of coefficients
        const vec4 cf = coef[2u * row], km = coef[2u * row + 1u];
        g = cf.y * (weighted(cf.x, dys[k]) - (cf.z + cf.w * ((xs[k] - km.x) - km.y)));
      } else {
        for (uint c = 0u; c < 4u; ++c) {
          const uint r = min(4u * i + c, E - 1u) / HW;  // a component past the end: any row
          const vec4 cf = coef[2u * r], km = coef[2u * r + 1u];
          precise float p = cf.x * dys[k][c];  // w*dy rounded on its own, as weighted()
          g[c] = cf.y * (p - (cf.z + cf.w * ((xs[k][c] - km.x) - km.y)));
        }
      }
      STORE_VEC4_MASKED(dx_v, i, g, lessThan(uvec4(4u * i) + uvec4(0u, 1u, 2u, 3u), uvec4(E)))
    }
#else
    if (i < total) {
      const uint row = i / HWV;  // n*C + c
      const vec4 cf = coef[2u * row], km = coef[2u * row + 1u];  // (w, rstd, cA, k2), (K, mean)
      dx_v[i] = cf.y * (weighted(cf.x, dys[k]) - (cf.z + cf.w * ((xs[k] - km.x) - km.y)));
    }
#endif
  }
}
