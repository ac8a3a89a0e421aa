#version 450
// Stage 1 of the gn_onchip2 variants: one workgroup per (n, group) holds the whole group in
// registers (the manifest's `when` guarantees it fits), so x and grad_out are read once:
// grad_input from the registers (3T of traffic) and per-(n, c) partials
// (rstd * sum dy*(x-mean), sum dy) for grad_weight / grad_bias, which gn_dwdb_split.comp
// reduces over n in a second dispatch (at batch 1 they are the outputs: gn_part.glsl).
//
// The same on-chip algorithm as gn_tile.comp's ENTRY_ONCHIP, kept in a file of its own:
// these builds measured faster in this form (H200 runs 3 and 9, docs/gpu-log.md), with the
// weight prefetch of run 10 and the DY_SHARED option of run 14.
//
// A chunk is SUBGROUP_SIZE * VEC consecutive elements of one row (channel), loaded by one
// subgroup. Subgroup s owns the KQ consecutive chunks [s*KQ, (s+1)*KQ) of the group
// (row-major), SLOTS at most, so its chunks change row rarely and the per-row sums need
// one subgroupAdd per (subgroup, row) segment, not one per chunk.
//
// Statistics are taken on d = x - K, K = x at the group's first element (x - K is exact for
// large-mean data). Two-pass: m^ = sum(d)/M, then e = d - m^ and M2 = sum(e^2). The rounded
// m^ is taken as the mean: its error only adds M*(m^ - mean)^2 to M2, second order, and it
// stays accurate even when K is an outlier of the group. The corrected form (mean
// m^ + sum(e)/M, M2 - sum(e)^2/M) cost an add per element and no test saw it more accurate
// (run 19).
//
// MASKED (VEC 4, the gn_onchip2_m4 builds; HW % 4 != 0): rows do not start on 16-byte
// boundaries, so each row is read as the aligned vec4 that cover it with the neighbouring
// rows' elements selected out, and its end vec4 written per element (gn_masked.glsl, as
// gn_team.comp's masked builds). Chunks are laid out for the most vec4 a row can touch,
// (HW + 6) / 4; a slot keeps its 4-bit element mask. Against the scalar on-chip and 5T
// builds that had these shapes: the fastest variant hot on 16 of the 80 shapes of seeds 36 and
// 37 (up to 1.33x over the next) and maskrcnn_fpn_p5 12.4 -> 10.7 us (H200 run 32). Built
// GROUP_MAJOR too, they never won (run 32), so no gn_gmajor build is masked.
//
// GROUP_MAJOR (the gn_gmajor_* builds): one dispatch. Workgroup g takes the samples
// n = 0, 1, ... of group g in turn, so the thread that forms row rr's partial for one sample
// forms it for every sample: it keeps the sums over n in registers and writes grad_weight /
// grad_bias itself (no part[] records, no second dispatch), saving the second dispatch's
// fixed cost (3-4 us on the H200, gpu-log run 24). The shipped builds take batch 1 only: each
// further sample taken in turn added ~5.5 us (run 25a), more than the dispatch it saves.
// PARTS > 1 (the gn_gmajor_*x2 builds) cuts the workgroup into PARTS equal parts of
// consecutive subgroups that take PARTS samples at once, each part its own sample, with
// part-wise reductions: batch PARTS in the time of batch 1. The parts' sums over n are added
// in part order at the end (deterministic).
//
// SPLIT (the gn_onchip2_*s builds): groups larger than one workgroup's slots, cut into S parts
// of RP whole rows (params aux 0 and 1), one workgroup each, side by side in the dispatch. A part
// is loaded and reduced as a group is above (its own two-pass mean and M2 about the group's K),
// its row sums are taken about its own mean, and gn_split.glsl joins the parts: the merged
// statistics, this part's grad_input from the registers, its per-(n, c) partials, and grad_weight
// / grad_bias from the part that completes g over every n, all in one dispatch.
#if defined(SPLIT)
#define PARAMS_BINDING 10
#elif defined(GROUP_MAJOR)
#define PARAMS_BINDING 6
#ifndef PARTS
#define PARTS 1
#endif
#else
#define PARAMS_BINDING 7
#endif
#include "gn_common.glsl"
#ifdef MASKED
#include "gn_masked.glsl"
#endif
#if defined(SPLIT) && (defined(GROUP_MAJOR) || defined(MASKED))
#error "SPLIT builds are neither group-major nor masked"
#endif
#if defined(SPLIT) && defined(DY_SHARED) && DY_SHARED > 0
#error "SPLIT builds keep grad_out in registers (the last part reloads given-up parts into them)"
#endif

#ifndef SLOTS
#error "define SLOTS (chunks per subgroup held in registers)"
#endif
#if SLOTS > 32
#error "SLOTS > 32 does not fit the validity bit mask"
#endif
#define QCAP (NUM_SG * SLOTS)
#if defined(GROUP_MAJOR) && PARTS > 1
#if (NUM_SG % PARTS) != 0
#error "the workgroup's subgroups must split into PARTS equal parts"
#endif
#define PART_SG (NUM_SG / PARTS)           // subgroups per part
#define PART_SIZE (PART_SG * SUBGROUP_SIZE)  // invocations per part
#define SUBGROUP_IN_PART (gl_SubgroupID % PART_SG)
#define SEG(i) (seg_base + (i))  // the part's range of s_seg
// A part past the batch loads nothing (the expression forms keep the one-part builds' SPIR-V).
#define IN_BATCH_AND in_batch &&
#define IF_IN_BATCH(v) (in_batch ? (v) : 0.0)
#else
#define PART_SG NUM_SG
#define PART_SIZE WG_SIZE
#define SUBGROUP_IN_PART gl_SubgroupID
#define SEG(i) (i)
#define IN_BATCH_AND
#define IF_IN_BATCH(v) (v)
#endif

layout(std430, set = 0, binding = 0) readonly buffer DyBuf { VT dy_v[]; };
layout(std430, set = 0, binding = 1) readonly buffer XBuf { VT x_v[]; };
layout(std430, set = 0, binding = 2) readonly buffer WBuf { float weight[]; };
layout(std430, set = 0, binding = 3) writeonly buffer DxBuf { VT dx_v[]; };
#ifdef GROUP_MAJOR
layout(std430, set = 0, binding = 4) writeonly buffer GwBuf { float grad_weight[]; };
layout(std430, set = 0, binding = 5) writeonly buffer GbBuf { float grad_bias[]; };
// Rows per thread: CPG <= 1024 (the manifests' `when`).
#define ROW_ITERS ((1024 + PART_SIZE - 1) / PART_SIZE)
#elif defined(SPLIT)
#include "gn_split.glsl"
#include "gn_dwdb.glsl"
#else
#include "gn_part.glsl"
#endif

// Segment sums (sum dy, sum dy*e), stored at the chunk index where the segment starts.
shared vec2 s_seg[QCAP];
// DY_SHARED: the first DY_SHARED slots of grad_out live in shared memory instead of
// registers (each invocation reads back only what it wrote: no barrier needed), for builds
// whose registers are the limit.
#ifndef DY_SHARED
#define DY_SHARED 0
#endif
#if DY_SHARED > 0
shared VT s_dy[DY_SHARED * WG_SIZE];
#define DY(k) ((k) < DY_SHARED ? s_dy[(k) * WG_SIZE + gl_LocalInvocationID.x] : dy[k])
#else
#define DY(k) dy[k]
#endif
// The group's weights. CPG <= Q <= QCAP, and the manifests also require CPG <= 1024, which
// keeps lavapipe's scalar 1024-invocation build (subgroup 8: QCAP 3200) within 32 KiB.
#define W_CAP (QCAP < 1024 ? QCAP : 1024)
shared float s_w[W_CAP];
#if PART_SG == NUM_SG
DEFINE_WG_SUM(wg_sum_d, float, 0.0)
DEFINE_WG_SUM(wg_sum_e2, float, 0.0)
DEFINE_WG_SUM(wg_sum_w, vec2, vec2(0.0))
#else
// DEFINE_WG_SUM over the calling invocation's part only (same fixed order).
#define DEFINE_PART_SUM(NAME, T, ZERO)                                        \
  shared T NAME##_partials[NUM_SG];                                          \
  T NAME(T v) {                                                               \
    v = subgroupAdd(v);                                                       \
    if (subgroupElect()) NAME##_partials[gl_SubgroupID] = v;                  \
    barrier();                                                                \
    const uint first = (gl_SubgroupID / PART_SG) * PART_SG;                   \
    T t = ZERO;                                                               \
    for (uint i = gl_SubgroupInvocationID; i < PART_SG; i += SUBGROUP_SIZE)   \
      t += NAME##_partials[first + i];                                        \
    return subgroupAdd(t);                                                    \
  }
DEFINE_PART_SUM(wg_sum_d, float, 0.0)
DEFINE_PART_SUM(wg_sum_e2, float, 0.0)
DEFINE_PART_SUM(wg_sum_w, vec2, vec2(0.0))
#endif

void main() {
  const uint C = params.channels, HW = params.spatial, G = params.num_groups;
#ifdef SPLIT
  // This workgroup is part part_k of group (n, g): the code below sees only its CPG rows.
  const uint S = params.aux_lo.x, RP = params.aux_lo.y;  // parts per group, rows per part
  const uint wid = linear_workgroup_id();
  if (wid >= params.batch * G * S) return;  // idle workgroups of a folded dispatch
#ifdef SPLIT_STRIDED
  // Part k of every group before part k + 1 of any (a test build's order: lavapipe gives each
  // thread a contiguous range of workgroups, so only then do a group's parts run at once).
  const uint ng = wid % (params.batch * G), part_k = wid / (params.batch * G);
#else
  const uint ng = wid / S, part_k = wid % S;  // a group's parts side by side: launched together
#endif
  const uint n = ng / G, g = ng % G;
  const uint GROUP_CPG = C / G;
  const uint row0 = part_k * RP;
  const uint CPG = split_rows(part_k, RP, GROUP_CPG);
#else
  const uint CPG = C / G;
#endif
#ifdef MASKED
  const uint HWV = (HW + 6u) >> 2u;  // the most vec4 a row touches (row_vec4s)
  const uint E = params.batch * C * HW;
#else
  const uint HWV = HW / VEC;  // row length in VT units
#endif
  const uint cpr = (HWV + SUBGROUP_SIZE - 1) / SUBGROUP_SIZE;  // chunks per row

#ifdef GROUP_MAJOR
  const uint g = linear_workgroup_id();
  if (g >= G) return;  // idle workgroups of a folded dispatch
#if PARTS > 1
  const uint part = gl_SubgroupID / PART_SG;
  const uint plid = (gl_SubgroupID % PART_SG) * SUBGROUP_SIZE + gl_SubgroupInvocationID;
  const uint seg_base = part * (PART_SG * SLOTS);
#else
#define plid gl_LocalInvocationID.x
#endif
  vec2 acc_rows[ROW_ITERS];  // (sum_n rstd * B, sum_n A) of rows plid + it * PART_SIZE
  [[unroll]] for (uint it = 0; it < ROW_ITERS; ++it) acc_rows[it] = vec2(0.0);
#if PARTS > 1
  // Uniform loop: every part passes every barrier; a part past the batch loads nothing.
  for (uint n0 = 0; n0 < params.batch; n0 += PARTS) {
  const uint n = n0 + part;
  const bool in_batch = n < params.batch;
#else
  for (uint n = 0; n < params.batch; ++n) {
#endif
#elif !defined(SPLIT)
  const uint ng = linear_workgroup_id();
  if (ng >= params.batch * G) return;  // idle workgroups of a folded dispatch
  const uint n = ng / G, g = ng % G;
#endif
  const uint J = cpr;             // chunks per row
  const uint Q = CPG * J;         // chunks in the group
  const float M = float(CPG * HW);  // elements in the group
#ifdef SPLIT
  const uint group_row = n * C + g * GROUP_CPG + row0;  // [N*C] row index of the part's first
  const uint w_base = g * GROUP_CPG + row0;
#define K_ROW (n * C + g * GROUP_CPG)  // K is the group's first element, the same in every part
#else
  const uint group_row = n * C + g * CPG;  // [N*C] row index of the group's first channel
  const uint w_base = g * CPG;
#define K_ROW group_row
#endif
  const uint tile_base = group_row * HWV;

  // Needed only after the statistics: issued first, the weights' latency hides behind the
  // tile loads instead of adding two global round trips after the reductions.
  const float w_pre = gl_LocalInvocationID.x < CPG ? weight[w_base + gl_LocalInvocationID.x] : 0.0;
#if defined(MASKED)
  const float K = IF_IN_BATCH(x_v[(group_row * HW) >> 2u][(group_row * HW) & 3u]);
#elif VEC == 4
  const float K = IF_IN_BATCH(x_v[K_ROW * HWV].x);
#else
  const float K = IF_IN_BATCH(x_v[K_ROW * HWV]);
#endif

  const uint s = SUBGROUP_IN_PART, lane = gl_SubgroupInvocationID;
  const uint KQ = (Q + PART_SG - 1) / PART_SG;  // chunks per subgroup (<= SLOTS by the manifest)
  const uint q0 = s * KQ;
  const uint r_start = q0 / J, jj_start = q0 - r_start * J;

  // Load: every slot's loads are issued before any is used.
  VT d[SLOTS], dy[SLOTS];
  uint valid = 0u;
#ifdef MASKED
  MASKS_DECLARE;  // slot k's elements in the row
#if MASK_LOADS == 2
  uint vs[SLOTS];  // slot k's vec4 index
#endif
#endif
  {
    uint r = r_start, jj = jj_start;
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      const uint hw = jj * SUBGROUP_SIZE + lane;
#ifdef MASKED
      const uint lo = (group_row + r) * HW;
      const bool ok = IN_BATCH_AND k < KQ && q0 + k < Q && hw < row_vec4s(lo, HW);
#else
      const bool ok = IN_BATCH_AND k < KQ && q0 + k < Q && hw < HWV;
#endif
      d[k] = VZERO;
      dy[k] = VZERO;
#if defined(MASKED) && MASK_LOADS == 2
      const uint v = (lo >> 2u) + hw;
      vs[k] = v;
      if (ok && 4u * v + 3u < E) {
        d[k] = x_v[v];
        dy[k] = dy_v[v];
      }
      if (ok) {
        MASKS_ADD(in_row(v, lo, HW), k);
        valid |= 1u << k;
      }
#else
      if (ok) {
#ifdef MASKED
        const uint v = (lo >> 2u) + hw;
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
#else
        const uint idx = tile_base + r * HWV + hw;
        d[k] = x_v[idx] - K;
        dy[k] = dy_v[idx];
#endif
        valid |= 1u << k;
      }
#endif
      if (++jj == J) { jj = 0u; ++r; }
    }
  }
#if defined(MASKED) && MASK_LOADS == 2
  MASKED_SLOTS_FINISH(d, dy, vs, valid, x_v, dy_v, E, K)
#endif

#if DY_SHARED > 0
  // After every load is issued: the stores wait for their data.
  [[unroll]] for (uint k = 0; k < DY_SHARED; ++k) s_dy[k * WG_SIZE + gl_LocalInvocationID.x] = dy[k];
#endif
  // Pass 1: the group mean of d.
  VT acc = VZERO;
  [[unroll]] for (uint k = 0; k < SLOTS; ++k) acc += d[k];
  // Published by wg_sum_d's barrier.
#if defined(GROUP_MAJOR) && PARTS > 1
  if (n0 == 0u) {  // the same weights for every sample
#elif defined(GROUP_MAJOR)
  if (n == 0u) {  // the same weights for every sample
#endif
  if (gl_LocalInvocationID.x < CPG) s_w[gl_LocalInvocationID.x] = w_pre;
  for (uint rr = gl_LocalInvocationID.x + WG_SIZE; rr < CPG; rr += WG_SIZE) s_w[rr] = weight[w_base + rr];
#ifdef GROUP_MAJOR
  }
#endif
  const float mean_t = wg_sum_d(hsum(acc)) / M;

  // Pass 2: e = d - mean_t; sum e^2 per subgroup; (sum dy, sum dy*e) per segment.
  {
    VT se2 = VZERO;
    vec2 seg = vec2(0.0);
    uint jj = jj_start, seg_start = q0;
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      if (k < KQ && q0 + k < Q) {  // uniform in the subgroup
#ifdef MASKED
        const VT e = mix(VZERO, d[k] - mean_t, MASKS_OF(k));
#else
        const VT e = ((valid >> k) & 1u) != 0u ? d[k] - mean_t : VZERO;
#endif
        se2 += e * e;
        seg += vec2(hsum(DY(k)), hsum(DY(k) * e));
        ++jj;
        if (jj == J || k + 1 == KQ || q0 + k + 1 == Q) {  // segment ends: row or range ends
          const vec2 tot = subgroupAdd(seg);
          if (subgroupElect()) s_seg[SEG(seg_start)] = tot;
          seg = vec2(0.0);
          seg_start = q0 + k + 1;
          if (jj == J) jj = 0u;
        }
      }
    }
    // wg_sum_e2's barrier also publishes s_seg.
    const float m2 = wg_sum_e2(hsum(se2));
#ifndef SPLIT
    const float rstd = inversesqrt(m2 / M + uintBitsToFloat(params.eps_bits));
#endif
    // Row totals: the segment at the row's start, plus one per subgroup starting inside it.
    vec2 wsum = vec2(0.0);
#ifdef GROUP_MAJOR
    [[unroll]] for (uint it = 0; it < ROW_ITERS; ++it) {
      const uint rr = plid + it * PART_SIZE;
      if (rr >= CPG) break;
#else
    for (uint rr = gl_LocalInvocationID.x; rr < CPG; rr += WG_SIZE) {
#endif
      vec2 tot = s_seg[SEG(rr * J)];
      for (uint s2 = (rr * J) / KQ + 1u; s2 < PART_SG && s2 * KQ < (rr + 1u) * J; ++s2) tot += s_seg[SEG(s2 * KQ)];
      const float A = tot.x;
      const float B = tot.y;  // sum dy*(d - mean_t)
      wsum += s_w[rr] * vec2(A, B);
#ifdef GROUP_MAJOR
#if PARTS > 1
      if (in_batch) acc_rows[it] += vec2(rstd * B, A);
#else
      acc_rows[it] += vec2(rstd * B, A);
#endif
#elif defined(SPLIT)
      row_sums[group_row + rr] = tot;  // about this part's mean, for the join
#else
      store_part(group_row + rr, vec2(rstd * B, A));
#endif
    }
    const vec2 W = wg_sum_w(wsum);
#ifdef SPLIT
    // The parts meet: statistics of the whole group, then this part's rows as below.
    const uint role = split_join(ng, part_k, S, vec4(mean_t, m2, W));
    uint done_rows = 0u;  // part[] rows this workgroup wrote
    if (role != ROLE_GAVE_UP) {
    const SplitStats st = split_merge(ng, S, RP, GROUP_CPG, HW, uintBitsToFloat(params.eps_bits));
    split_store_parts(group_row, CPG, mean_t, st);
#else
    // grad_input = rstd * (w*dy - mean(w*dy) - rstd^2 * mean(w*dy*(x-mean)) * (x-mean)).
    // Kept in this form so that w*dy - mean(w*dy) is exactly 0 for one-element groups.
    const float cA = W.x / M;
    const float k2 = rstd * rstd * (W.y / M);
#endif
#ifdef SPLIT
    // This part's rows from the registers; then, in the last part, each given-up part's rows,
    // loaded into the same slots and written by the same loop: separate code for them (a
    // loop over global memory) rounded grad_input differently on the H100 (gpu-log run 44h).
    if (role == ROLE_LAST) split_take_all(ng, part_k, S);
    done_rows = CPG;
    // base: the rows' first element; q: this subgroup's first chunk of them.
    uint base = tile_base, q = q0, k_next = 0u;
    for (;;) {
    uint r = q / J;
    jj = q - r * J;
#else
    const uint base = tile_base;
    uint r = r_start;
    jj = jj_start;
#endif
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      if (((valid >> k) & 1u) != 0u) {
        const uint hw = jj * SUBGROUP_SIZE + lane;
        const float w = s_w[r];
#ifdef SPLIT
        const VT gi = split_grad_in(w, DY(k), d[k], st);
#else
        const VT gi = rstd * (weighted(w, DY(k)) - (cA + k2 * (d[k] - mean_t)));
#endif
#ifdef MASKED
        STORE_VEC4_MASKED(dx_v, (((group_row + r) * HW) >> 2u) + hw, gi, MASKS_OF(k))
#else
        dx_v[base + r * HWV + hw] = gi;
#endif
      }
      if (++jj == J) { jj = 0u; ++r; }
    }
#ifdef SPLIT
      if (role != ROLE_LAST) break;
      while (k_next < S && !split_gave_up(k_next)) ++k_next;  // uniform: shared bits
      if (k_next == S) break;
      // Part k2 gave its rows up: load them as it did (split_rows rows from row k2 * RP).
      const uint k2 = k_next++;
      const uint nr = split_rows(k2, RP, GROUP_CPG), first = K_ROW + k2 * RP;
      split_store_parts(first, nr, rec[ng * S + k2].x, st);
      done_rows += nr;
      barrier();  // every invocation is done with s_w
      for (uint rr = gl_LocalInvocationID.x; rr < nr; rr += WG_SIZE)
        s_w[rr] = weight[g * GROUP_CPG + k2 * RP + rr];
      barrier();
      const uint Q2 = nr * J, KQ2 = (Q2 + PART_SG - 1) / PART_SG;
      base = first * HWV;
      q = s * KQ2;
      valid = 0u;
      r = q / J;
      jj = q - r * J;
      [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
        const uint hw = jj * SUBGROUP_SIZE + lane;
        d[k] = VZERO;
        dy[k] = VZERO;
        if (k < KQ2 && q + k < Q2 && hw < HWV) {
          const uint idx = base + r * HWV + hw;
          d[k] = x_v[idx] - K;
          dy[k] = dy_v[idx];
          valid |= 1u << k;
        }
        if (++jj == J) { jj = 0u; ++r; }
      }
    }
    }  // rows kept
    // The part that completes g over every sample sums its partials over n.
    if (split_leave(ng, g, S, done_rows))
      for (uint c = gl_LocalInvocationID.x; c < GROUP_CPG; c += WG_SIZE) reduce_dwdb(g * GROUP_CPG + c);
#endif
  }
#ifdef GROUP_MAJOR
  }  // samples
#if PARTS > 1
  // Part 0 adds the other parts' sums in part order, through s_seg (QCAP >= CPG).
  for (uint p = 1u; p < PARTS; ++p) {
    if (part == p) {
      [[unroll]] for (uint it = 0; it < ROW_ITERS; ++it) {
        const uint rr = plid + it * PART_SIZE;
        if (rr < CPG) s_seg[rr] = acc_rows[it];
      }
    }
    barrier();
    if (part == 0u) {
      [[unroll]] for (uint it = 0; it < ROW_ITERS; ++it) {
        const uint rr = plid + it * PART_SIZE;
        if (rr < CPG) acc_rows[it] += s_seg[rr];
      }
    }
    barrier();
  }
  if (part == 0u)
#endif
  [[unroll]] for (uint it = 0; it < ROW_ITERS; ++it) {
    const uint rr = plid + it * PART_SIZE;
    if (rr < CPG) {
      grad_weight[g * CPG + rr] = acc_rows[it].x;
      grad_bias[g * CPG + rr] = acc_rows[it].y;
    }
  }
#endif
}
