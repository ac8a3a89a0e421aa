#version 450
// Stage 1 of the gn_sgroup variants: groups far smaller than a workgroup (GroupNorm on
// flattened N x C features, spatial 1, tiny spatial sizes), where the one-workgroup-per-group
// kernels leave most invocations idle and N*G workgroups each pay a workgroup's start-up and
// barriers. Scalar loads: no condition on C or HW alignment.
//  ENTRY_SUBGROUP: one subgroup per (n, group), WG_SIZE / SUBGROUP_SIZE groups per workgroup,
//    the group's M <= SUBGROUP_SIZE * SLOTS elements in registers (lane l holds elements
//    l, l + SUBGROUP, ...: a group is one contiguous range, so the loads are coalesced).
//    Statistics with subgroupAdd only; no workgroup barrier.
//    VEC 4 (the gn_sgroup_v4 builds, M % 4 == 0, so every group starts on 16 bytes): lane l
//    holds the vec4 l, l + SUBGROUP, ...: a quarter of the load, store and bound-test
//    instructions, for the many-small-groups shapes where those, not DRAM, set the time.
//    VEC 2 (the _v2 builds, M % 4 == 2: every group starts on 8 bytes): half of them.
//  ENTRY_WORKGROUP: the same with one workgroup per (n, group) as the team (M <= WG_SIZE * SLOTS
//    * VEC): workgroup sums for the statistics, and the channel sums read from shared memory by
//    WG_SIZE / CPG invocations per channel (at most 32). For groups of short rows (HW up to a few
//    hundred) and many channels, where the on-chip builds' one subgroupAdd per (subgroup, row)
//    segment and their rows padded to whole chunks set the time (run 46c, H100: gn_onchip2_128
//    43 % of copy on 438x736x41/23; one subgroup per group 1.74x faster there, but slow wherever
//    one lane sums a long row alone).
//  ENTRY_LANE: one invocation per (n, group), M <= SLOTS elements, all sums serial (scalar).
// Both write grad_input (3T of traffic) and per-(n, c) partials (rstd * sum dy*(x-mean),
// sum dy), summed over n by gn_dwdb_split.comp.
//
// Numerics as every gn_* variant (docs/performance.md): d = x - K with K the group's first
// element, two-pass statistics (m^ = mean of d, M2 = sum (d - m^)^2), per-channel sums
// centred at m^, grad_input = rstd * (w*dy - (cA + k2 * (d - m^))) with w*dy a `precise`
// product (weighted()), so a one-element group gives exactly 0. Every sum has a fixed order.
#define PARAMS_BINDING 7
#include "gn_common.glsl"
#include "gn_part.glsl"

#ifndef SLOTS
#error "define SLOTS (elements per invocation held in registers)"
#endif

layout(std430, set = 0, binding = 0) readonly restrict buffer DyBuf { VT dy_v[]; };
layout(std430, set = 0, binding = 1) readonly restrict buffer XBuf { VT x_v[]; };
layout(std430, set = 0, binding = 2) readonly restrict buffer WBuf { float weight[]; };
layout(std430, set = 0, binding = 3) writeonly restrict buffer DxBuf { VT dx_v[]; };

#if defined(ENTRY_LANE)
#if VEC != 1
#error "ENTRY_LANE is scalar"
#endif

void main() {
  const uint C = params.channels, HW = params.spatial, G = params.num_groups;
  const uint CPG = C / G, M = CPG * HW;
  const uint ng = linear_workgroup_id() * WG_SIZE + gl_LocalInvocationID.x;
  if (ng >= params.batch * G) return;
  const uint n = ng / G, g = ng % G;
  const uint base = ng * M;  // (n*C + g*CPG) * HW: a group is contiguous
  float d[SLOTS], dy[SLOTS];
  const float K = x_v[base];
  [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
    d[k] = k < M ? x_v[base + k] - K : 0.0;
    dy[k] = k < M ? dy_v[base + k] : 0.0;
  }
  float sd = 0.0;
  [[unroll]] for (uint k = 0; k < SLOTS; ++k) sd += d[k];
  const float mean_t = sd / float(M);
  // Sums of products with explicit fma (the exact product, one rounding per term) on every
  // driver: left to contraction, the H200 build of this loop lost accuracy (GPU-host run 21a,
  // flat_points_128_n65536: 1.06e-3 against 7.4e-4 for the other builds).
  float m2 = 0.0;
  [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
    const float e = k < M ? d[k] - mean_t : 0.0;
    m2 = fma(e, e, m2);
  }
  const float rstd = inversesqrt(m2 / float(M) + uintBitsToFloat(params.eps_bits));
  vec2 wsum = vec2(0.0);
  for (uint c = 0; c < CPG; ++c) {
    vec2 ab = vec2(0.0);
    [[unroll]] for (uint k = 0; k < SLOTS; ++k)
      if (k >= c * HW && k < (c + 1u) * HW) ab = vec2(ab.x + dy[k], fma(dy[k], d[k] - mean_t, ab.y));
    wsum = fma(vec2(weight[g * CPG + c]), ab, wsum);
    store_part(n * C + g * CPG + c, vec2(rstd * ab.y, ab.x));
  }
  const float cA = wsum.x / float(M);
  const float k2 = rstd * rstd * (wsum.y / float(M));
  [[unroll]] for (uint k = 0; k < SLOTS; ++k)
    if (k < M) dx_v[base + k] = rstd * (weighted(weight[g * CPG + k / HW], dy[k]) - (cA + k2 * (d[k] - mean_t)));
}

#else  // ENTRY_SUBGROUP, ENTRY_WORKGROUP: a team of invocations per (n, group)

#ifdef ENTRY_WORKGROUP
#define TEAM WG_SIZE
#define TEAMS 1u
#define TEAM_ID 0u
#define LANE gl_LocalInvocationID.x
DEFINE_WG_SUM(team_sum_d, float, 0.0)
DEFINE_WG_SUM(team_sum_e2, float, 0.0)
DEFINE_WG_SUM(team_sum_w, vec2, vec2(0.0))
#define TEAM_BARRIER() barrier()
// The workgroup sum's own barrier publishes the stores made before it.
#define TEAM_BARRIER_AFTER_SUM()
// Lanes per channel: at most 32, whose pieces one lane then adds in order.
#define P_MAX 32u
#else
#define TEAM SUBGROUP_SIZE
#define TEAMS NUM_SG
#define TEAM_ID gl_SubgroupID
#define LANE gl_SubgroupInvocationID
#define team_sum_d(v) subgroupAdd(v)
#define team_sum_e2(v) subgroupAdd(v)
#define team_sum_w(v) subgroupAdd(v)
#define TEAM_BARRIER()         \
  subgroupMemoryBarrierShared(); \
  subgroupBarrier()
#define TEAM_BARRIER_AFTER_SUM() TEAM_BARRIER()
#define P_MAX SUBGROUP_SIZE
#endif
#define CAP (TEAM * SLOTS)  // VT units per team
// Each team's dy and e = d - m^, so that lanes can sum channels other than their own.
shared VT s_dy[TEAMS * CAP];
shared VT s_e[TEAMS * CAP];
shared vec2 s_ab[WG_SIZE];  // per-lane pieces of channel sums
#if VEC == 4
#define ELEM(a, i) a[(i) >> 2u][(i) & 3u]
#elif VEC == 2
#define ELEM(a, i) a[(i) >> 1u][(i) & 1u]
#else
#define ELEM(a, i) a[i]
#endif

void main() {
  const uint C = params.channels, HW = params.spatial, G = params.num_groups;
  const uint CPG = C / G, M = CPG * HW;
  const uint MV = M / VEC;  // VT units in the group (M % VEC == 0 by the manifest)
  const uint s = TEAM_ID, lane = LANE;
  const uint ng = linear_workgroup_id() * TEAMS + s;
  if (ng >= params.batch * G) return;  // whole teams only: no barrier past a team's return
  const uint n = ng / G, g = ng % G;
  const uint base = ng * MV;
  const uint sbase = s * CAP;
  const float K = K_OF(x_v[base]);
  VT d[SLOTS], dy[SLOTS];
  [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
    const uint i = k * TEAM + lane;
    d[k] = i < MV ? x_v[base + i] - K : VZERO;
    dy[k] = i < MV ? dy_v[base + i] : VZERO;
  }
  VT sd = VZERO;
  [[unroll]] for (uint k = 0; k < SLOTS; ++k) sd += d[k];
  const float mean_t = team_sum_d(hsum(sd)) / float(M);
  VT se2 = VZERO;
  [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
    const uint i = k * TEAM + lane;
    const VT e = i < MV ? d[k] - mean_t : VZERO;
    se2 = fma(e, e, se2);  // explicit fma as in ENTRY_LANE
    if (i < MV) {
      s_dy[sbase + i] = dy[k];
      s_e[sbase + i] = e;
    }
  }
  const float rstd = inversesqrt(team_sum_e2(hsum(se2)) / float(M) + uintBitsToFloat(params.eps_bits));
  TEAM_BARRIER_AFTER_SUM();  // s_dy / s_e written above
  // Channel sums (sum dy, sum dy*e): P lanes per channel, each a contiguous piece of its
  // row, then the channel's first lane adds the P pieces in order.
  const uint P = CPG >= TEAM ? 1u : min(TEAM / CPG, P_MAX);
  const uint CH = TEAM / P;  // channels per round
  const uint p = lane % P;
  const uint h0 = p * HW / P, h1 = (p + 1u) * HW / P;
  const uint ebase = sbase * VEC;  // the team's first element in s_dy / s_e
  vec2 wsum = vec2(0.0);
  for (uint c0 = 0; c0 < CPG; c0 += CH) {  // uniform in the team
    const uint c = c0 + lane / P;
    const bool mine = lane < CH * P && c < CPG;
    vec2 ab = vec2(0.0);
    if (mine)
      for (uint h = h0; h < h1; ++h) {
        const float v = ELEM(s_dy, ebase + c * HW + h);
        ab = vec2(ab.x + v, fma(v, ELEM(s_e, ebase + c * HW + h), ab.y));
      }
    if (P > 1u) {
      s_ab[gl_LocalInvocationID.x] = ab;
      TEAM_BARRIER();
      if (p == 0u) {
        ab = vec2(0.0);
        for (uint j = 0; j < P; ++j) ab += s_ab[gl_LocalInvocationID.x + j];
      }
      TEAM_BARRIER();  // read before the next round writes
    }
    if (mine && p == 0u) {
      wsum = fma(vec2(weight[g * CPG + c]), ab, wsum);
      store_part(n * C + g * CPG + c, vec2(rstd * ab.y, ab.x));
    }
  }
  const vec2 W = team_sum_w(wsum);
  const float cA = W.x / float(M);
  const float k2 = rstd * rstd * (W.y / float(M));
  [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
    const uint i = k * TEAM + lane;
    if (i < MV) {
#if VEC > 1
      // The VEC elements' channels: one division, then a step at each row end (HW >= 1).
      const uint i0 = VEC * i;
      uint c = i0 / HW, next = (c + 1u) * HW;
      VT wv;
      [[unroll]] for (uint j = 0; j < VEC; ++j) {
        if (i0 + j >= next) {
          ++c;
          next += HW;
        }
        wv[j] = weight[g * CPG + c];
      }
      dx_v[base + i] = rstd * (weighted(wv, dy[k]) - (cA + k2 * (d[k] - mean_t)));
#else
      dx_v[base + i] = rstd * (weighted(weight[g * CPG + i / HW], dy[k]) - (cA + k2 * (d[k] - mean_t)));
#endif
    }
  }
}
#endif
