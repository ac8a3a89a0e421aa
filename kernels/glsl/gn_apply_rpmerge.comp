#version 450
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
// DW_TAIL (the gn_fused_rp2t* builds): no grad_weight blocks, which merge every (n, g) pair their
// channels touch and were the stage's critical path where there are many pairs of hundreds of
// records each (H100 run 45c: the stage 7-23 us with them, 6.2-9.7 us without). Chunk j of
// WG_SIZE channels of g belongs to block b = BPG - 1 - j (mod BPG) of each (n, g) instead:
// after its merge and grad_input, that block turns the chunk's records into (n, g)'s share
// (rstd * B, A); at batch 1 that is grad_weight / grad_bias, otherwise it goes to part[n*C + c]
// and the last of the N blocks (n, g, j) to count itself (gn_last_wg.glsl; no block waits) sums
// the shares in n order, as the grad_weight blocks do. (Dispatching those blocks first did
// not help: H100 run 45e.)
// Every sum runs in a fixed order: deterministic.
#ifndef DW_TAIL
#define DW_TAIL 0
#endif
#if DW_TAIL && defined(GROUP_STATS)
#error "DW_TAIL is for the merging builds (no GROUP_STATS)"
#endif
#if DW_TAIL
#define PARAMS_BINDING 10
#elif defined(GROUP_STATS)
#define PARAMS_BINDING 9
#else
#define PARAMS_BINDING 8
#endif
#include "gn_common.glsl"

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
#elif DW_TAIL
layout(std430, set = 0, binding = 8) coherent restrict buffer PartBuf { vec2 part[]; };      // [N*C]
layout(std430, set = 0, binding = 9) coherent restrict buffer CountBuf { uint counter[]; };  // [G*J]
shared bool s_last;
#include "gn_last_wg.glsl"
#include "gn_piece_merge.glsl"
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

// A row piece's (A, B) re-centred from its tile mean tm to the group mean:
// (A, B + (tm - mean) * A), summed over a row's pieces for grad_weight / grad_bias.
vec2 piece_ab(vec2 rec, float tm, float mean) { return vec2(rec.x, rec.y + (tm - mean) * rec.x); }

#if DW_TAIL
// (n, g)'s share of grad_weight / grad_bias at channel c, (rstd * B, A): dwdb_block's ab for
// one n, the row's pieces in order.
vec2 row_share(uint n, uint g, uint c, vec2 stat) {
  const uint C = params.channels, G = params.num_groups, CPG = C / G;
  const uint P = params.aux_lo.y, TPG = params.aux_lo.w;
  vec2 ab = vec2(0.0);
  for (uint p = 0; p < P; ++p) {
    const vec2 rec = rowrec[(n * C + c) * P + p];
    const float tm = tilerec[(n * G + g) * TPG + (c - g * CPG) * P + p].x;
    ab += piece_ab(rec, tm, stat.x);
  }
  return vec2(stat.y * ab.y, ab.x);
}
#else
void dwdb_block(uint wg) {
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
        ab[k] += piece_ab(rec[k], tm[k], mean);
      }
    }
    [[unroll]] for (uint k = 0; k < 8u; ++k)
      if (n0 + k < N) acc += vec2(PAIR_STAT(n0 + k).y * ab[k].y, ab[k].x);
  }
  grad_weight[c] = acc.x;
  grad_bias[c] = acc.y;
}
#endif

void main() {
  const uint C = params.channels, HW = params.spatial, G = params.num_groups;
  const uint CPG = C / G;
  const uint id = linear_workgroup_id();
#if DW_TAIL
  const uint ndw = 0u;
#else
  const uint ndw = (C + WG_SIZE - 1u) / WG_SIZE;
  if (id < ndw) {
    dwdb_block(id);
    return;
  }
#endif
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
#if DW_TAIL
  const uint n = ng / G, J = (CPG + WG_SIZE - 1u) / WG_SIZE;
  for (uint j = BPG - 1u - b; j < J; j += BPG) {  // uniform
    const uint c = g * CPG + j * WG_SIZE + gl_LocalInvocationID.x;
    const bool has = c < (g + 1u) * CPG;
    const vec2 share = has ? row_share(n, g, c, gc.xy) : vec2(0.0);
    if (params.batch == 1u) {
      if (has) {
        grad_weight[c] = share.x;
        grad_bias[c] = share.y;
      }
      continue;
    }
    if (has) part[n * C + c] = share;
    if (arrive_last(g * J + j, params.batch) && has) {
      vec2 acc = vec2(0.0);
      for (uint nn = 0; nn < params.batch; ++nn) acc += part[nn * C + c];
      grad_weight[c] = acc.x;
      grad_bias[c] = acc.y;
    }
  }
#endif
}
