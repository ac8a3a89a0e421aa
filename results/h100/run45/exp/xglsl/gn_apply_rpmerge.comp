#version 450
// EXPERIMENT (run 45c): X_SKIP 1 skips the grad_weight blocks, 2 the per-block group merge
// (wrong answers, timed to find what the stage spends its time on).
// Stage 2 of the two-dispatch gn_fused_rp2* builds: gn_combine.comp and gn_apply.comp in one
// dispatch, for the records of gn_rowpiece.comp (a tile is one piece of one row: t = rr * P + p,
// its row record at the group's first row record + t). A few large groups leave each of
// gn_fused_rp's three dispatches near a stage's fixed cost (4-8 us in H200 run 34c's stage
// times, at 1.7-8 MB); this drops the combine dispatch without the serial tail of a
// last-workgroup merge, because every block merges its own group's records in parallel.
//
//  - blocks [0, ndw): grad_weight / grad_bias of WG_SIZE channels each. The (mean, rstd) of
//    every (n, g) its channels touch come from the tile records, one subgroup per (n, g)
//    (the manifest keeps those pairs few), then per channel in n order
//      grad_weight[c] = sum_n rstd * B,  B = sum_p (B_p + (tile mean_p - mean) * A_p),
//      grad_bias[c]   = sum_n A,         A = sum_p A_p.
//  - the other blocks: one block of one group's grad_input, in reverse order (stage 1 read the
//    tensor front to back, so its tail is what is still in L2). The block loads its x and
//    grad_out first, then merges its group from one record per tile (tile mean and M2, the
//    row piece's (A, B), the row's weight), all tiles in parallel:
//      mean = sum n_t m_t / M,  M2 = sum (M2_t + n_t (m_t - mean)^2),
//      W = sum_t w (A_t, B_t + (m_t - mean) A_t),
//    and grad_input = rstd * (w*dy - (cA + k2 * ((x - K) - mean))) with cA = W.x / M and
//    k2 = rstd^2 W.y / M: gn_apply.comp's formula, d = x - K with K the group's first element.
// GROUP_STATS (the gn_fused_rp2s* builds): the partials stage's last tile of each group has
// merged it already (gn_rowpiece.comp LAST_WG) and left (mean, rstd, cA, k2) in gstat[n*G + g],
// so blocks read one vec4 instead of merging, and grad_weight blocks read the pairs' mean and
// rstd there too.
// Every sum runs in a fixed order: deterministic.
#ifdef GROUP_STATS
#define PARAMS_BINDING 9
#else
#define PARAMS_BINDING 8
#endif
#include "gn_common.glsl"
#ifndef X_SKIP
#define X_SKIP 0
#endif

#ifndef ITEMS
#error "define ITEMS (values per invocation)"
#endif
// (n, g) pairs of one grad_weight block; the manifest's `when` keeps N times the groups a
// block of WG_SIZE channels touches under it.
#define STAT_CAP 256

layout(std430, set = 0, binding = 0) readonly restrict buffer DyBuf { float dy[]; };
layout(std430, set = 0, binding = 1) readonly restrict buffer XBuf { float x[]; };
layout(std430, set = 0, binding = 2) readonly restrict buffer WBuf { float weight[]; };
layout(std430, set = 0, binding = 3) readonly restrict buffer TileBuf { vec2 tilerec[]; };  // [N*G*TPG] (mean d, M2)
layout(std430, set = 0, binding = 4) readonly restrict buffer RowBuf { vec2 rowrec[]; };    // [N*C*P] (A, B)
layout(std430, set = 0, binding = 5) writeonly restrict buffer DxBuf { float dx[]; };
layout(std430, set = 0, binding = 6) writeonly restrict buffer GwBuf { float grad_weight[]; };
layout(std430, set = 0, binding = 7) writeonly restrict buffer GbBuf { float grad_bias[]; };
#ifdef GROUP_STATS
layout(std430, set = 0, binding = 8) readonly restrict buffer StatBuf { vec4 gstat[]; };  // [N*G]
#define PAIR_STAT(n) gstat[(n) * G + g].xy
#else
shared vec2 s_stat[STAT_CAP];  // (mean, rstd) of the (n, g) pairs of a grad_weight block
#define PAIR_STAT(n) s_stat[(n) * span + g - g_lo]
#include "gn_piece_merge.glsl"

// (mean, rstd) of group ng, by one subgroup: every lane gets them.
vec2 group_stats_sg(uint ng) {
  const uint TPG = params.aux_lo.w;
  const uint lane = gl_SubgroupInvocationID;
  const float M = float(params.channels / params.num_groups * params.spatial);
  float acc = 0.0;
  for (uint t0 = 0; t0 < TPG; t0 += SUBGROUP_SIZE * MREC) {
    float v[MREC];
    [[unroll]] for (uint k = 0; k < MREC; ++k) {
      const uint t = t0 + k * SUBGROUP_SIZE + lane;
      v[k] = t < TPG ? piece_count(t) * tilerec[ng * TPG + t].x : 0.0;
    }
    [[unroll]] for (uint k = 0; k < MREC; ++k) acc += v[k];
  }
  const float mean = subgroupAdd(acc) / M;
  acc = 0.0;
  for (uint t0 = 0; t0 < TPG; t0 += SUBGROUP_SIZE * MREC) {
    vec2 r[MREC];
    [[unroll]] for (uint k = 0; k < MREC; ++k) {
      const uint t = t0 + k * SUBGROUP_SIZE + lane;
      r[k] = t < TPG ? tilerec[ng * TPG + t] : vec2(0.0);
    }
    [[unroll]] for (uint k = 0; k < MREC; ++k) {
      const uint t = t0 + k * SUBGROUP_SIZE + lane;
      acc += t < TPG ? piece_m2(t, r[k], mean) : 0.0;
    }
  }
  return vec2(mean, inversesqrt(subgroupAdd(acc) / M + uintBitsToFloat(params.eps_bits)));
}
#endif

void dwdb_block(uint wg) {
#if X_SKIP == 1
  return;
#endif
  const uint N = params.batch, C = params.channels, G = params.num_groups;
  const uint CPG = C / G, P = params.aux_lo.y, TPG = params.aux_lo.w;
  const uint c_lo = wg * WG_SIZE, c_hi = min(C, c_lo + WG_SIZE) - 1u;
#ifndef GROUP_STATS
  const uint g_lo = c_lo / CPG, span = c_hi / CPG - g_lo + 1u;
  const uint pairs = N * span;
  // Rounds of dependent record loads: a subgroup per pair takes two per SUBGROUP_SIZE * MREC
  // tiles, NUM_SG pairs at a time; the whole workgroup (merge_tiles) two per WG_SIZE * MREC
  // tiles, one pair after another. A pair or two of many tiles (one group of hundreds of short
  // rows at batch 1: 14 rounds, 7.5 us of H200 run 36c's r23) takes the workgroup. Uniform.
  const uint sg_rounds = 2u * ((TPG + SUBGROUP_SIZE * MREC - 1u) / (SUBGROUP_SIZE * MREC)) *
                         ((pairs + NUM_SG - 1u) / NUM_SG);
  const uint wg_rounds = 2u * pairs * ((TPG + WG_SIZE * MREC - 1u) / (WG_SIZE * MREC));
  if (wg_rounds < sg_rounds) {
    for (uint j = 0; j < pairs; ++j) {
      const GroupCoef m = merge_tiles(j / span * G + g_lo + j % span);
      if (gl_LocalInvocationID.x == 0u) s_stat[j] = vec2(m.mean, m.rstd);
    }
  } else {
    for (uint j = gl_SubgroupID; j < pairs; j += NUM_SG) {
      const vec2 st = group_stats_sg(j / span * G + g_lo + j % span);
      if (subgroupElect()) s_stat[j] = st;
    }
  }
  barrier();
#endif
  const uint c = c_lo + gl_LocalInvocationID.x;
  if (c > c_hi) return;
  const uint g = c / CPG, rr = c - g * CPG;
  vec2 acc = vec2(0.0);
  // Eight samples' records in flight at a time, summed in n order.
  for (uint n0 = 0; n0 < N; n0 += 8u) {
    vec2 ab[8];
    [[unroll]] for (uint k = 0; k < 8u; ++k) ab[k] = vec2(0.0);
    for (uint p = 0; p < P; ++p) {
      vec2 rec[8];
      float tm[8];
      [[unroll]] for (uint k = 0; k < 8u; ++k) {
        const uint n = n0 + k;
        rec[k] = n < N ? rowrec[(n * C + c) * P + p] : vec2(0.0);
        tm[k] = n < N ? tilerec[(n * G + g) * TPG + rr * P + p].x : 0.0;
      }
      [[unroll]] for (uint k = 0; k < 8u; ++k) {
        const float mean = n0 + k < N ? PAIR_STAT(n0 + k).x : 0.0;
        ab[k] += vec2(rec[k].x, rec[k].y + (tm[k] - mean) * rec[k].x);
      }
    }
    [[unroll]] for (uint k = 0; k < 8u; ++k)
      if (n0 + k < N) acc += vec2(PAIR_STAT(n0 + k).y * ab[k].y, ab[k].x);
  }
  grad_weight[c] = acc.x;
  grad_bias[c] = acc.y;
}

void main() {
  const uint C = params.channels, HW = params.spatial, G = params.num_groups;
  const uint CPG = C / G;
  const uint ndw = (C + WG_SIZE - 1u) / WG_SIZE;
  const uint id = linear_workgroup_id();
  if (id < ndw) {
    dwdb_block(id);
    return;
  }
  const uint MG = CPG * HW;          // the group's elements
  const uint BPG = params.aux_hi.x;  // blocks per group
  const uint total = params.batch * G * BPG;
  if (id - ndw >= total) return;  // idle workgroups of a folded dispatch (whole workgroups)
  const uint rid = total - 1u - (id - ndw);
  const uint ng = rid / BPG, b = rid % BPG;
  const uint g = ng % G;
  const uint group_base = (ng / G * C + g * CPG) * HW;
  const uint first = b * WG_SIZE * ITEMS + gl_LocalInvocationID.x;

  float xs[ITEMS], dys[ITEMS];
  [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
    const uint i = first + k * WG_SIZE;
    xs[k] = 0.0;
    dys[k] = 0.0;
    if (i < MG) {
      xs[k] = x[group_base + i];
      dys[k] = dy[group_base + i];
    }
  }
  const float K = x[group_base];
#ifdef GROUP_STATS
  const vec4 gc = gstat[ng];  // (mean, rstd, cA, k2)
#elif X_SKIP == 2
  const vec4 gc = vec4(0.0, 1.0, 0.0, 0.0);
#else
  const GroupCoef m = merge_tiles(ng);
  const vec4 gc = vec4(m.mean, m.rstd, m.cA, m.k2);
#endif
  [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
    const uint i = first + k * WG_SIZE;
    if (i < MG) {
      const float w = weight[g * CPG + i / HW];
      dx[group_base + i] = gc.y * (weighted(w, dys[k]) - (gc.z + gc.w * ((xs[k] - K) - gc.x)));
    }
  }
}
