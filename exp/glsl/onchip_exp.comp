#version 450
// EXPERIMENT (run 16): gn_onchip2.comp with
//  GHOST 1   loads and stores of the real kernel, no reductions (coefficients from params, 0)
//  XFIRST 1  every x load issued before the first grad_out load
//  XFIRST 2  as 1, and statistics from d alone before the grad_out sums (one more barrier)
#define PARAMS_BINDING 5
#include "../../kernels/glsl/gn_common.glsl"
#ifndef GHOST
#define GHOST 0
#endif
#ifndef XFIRST
#define XFIRST 0
#endif
#define QCAP (NUM_SG * SLOTS)
layout(std430, set = 0, binding = 0) readonly buffer DyBuf { VT dy_v[]; };
layout(std430, set = 0, binding = 1) readonly buffer XBuf { VT x_v[]; };
layout(std430, set = 0, binding = 2) readonly buffer WBuf { float weight[]; };
layout(std430, set = 0, binding = 3) writeonly buffer DxBuf { VT dx_v[]; };
layout(std430, set = 0, binding = 4) writeonly buffer PartBuf { vec2 part[]; };
shared vec2 s_seg[QCAP];
#ifndef DY_SHARED
#define DY_SHARED 0
#endif
#if DY_SHARED > 0
shared VT s_dy[DY_SHARED * WG_SIZE];
#define DY(k) ((k) < DY_SHARED ? s_dy[(k) * WG_SIZE + gl_LocalInvocationID.x] : dy[k])
#else
#define DY(k) dy[k]
#endif
#define W_CAP (QCAP < 1024 ? QCAP : 1024)
shared float s_w[W_CAP];
DEFINE_WG_SUM(wg_sum_d, float, 0.0)
DEFINE_WG_SUM(wg_sum_e, vec2, vec2(0.0))
DEFINE_WG_SUM(wg_sum_w, vec2, vec2(0.0))

void main() {
  const uint C = params.channels, HW = params.spatial, G = params.num_groups;
  const uint CPG = C / G;
  const uint HWV = HW / VEC;
  const uint cpr = (HWV + SUBGROUP_SIZE - 1) / SUBGROUP_SIZE;
  const uint ng = linear_workgroup_id();
  if (ng >= params.batch * G) return;
  const uint n = ng / G, g = ng % G;
  const uint J = cpr;
  const uint Q = CPG * J;
  const float M = float(CPG * HW);
  const uint group_row = n * C + g * CPG;
  const uint tile_base = group_row * HWV;
  const float w_pre = gl_LocalInvocationID.x < CPG ? weight[g * CPG + gl_LocalInvocationID.x] : 0.0;
#if VEC == 4
  const float K = x_v[group_row * HWV].x;
#else
  const float K = x_v[group_row * HWV];
#endif
  const uint s = gl_SubgroupID, lane = gl_SubgroupInvocationID;
  const uint KQ = (Q + NUM_SG - 1) / NUM_SG;
  const uint q0 = s * KQ;
  const uint r_start = q0 / J, jj_start = q0 - r_start * J;
  VT d[SLOTS], dy[SLOTS];
  uint valid = 0u;
  {
    uint r = r_start, jj = jj_start;
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      const uint hw = jj * SUBGROUP_SIZE + lane;
      const bool ok = k < KQ && q0 + k < Q && hw < HWV;
      d[k] = VZERO;
#if !XFIRST
      dy[k] = VZERO;
#endif
      if (ok) {
        const uint idx = tile_base + r * HWV + hw;
        d[k] = x_v[idx] - K;
#if !XFIRST
        dy[k] = dy_v[idx];
#endif
        valid |= 1u << k;
      }
      if (++jj == J) { jj = 0u; ++r; }
    }
#if XFIRST
    r = r_start; jj = jj_start;
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      dy[k] = VZERO;
      if (((valid >> k) & 1u) != 0u) dy[k] = dy_v[tile_base + r * HWV + jj * SUBGROUP_SIZE + lane];
      if (++jj == J) { jj = 0u; ++r; }
    }
#endif
  }
#if DY_SHARED > 0
  [[unroll]] for (uint k = 0; k < DY_SHARED; ++k) s_dy[k * WG_SIZE + gl_LocalInvocationID.x] = dy[k];
#endif
#if GHOST
  const float z = uintBitsToFloat(params._pad0);
  const float mean_t = z, rstd = 1.0 + z, cA = z, k2 = z;
  {
    uint r = r_start, jj = jj_start;
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      if (((valid >> k) & 1u) != 0u) {
        const uint hw = jj * SUBGROUP_SIZE + lane;
        const float w = w_pre + z;
        dx_v[tile_base + r * HWV + hw] = rstd * (w * DY(k) - (cA + k2 * (d[k] - mean_t)));
      }
      if (++jj == J) { jj = 0u; ++r; }
    }
  }
#else
  VT acc = VZERO;
  [[unroll]] for (uint k = 0; k < SLOTS; ++k) acc += d[k];
  if (gl_LocalInvocationID.x < CPG) s_w[gl_LocalInvocationID.x] = w_pre;
  for (uint rr = gl_LocalInvocationID.x + WG_SIZE; rr < CPG; rr += WG_SIZE) s_w[rr] = weight[g * CPG + rr];
  const float mhat = wg_sum_d(hsum(acc)) / M;
  {
#if XFIRST == 2
    VT se = VZERO, se2 = VZERO;
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      const VT e = ((valid >> k) & 1u) != 0u ? d[k] - mhat : VZERO;
      se += e;
      se2 += e * e;
    }
    const vec2 E = wg_sum_e(vec2(hsum(se), hsum(se2)));
    const float corr = E.x / M;
    const float mean_t = mhat + corr;
    const float m2 = max(E.y - E.x * corr, 0.0);
    const float rstd = inversesqrt(m2 / M + uintBitsToFloat(params.eps_bits));
    vec2 seg = vec2(0.0);
    uint jj = jj_start, seg_start = q0;
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      if (k < KQ && q0 + k < Q) {
        const VT e = ((valid >> k) & 1u) != 0u ? d[k] - mean_t : VZERO;
        seg += vec2(hsum(DY(k)), hsum(DY(k) * e));
        ++jj;
        if (jj == J || k + 1 == KQ || q0 + k + 1 == Q) {
          const vec2 tot = subgroupAdd(seg);
          if (subgroupElect()) s_seg[seg_start] = tot;
          seg = vec2(0.0);
          seg_start = q0 + k + 1;
          if (jj == J) jj = 0u;
        }
      }
    }
    barrier();
    const float corr_b = 0.0;
#else
    VT se = VZERO, se2 = VZERO;
    vec2 seg = vec2(0.0);
    uint jj = jj_start, seg_start = q0;
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      if (k < KQ && q0 + k < Q) {
        const VT e = ((valid >> k) & 1u) != 0u ? d[k] - mhat : VZERO;
        se += e;
        se2 += e * e;
        seg += vec2(hsum(DY(k)), hsum(DY(k) * e));
        ++jj;
        if (jj == J || k + 1 == KQ || q0 + k + 1 == Q) {
          const vec2 tot = subgroupAdd(seg);
          if (subgroupElect()) s_seg[seg_start] = tot;
          seg = vec2(0.0);
          seg_start = q0 + k + 1;
          if (jj == J) jj = 0u;
        }
      }
    }
    const vec2 E = wg_sum_e(vec2(hsum(se), hsum(se2)));
    const float corr = E.x / M;
    const float mean_t = mhat + corr;
    const float m2 = max(E.y - E.x * corr, 0.0);
    const float rstd = inversesqrt(m2 / M + uintBitsToFloat(params.eps_bits));
    const float corr_b = corr;
#endif
    vec2 wsum = vec2(0.0);
    for (uint rr = gl_LocalInvocationID.x; rr < CPG; rr += WG_SIZE) {
      vec2 tot = s_seg[rr * J];
      for (uint s2 = (rr * J) / KQ + 1u; s2 < NUM_SG && s2 * KQ < (rr + 1u) * J; ++s2) tot += s_seg[s2 * KQ];
      const float A = tot.x;
      const float B = tot.y - corr_b * tot.x;
      wsum += s_w[rr] * vec2(A, B);
      part[group_row + rr] = vec2(rstd * B, A);
    }
    const vec2 W = wg_sum_w(wsum);
    const float cA = W.x / M;
    const float k2 = rstd * rstd * (W.y / M);
    uint r = r_start;
    jj = jj_start;
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      if (((valid >> k) & 1u) != 0u) {
        const uint hw = jj * SUBGROUP_SIZE + lane;
        const float w = s_w[r];
        dx_v[tile_base + r * HWV + hw] = rstd * (w * DY(k) - (cA + k2 * (d[k] - mean_t)));
      }
      if (++jj == J) { jj = 0u; ++r; }
    }
  }
#endif
}
