#version 450
// EXPERIMENT (run 16): one workgroup per (n, group) holds d = x - K on chip, its first XS
// slots in shared memory and the rest in registers, so that a 512-invocation workgroup
// needs few enough registers for two per SM; grad_out is streamed twice (DRAM, then L2),
// DY_BATCH slots at a time.
#define PARAMS_BINDING 5
#include "../../kernels/glsl/gn_common.glsl"
#define QCAP (NUM_SG * SLOTS)
#define RS (SLOTS - XS)
layout(std430, set = 0, binding = 0) readonly buffer DyBuf { VT dy_v[]; };
layout(std430, set = 0, binding = 1) readonly buffer XBuf { VT x_v[]; };
layout(std430, set = 0, binding = 2) readonly buffer WBuf { float weight[]; };
layout(std430, set = 0, binding = 3) writeonly buffer DxBuf { VT dx_v[]; };
layout(std430, set = 0, binding = 4) writeonly buffer PartBuf { vec2 part[]; };
shared vec2 s_seg[QCAP];
shared VT s_x[XS * WG_SIZE];
#define W_CAP (QCAP < 1024 ? QCAP : 1024)
shared float s_w[W_CAP];
DEFINE_WG_SUM(wg_sum_d, float, 0.0)
DEFINE_WG_SUM(wg_sum_e, vec2, vec2(0.0))
DEFINE_WG_SUM(wg_sum_w, vec2, vec2(0.0))
#define XV(k) ((k) < XS ? s_x[(k) * WG_SIZE + gl_LocalInvocationID.x] : d[(k) < XS ? 0 : (k) - XS])

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
  uint valid = 0u;
  VT d[RS];
  {
    // Register slots first (their loads stay in flight while the shared slots are stored).
    uint r = r_start, jj = jj_start;
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      const uint hw = jj * SUBGROUP_SIZE + lane;
      const bool ok = k < KQ && q0 + k < Q && hw < HWV;
      if (ok) valid |= 1u << k;
      if (k >= XS) {
        d[k < XS ? 0 : k - XS] = ok ? x_v[tile_base + r * HWV + hw] - K : VZERO;
      }
      if (++jj == J) { jj = 0u; ++r; }
    }
    r = r_start; jj = jj_start;
    [[unroll]] for (uint k = 0; k < XS; ++k) {
      const uint hw = jj * SUBGROUP_SIZE + lane;
      s_x[k * WG_SIZE + gl_LocalInvocationID.x] = ((valid >> k) & 1u) != 0u ? x_v[tile_base + r * HWV + hw] - K : VZERO;
      if (++jj == J) { jj = 0u; ++r; }
    }
  }
  VT acc = VZERO;
  [[unroll]] for (uint k = 0; k < SLOTS; ++k) acc += XV(k);
  if (gl_LocalInvocationID.x < CPG) s_w[gl_LocalInvocationID.x] = w_pre;
  for (uint rr = gl_LocalInvocationID.x + WG_SIZE; rr < CPG; rr += WG_SIZE) s_w[rr] = weight[g * CPG + rr];
  const float mhat = wg_sum_d(hsum(acc)) / M;

  VT se = VZERO, se2 = VZERO;
  {
    vec2 seg = vec2(0.0);
    uint r = r_start, jj = jj_start, jjp = jj_start, seg_start = q0;
    [[unroll]] for (uint kb = 0; kb < SLOTS; kb += DY_BATCH) {
      VT t[DY_BATCH];
      [[unroll]] for (uint i = 0; i < DY_BATCH; ++i) {
        const uint k = kb + i;
        t[i] = VZERO;
        if (k < SLOTS && ((valid >> k) & 1u) != 0u) t[i] = dy_v[tile_base + r * HWV + jj * SUBGROUP_SIZE + lane];
        if (++jj == J) { jj = 0u; ++r; }
      }
      [[unroll]] for (uint i = 0; i < DY_BATCH; ++i) {
        const uint k = kb + i;
        if (k < SLOTS && k < KQ && q0 + k < Q) {
          const VT e = ((valid >> k) & 1u) != 0u ? XV(k) - mhat : VZERO;
          se += e;
          se2 += e * e;
          seg += vec2(hsum(t[i]), hsum(t[i] * e));
          ++jjp;
          if (jjp == J || k + 1 == KQ || q0 + k + 1 == Q) {
            const vec2 tot = subgroupAdd(seg);
            if (subgroupElect()) s_seg[seg_start] = tot;
            seg = vec2(0.0);
            seg_start = q0 + k + 1;
            if (jjp == J) jjp = 0u;
          }
        }
      }
    }
  }
  const vec2 E = wg_sum_e(vec2(hsum(se), hsum(se2)));
  const float corr = E.x / M;
  const float mean_t = mhat + corr;
  const float m2 = max(E.y - E.x * corr, 0.0);
  const float rstd = inversesqrt(m2 / M + uintBitsToFloat(params.eps_bits));
  vec2 wsum = vec2(0.0);
  for (uint rr = gl_LocalInvocationID.x; rr < CPG; rr += WG_SIZE) {
    vec2 tot = s_seg[rr * J];
    for (uint s2 = (rr * J) / KQ + 1u; s2 < NUM_SG && s2 * KQ < (rr + 1u) * J; ++s2) tot += s_seg[s2 * KQ];
    const float A = tot.x;
    const float B = tot.y - corr * tot.x;
    wsum += s_w[rr] * vec2(A, B);
    part[group_row + rr] = vec2(rstd * B, A);
  }
  const vec2 W = wg_sum_w(wsum);
  const float cA = W.x / M;
  const float k2 = rstd * rstd * (W.y / M);
  {
    uint r = r_start, jj = jj_start, rp = r_start, jjp = jj_start;
    [[unroll]] for (uint kb = 0; kb < SLOTS; kb += DY_BATCH) {
      VT t[DY_BATCH];
      [[unroll]] for (uint i = 0; i < DY_BATCH; ++i) {
        const uint k = kb + i;
        t[i] = VZERO;
        if (k < SLOTS && ((valid >> k) & 1u) != 0u) t[i] = dy_v[tile_base + r * HWV + jj * SUBGROUP_SIZE + lane];
        if (++jj == J) { jj = 0u; ++r; }
      }
      [[unroll]] for (uint i = 0; i < DY_BATCH; ++i) {
        const uint k = kb + i;
        if (k < SLOTS && ((valid >> k) & 1u) != 0u) {
          dx_v[tile_base + rp * HWV + jjp * SUBGROUP_SIZE + lane] = rstd * (s_w[rp] * t[i] - (cA + k2 * (XV(k) - mean_t)));
        }
        if (++jjp == J) { jjp = 0u; ++rp; }
      }
    }
  }
}
