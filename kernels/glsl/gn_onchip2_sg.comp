#version 450
// Stage 1 of the gn_onchip2 builds with SG_STATS in their name: the on-chip kernel of
// gn_onchip2.comp (one workgroup per (n, group) holds x and grad_out in registers, 3T of
// traffic) with per-subgroup statistics and a single barrier.
//
// Each subgroup takes the two-pass statistics of its own chunks: n_s, its mean
// mean_s = sum(d)/n_s, then e = d - mean_s and M2_s = sum(e^2), with d = x - K as in
// gn_onchip2.comp (the rounded mean_s: its error adds n_s*(error)^2 to M2_s, second order;
// the corrected form with sum(e) cost an add per element: resnet50gn_256x56x56 99.3 us
// against 94.4 without, run 19); and its segments' (sum dy, sum dy*e). Only subgroup
// operations so far: a subgroup whose loads arrive early finishes while the others still
// wait. One barrier publishes the records, and every subgroup merges them itself, in
// subgroup order: mean = sum(n_s mean_s)/M, M2 = sum(M2_s + n_s (mean_s - mean)^2) (Chan),
// each segment re-centred by (mean_s - mean) * sum dy. gn_onchip2.comp needs three barriers
// (mean, M2, weighted row totals). H200 run 16: resnet50gn_256x56x56 115 -> 99 us hot,
// sd_unet_640x32x32 33.7 -> 30.9; slower on groups of many short rows (resnet50gn_2048x7x7:
// 29.4 -> 35.2 us), where every subgroup redoing all the row totals costs more than the
// barriers it saves, so the 256-invocation builds keep gn_onchip2.comp.
//
// Kept apart from gn_onchip2.comp on purpose: the same arithmetic written as a switch inside
// that file ran 111 us on resnet50gn_256x56x56 (its loads and loop shapes differ). The loops
// below were later written without the measured build's one-batch grad_out loop; the SPIR-V
// differs from it only by folded `true &&` terms and block order.
//
// MASKED (the _m4 builds, HW % 4 != 0): rows read as masked aligned vec4, as in
// gn_onchip2.comp; a subgroup's element count n_s counts the masks' bits.
#define PARAMS_BINDING 7
#include "gn_common.glsl"
#include "gn_part.glsl"
#ifdef MASKED
#include "gn_masked.glsl"
#endif
#ifndef DY_SHARED
#define DY_SHARED 0
#endif
#define QCAP (NUM_SG * SLOTS)
layout(std430, set = 0, binding = 0) readonly buffer DyBuf { VT dy_v[]; };
layout(std430, set = 0, binding = 1) readonly buffer XBuf { VT x_v[]; };
layout(std430, set = 0, binding = 2) readonly buffer WBuf { float weight[]; };
layout(std430, set = 0, binding = 3) writeonly buffer DxBuf { VT dx_v[]; };
shared vec2 s_seg[QCAP];     // (sum dy, sum dy*(d - mean_s)) of a segment, at its first chunk
shared vec3 s_stat[NUM_SG];  // (n_s, mean_s, M2_s) of each subgroup's chunks
#define W_CAP (QCAP < 1024 ? QCAP : 1024)
shared float s_w[W_CAP];
#if DY_SHARED > 0
shared VT s_dy[DY_SHARED * WG_SIZE];
#define DYV(k) ((k) < DY_SHARED ? s_dy[(k) * WG_SIZE + gl_LocalInvocationID.x] : dy[k])
#else
#define DYV(k) dy[k]
#endif

// (sum dy, sum dy*(d - mean)) of row rr: its segments in subgroup order, from the subgroup
// holding its first chunk, each re-centred from its subgroup's mean to the group mean.
vec2 row_total(uint rr, uint J, uint KQ, float mean) {
  const uint s1 = (rr * J) / KQ;
  vec2 a = s_seg[rr * J];
  vec2 tot = vec2(a.x, a.y + (s_stat[s1].y - mean) * a.x);
  for (uint s2 = s1 + 1u; s2 < NUM_SG && s2 * KQ < (rr + 1u) * J; ++s2) {
    a = s_seg[s2 * KQ];
    tot += vec2(a.x, a.y + (s_stat[s2].y - mean) * a.x);
  }
  return tot;
}

void group_kernel(const uint ng) {
  const uint C = params.channels, HW = params.spatial, G = params.num_groups;
  const uint CPG = C / G;
#ifdef MASKED
  const uint HWV = (HW + 6u) >> 2u;  // the most vec4 a row touches (row_vec4s)
  const uint E = params.batch * C * HW;
#else
  const uint HWV = HW / VEC;
#endif
  const uint J = (HWV + SUBGROUP_SIZE - 1) / SUBGROUP_SIZE;  // chunks per row
  const uint n = ng / G, g = ng % G;
  const uint Q = CPG * J;
  const float M = float(CPG * HW);
  const uint group_row = n * C + g * CPG;
  const uint tile_base = group_row * HWV;
  const float w_pre = gl_LocalInvocationID.x < CPG ? weight[g * CPG + gl_LocalInvocationID.x] : 0.0;
#if defined(MASKED)
  const float K = x_v[(group_row * HW) >> 2u][(group_row * HW) & 3u];
#elif VEC == 4
  const float K = x_v[group_row * HWV].x;
#else
  const float K = x_v[group_row * HWV];
#endif
  const uint s = gl_SubgroupID, lane = gl_SubgroupInvocationID;
  const uint KQ = (Q + NUM_SG - 1) / NUM_SG;
  const uint q0 = s * KQ;
  const uint nk = q0 < Q ? min(KQ, Q - q0) : 0u;
  const uint r_start = q0 / J, jj_start = q0 - r_start * J;
#ifdef MASKED
#define SLOT_IDX(r, jj) ((((group_row + (r)) * HW) >> 2u) + (jj) * SUBGROUP_SIZE + lane)
#else
#define SLOT_IDX(r, jj) (tile_base + (r) * HWV + (jj) * SUBGROUP_SIZE + lane)
#endif
#define NEXT_SLOT(r, jj) if (++(jj) == J) { (jj) = 0u; ++(r); }

  // Load: every slot's loads are issued before any is used.
  uint valid = 0u;
  VT d[SLOTS];
  VT dy[SLOTS];
#ifdef MASKED
  MASKS_DECLARE;  // slot k's elements in the row
  float cnt = 0.0;  // elements of this invocation's slots
#if MASK_LOADS == 2
  uint vs[SLOTS];  // slot k's vec4 index
#endif
#endif
  {
    uint r = r_start, jj = jj_start;
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
#ifdef MASKED
      const uint lo = (group_row + r) * HW;
      const bool ok = k < nk && jj * SUBGROUP_SIZE + lane < row_vec4s(lo, HW);
      d[k] = VZERO;
      dy[k] = VZERO;
#if MASK_LOADS == 2
      const uint v = SLOT_IDX(r, jj);
      vs[k] = v;
      if (ok && 4u * v + 3u < E) {
        d[k] = x_v[v];
        dy[k] = dy_v[v];
      }
      if (ok) {
        valid |= 1u << k;
        MASKS_ADD(in_row(v, lo, HW), k);
      }
#else
      if (ok) {
        valid |= 1u << k;
        const uint v = SLOT_IDX(r, jj);
#if MASK_LOADS == 1
        LOAD_PAIR_BOUNDED(d[k], dy[k], x_v, dy_v, v, E)
#else
        LOAD_VEC4_BOUNDED(d[k], x_v, v, E)
        LOAD_VEC4_BOUNDED(dy[k], dy_v, v, E)
#endif
        const bvec4 in_k = in_row(v, lo, HW);
        d[k] = mix(VZERO, d[k] - K, in_k);
        dy[k] = mix(VZERO, dy[k], in_k);
        MASKS_ADD(in_k, k);
      }
#endif
#else
      const bool ok = k < nk && jj * SUBGROUP_SIZE + lane < HWV;
      if (ok) valid |= 1u << k;
      d[k] = ok ? x_v[SLOT_IDX(r, jj)] - K : VZERO;
      dy[k] = ok ? dy_v[SLOT_IDX(r, jj)] : VZERO;
#endif
      NEXT_SLOT(r, jj)
    }
  }
#if defined(MASKED) && MASK_LOADS == 2
  MASKED_SLOTS_FINISH(d, dy, vs, valid, x_v, dy_v, E, K)
#endif
#if DY_SHARED > 0
  [[unroll]] for (uint k = 0; k < DY_SHARED; ++k) s_dy[k * WG_SIZE + gl_LocalInvocationID.x] = dy[k];
#endif
  if (gl_LocalInvocationID.x < CPG) s_w[gl_LocalInvocationID.x] = w_pre;
  for (uint rr = gl_LocalInvocationID.x + WG_SIZE; rr < CPG; rr += WG_SIZE) s_w[rr] = weight[g * CPG + rr];

  // This subgroup's statistics: its mean, then centred sums.
  VT acc = VZERO;
#ifdef MASKED
  cnt = float(MASKS_BITS());
  [[unroll]] for (uint k = 0; k < SLOTS; ++k) acc += d[k];
#else
  float cnt = 0.0;
  [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
    acc += d[k];
    if (((valid >> k) & 1u) != 0u) cnt += float(VEC);
  }
#endif
  const vec2 sc = subgroupAdd(vec2(hsum(acc), cnt));
  const float n_s = sc.y;
  const float mhat = n_s > 0.0 ? sc.x / n_s : 0.0;
  {
    VT se2 = VZERO;
    vec2 seg = vec2(0.0);
    uint jjp = jj_start, seg_start = q0;
    VT t[SLOTS];  // grad_out, read (from registers or shared memory) before any use
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) t[k] = DYV(k);
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      if (k < nk) {  // uniform in the subgroup
#ifdef MASKED
        const VT e = mix(VZERO, d[k] - mhat, MASKS_OF(k));
#else
        const VT e = ((valid >> k) & 1u) != 0u ? d[k] - mhat : VZERO;
#endif
        se2 += e * e;
        seg += vec2(hsum(t[k]), hsum(t[k] * e));
        ++jjp;
        if (jjp == J || k + 1 == nk) {  // the segment ends with the row or the range
          const vec2 tot = subgroupAdd(seg);
          if (subgroupElect()) s_seg[seg_start] = tot;
          seg = vec2(0.0);
          seg_start = q0 + k + 1;
          if (jjp == J) jjp = 0u;
        }
      }
    }
    const float m2 = subgroupAdd(hsum(se2));
    if (subgroupElect()) s_stat[s] = vec3(n_s, mhat, m2);
  }
  barrier();  // the only one: publishes s_stat, s_seg and s_w

  // Merge, in every subgroup, in a fixed order: the mean, then M2 and the weighted row totals.
  float tm = 0.0;
  for (uint i = lane; i < NUM_SG; i += SUBGROUP_SIZE) tm += s_stat[i].x * s_stat[i].y;
  const float mean = subgroupAdd(tm) / M;
  vec3 t3 = vec3(0.0);
  for (uint i = lane; i < NUM_SG; i += SUBGROUP_SIZE) {
    const vec3 st = s_stat[i];
    const float dm = st.y - mean;
    t3.x += st.z + st.x * dm * dm;
  }
  for (uint rr = lane; rr < CPG; rr += SUBGROUP_SIZE) {
    t3.yz += s_w[rr] * row_total(rr, J, KQ, mean);
  }
  const vec3 T = subgroupAdd(t3);
  const float rstd = inversesqrt(max(T.x, 0.0) / M + uintBitsToFloat(params.eps_bits));
  // grad_input = rstd * (w*dy - mean(w*dy) - rstd^2 * mean(w*dy*(x-mean)) * (x-mean)), in
  // this form so that w*dy - mean(w*dy) is exactly 0 for one-element groups.
  const float cA = T.y / M;
  const float k2 = rstd * rstd * (T.z / M);
  {
    uint rp = r_start, jjp = jj_start;
    VT t[SLOTS];
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) t[k] = DYV(k);
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      if (((valid >> k) & 1u) != 0u) {
        const VT gi = rstd * (weighted(s_w[rp], t[k]) - (cA + k2 * (d[k] - mean)));
#ifdef MASKED
        STORE_VEC4_MASKED(dx_v, SLOT_IDX(rp, jjp), gi, MASKS_OF(k))
#else
        dx_v[SLOT_IDX(rp, jjp)] = gi;
#endif
      }
      NEXT_SLOT(rp, jjp)
    }
  }
  // After grad_input's stores: nothing waits on part[].
  // part[] rows: lane-strided blocks of SUBGROUP_SIZE rows, block b by subgroup b % NUM_SG.
  for (uint rr = lane; rr < CPG; rr += SUBGROUP_SIZE) {
    if ((rr / SUBGROUP_SIZE) % NUM_SG != s) continue;
    const vec2 tot = row_total(rr, J, KQ, mean);
    store_part(group_row + rr, vec2(rstd * tot.y, tot.x));
  }
}

void main() {
  // One group per workgroup; written as the loop the measured build had (idle workgroups of a
  // folded dispatch skip it).
  const uint total = params.batch * params.num_groups;
  const uint nwg = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
  [[dont_unroll]] for (uint ng = linear_workgroup_id(); ng < total; ng += nwg) group_kernel(ng);
}
