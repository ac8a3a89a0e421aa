#version 450
// The gn_gmajor_sg variants: one dispatch, group-major. A workgroup owns one group g over
// the whole batch, so it sees every (n, c) partial of its channels and writes grad_weight /
// grad_bias itself: no second dispatch, no cross-workgroup counter or fence (both measured
// a fixed cost of 3-4 us on the H200, gpu-log run 24, which dominates small problems).
// Subgroup s takes the samples n = s, s + NUM_SG, ... of the group in turn, each held in
// registers (M <= SUBGROUP_SIZE * SLOTS, lane l holding elements l, l + SUBGROUP, ...: a
// group is one contiguous range, so the loads are coalesced for any C and HW). With
// PREFETCH the next sample's loads are issued before the current one is reduced.
//
// Per sample the arithmetic is gn_sgroup.comp's ENTRY_SUBGROUP: d = x - K with K the
// (n, g)'s first element, two-pass statistics with subgroupAdd, channel sums (sum dy,
// sum dy*e) by P lanes per channel through shared memory, grad_input =
// rstd * (w*dy - (cA + k2 * e)) with w*dy a `precise` product. The lane that forms channel
// c's sums for one sample forms them for every sample (the mapping depends on CPG and HW
// only), so it keeps (sum_n rstd*B, sum_n A) in registers; at the end the subgroups' totals
// are added in subgroup order. Every sum has a fixed order: bitwise reproducible.
#define PARAMS_BINDING 6
#include "gn_common.glsl"

#ifndef SLOTS
#error "define SLOTS (elements per lane held in registers)"
#endif
#ifndef PREFETCH
#define PREFETCH 0
#endif
// Rounds of channel sums a lane takes part in: ceil(CPG / SUBGROUP_SIZE) when CPG >=
// SUBGROUP_SIZE, else 1 (the manifests' `when` keeps CPG <= ROUNDS * SUBGROUP_SIZE). Each
// round keeps a weight and two sums per lane in registers for the whole kernel: bounded by
// SLOTS instead (every M <= CAP), the 32-slot build took 14.2 us on retinanet_fpn_p7 against
// 9.5 with ROUNDS 2 (H200 run 25).
#ifndef ROUNDS
#define ROUNDS 2
#endif

layout(std430, set = 0, binding = 0) readonly restrict buffer DyBuf { float dy_v[]; };
layout(std430, set = 0, binding = 1) readonly restrict buffer XBuf { float x_v[]; };
layout(std430, set = 0, binding = 2) readonly restrict buffer WBuf { float weight[]; };
layout(std430, set = 0, binding = 3) writeonly restrict buffer DxBuf { float dx_v[]; };
layout(std430, set = 0, binding = 4) writeonly restrict buffer GwBuf { float grad_weight[]; };
layout(std430, set = 0, binding = 5) writeonly restrict buffer GbBuf { float grad_bias[]; };

#define CAP (SUBGROUP_SIZE * SLOTS)
// Each subgroup's dy and e = d - m^ (lanes sum channels other than their own), reused at
// the end for the subgroups' grad_weight / grad_bias totals.
shared float s_dy[NUM_SG * CAP];
shared float s_e[NUM_SG * CAP];
shared vec2 s_ab[WG_SIZE];  // per-lane pieces of channel sums

struct Sample {
  float K;
  float d[SLOTS];
  float dy[SLOTS];
};

Sample load_sample(uint base, uint M, uint lane) {
  Sample t;
  t.K = x_v[base];
  [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
    const uint i = k * SUBGROUP_SIZE + lane;
    t.d[k] = i < M ? x_v[base + i] : 0.0;
    t.dy[k] = i < M ? dy_v[base + i] : 0.0;
  }
  return t;
}

void main() {
  const uint N = params.batch, C = params.channels, HW = params.spatial, G = params.num_groups;
  const uint CPG = C / G, M = CPG * HW;
  const uint g = linear_workgroup_id();
  if (g >= G) return;  // idle workgroups of a folded dispatch (whole workgroups)
  const uint s = gl_SubgroupID, lane = gl_SubgroupInvocationID;
  const uint sbase = s * CAP;
  // Channel sums: P lanes per channel, each a contiguous piece of its row; CH channels per
  // round. Rounds = ceil(CPG / CH) <= ROUNDS (one round when CPG < SUBGROUP).
  const uint P = CPG >= SUBGROUP_SIZE ? 1u : SUBGROUP_SIZE / CPG;
  const uint CH = SUBGROUP_SIZE / P;
  const uint p = lane % P;
  const uint h0 = p * HW / P, h1 = (p + 1u) * HW / P;
  float wr[ROUNDS];  // this lane's channel weight per round
  vec2 acc[ROUNDS];  // (sum_n rstd * sum dy*e, sum_n sum dy) per round
  [[unroll]] for (uint r = 0; r < ROUNDS; ++r) {
    const uint c = r * CH + lane / P;
    wr[r] = r * CH < CPG && c < CPG ? weight[g * CPG + c] : 0.0;
    acc[r] = vec2(0.0);
  }

  Sample cur;
  if (s < N) cur = load_sample((s * G + g) * M, M, lane);
  for (uint n = s; n < N; n += NUM_SG) {  // uniform in the subgroup
#if PREFETCH
    Sample nxt;
    if (n + NUM_SG < N) nxt = load_sample(((n + NUM_SG) * G + g) * M, M, lane);
#endif
    const uint base = (n * G + g) * M;
    float sd = 0.0;
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      cur.d[k] = k * SUBGROUP_SIZE + lane < M ? cur.d[k] - cur.K : 0.0;
      sd += cur.d[k];
    }
    const float mean_t = subgroupAdd(sd) / float(M);
    float se2 = 0.0;
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      const uint i = k * SUBGROUP_SIZE + lane;
      const float e = i < M ? cur.d[k] - mean_t : 0.0;
      se2 = fma(e, e, se2);  // explicit fma: see gn_sgroup.comp
      if (i < M) {
        s_dy[sbase + i] = cur.dy[k];
        s_e[sbase + i] = e;
      }
    }
    const float rstd = inversesqrt(subgroupAdd(se2) / float(M) + uintBitsToFloat(params.eps_bits));
    subgroupMemoryBarrierShared();
    subgroupBarrier();
    vec2 wsum = vec2(0.0);
    [[unroll]] for (uint r = 0; r < ROUNDS; ++r) {
      const uint c0 = r * CH;
      if (c0 < CPG) {  // uniform in the subgroup
        const uint c = c0 + lane / P;
        const bool mine = lane < CH * P && c < CPG;
        vec2 ab = vec2(0.0);
        if (mine)
          for (uint h = h0; h < h1; ++h) {
            const float v = s_dy[sbase + c * HW + h];
            ab = vec2(ab.x + v, fma(v, s_e[sbase + c * HW + h], ab.y));
          }
        if (P > 1u) {
          s_ab[gl_LocalInvocationID.x] = ab;
          subgroupMemoryBarrierShared();
          subgroupBarrier();
          if (p == 0u) {
            ab = vec2(0.0);
            for (uint j = 0; j < P; ++j) ab += s_ab[gl_LocalInvocationID.x + j];
          }
          subgroupBarrier();  // read before the next round writes
        }
        if (mine && p == 0u) {
          wsum = fma(vec2(wr[r]), ab, wsum);
          acc[r] += vec2(rstd * ab.y, ab.x);
        }
      }
    }
    const vec2 W = subgroupAdd(wsum);
    const float cA = W.x / float(M);
    const float k2 = rstd * rstd * (W.y / float(M));
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      const uint i = k * SUBGROUP_SIZE + lane;
      if (i < M)
        dx_v[base + i] = rstd * (weighted(weight[g * CPG + i / HW], cur.dy[k]) - (cA + k2 * (cur.d[k] - mean_t)));
    }
    // The next sample overwrites s_dy / s_e: every lane's reads of this one come first.
    subgroupMemoryBarrierShared();
    subgroupBarrier();
#if PREFETCH
    cur = nxt;
#else
    if (n + NUM_SG < N) cur = load_sample(((n + NUM_SG) * G + g) * M, M, lane);
#endif
  }

  // grad_weight / grad_bias: each subgroup's totals (its own region of s_dy / s_e), then the
  // subgroups in order.
  [[unroll]] for (uint r = 0; r < ROUNDS; ++r) {
    const uint c = r * CH + lane / P;
    if (r * CH < CPG && lane < CH * P && c < CPG && p == 0u) {
      s_dy[sbase + c] = acc[r].x;
      s_e[sbase + c] = acc[r].y;
    }
  }
  barrier();
  for (uint c = gl_LocalInvocationID.x; c < CPG; c += WG_SIZE) {
    vec2 t = vec2(0.0);
    for (uint j = 0; j < NUM_SG; ++j) t += vec2(s_dy[j * CAP + c], s_e[j * CAP + c]);
    grad_weight[g * CPG + c] = t.x;
    grad_bias[g * CPG + c] = t.y;
  }
}
