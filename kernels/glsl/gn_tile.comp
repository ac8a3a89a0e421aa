#version 450
// Tile kernel of the gn_* variants: one workgroup loads a tile of one (n, group) into
// registers once, and computes numerically stable statistics from the registers.
//
// A tile is rows [r0, r0 + rows) of the group (channels), and chunks [j0, j0 + J) of each
// row; a chunk is SUBGROUP_SIZE * VEC consecutive elements of one row, loaded by one
// subgroup. Subgroup s owns the KQ consecutive chunks [s*KQ, (s+1)*KQ) of the tile
// (row-major), SLOTS at most, so its chunks change row rarely and the per-row sums need
// one subgroupAdd per (subgroup, row) segment, not one per chunk. Segment (s, r) is
// stored at s + r: unique, since a later subgroup never covers an earlier row.
//
// Statistics are taken on d = x - K, K = x at the group's first element (the same K for
// every tile of the group, so tiles combine exactly; x - K is exact for large-mean data).
// Two-pass within the tile: m^ = sum(d)/n, then e = d - m^ and M2 = sum(e^2), with the
// rounded m^ as the tile mean: its error only adds n*(m^ - mean)^2 to M2, second order, and
// it stays accurate even when K is an outlier of the group. The corrected form (mean
// m^ + sum(e)/n, M2 - sum(e)^2/n) cost an add per element and no test saw it more accurate
// (run 19).
//
// Modes:
//  ENTRY_ONCHIP   the tile is the whole group (the manifest's `when` guarantees it fits):
//                 the kernel finishes the group: grad_input from the registers (3T of
//                 traffic) and per-(n, c) partials (rstd * sum dy*(x-mean), sum dy) for
//                 grad_weight / grad_bias, which a second dispatch reduces over n.
//                 KEEP_DY 0 keeps only d in registers and reads grad_out twice (after the
//                 mean, and for grad_input): half the registers, so twice the group size;
//                 the second read is of data this workgroup read microseconds before, so
//                 it comes from L2 and DRAM traffic stays 3T.
//  ENTRY_PARTIALS the group is split into TPG tiles (aux params R, P, JP, TPG from the
//                 manifest); writes per tile (mean of d, M2) and per (n, c, row piece)
//                 (sum dy, sum dy*(d - tile mean)); gn_combine.comp merges them.
#ifndef LAST_WG
#define LAST_WG 0
#endif
#if LAST_WG
#define PARAMS_BINDING 8
#elif defined(ENTRY_ONCHIP)
#define PARAMS_BINDING 5
#else
#define PARAMS_BINDING 4
#endif
#include "gn_common.glsl"

#ifndef SLOTS
#error "define SLOTS (chunks per subgroup held in registers)"
#endif
#ifndef KEEP_DY
#define KEEP_DY 1
#endif
#if KEEP_DY == 0 && !defined(ENTRY_ONCHIP)
#error "KEEP_DY 0 is an ENTRY_ONCHIP mode"
#endif
#ifndef DY_BATCH
#if KEEP_DY
#define DY_BATCH SLOTS
#elif VEC == 4
#define DY_BATCH 2
#else
#define DY_BATCH 8
#endif
#endif
#if (SLOTS % DY_BATCH) != 0
#error "SLOTS must be a multiple of DY_BATCH"
#endif
#define QCAP (NUM_SG * SLOTS)
// Rows per tile are at most QCAP (one chunk each); onchip manifests also require
// CPG <= 1024, which keeps the segment array small on lavapipe (32 KiB shared memory).
#define ROWS_CAP (QCAP < 1024 ? QCAP : 1024)

layout(std430, set = 0, binding = 0) readonly restrict buffer DyBuf { VT dy_v[]; };
layout(std430, set = 0, binding = 1) readonly restrict buffer XBuf { VT x_v[]; };
// LAST_WG 1: a counter per group (onchip: per g, counting the N workgroups of g;
// partials: per (n, g), counting its TPG tiles) lets the workgroup that finishes last do
// the follow-up in the same dispatch: onchip, grad_weight / grad_bias of g's channels
// (gn_dwdb.glsl); partials, the merge of gn_combine.glsl. No workgroup waits on another,
// and the follow-up reads every record in a fixed order, so results do not depend on which
// workgroup is last. Records are `coherent` and fenced before the counter increments.
// The counter buffer is zero-filled by the runtime, and the last workgroup resets it too.
#if LAST_WG
#define REC_QUAL coherent restrict
#else
#define REC_QUAL writeonly restrict
#endif
#if defined(ENTRY_ONCHIP)
layout(std430, set = 0, binding = 2) readonly restrict buffer WBuf { float weight[]; };
layout(std430, set = 0, binding = 3) writeonly restrict buffer DxBuf { VT dx_v[]; };
layout(std430, set = 0, binding = 4) REC_QUAL buffer PartBuf { vec2 part[]; };  // [N*C] (rstd*B, A)
#if LAST_WG
layout(std430, set = 0, binding = 5) coherent restrict buffer CountBuf { uint counter[]; };  // [G]
layout(std430, set = 0, binding = 6) writeonly restrict buffer GwBuf { float grad_weight[]; };
layout(std430, set = 0, binding = 7) writeonly restrict buffer GbBuf { float grad_bias[]; };
#include "gn_dwdb.glsl"
#endif
#elif defined(ENTRY_PARTIALS)
layout(std430, set = 0, binding = 2) REC_QUAL buffer TileBuf { vec2 tilerec[]; };  // [N*G*TPG] (mean d, M2)
layout(std430, set = 0, binding = 3) REC_QUAL buffer RowBuf { vec2 rowrec[]; };    // [N*C*P] (A, B)
#if LAST_WG
layout(std430, set = 0, binding = 4) coherent restrict buffer CountBuf { uint counter[]; };  // [N*G]
layout(std430, set = 0, binding = 5) readonly restrict buffer WBuf { float weight[]; };
layout(std430, set = 0, binding = 6) writeonly restrict buffer PartBuf { vec2 part[]; };
layout(std430, set = 0, binding = 7) writeonly restrict buffer CoefBuf { vec4 coef[]; };  // [N*C][2]
#include "gn_combine.glsl"
#endif
#else
#error "define ENTRY_ONCHIP or ENTRY_PARTIALS"
#endif
#if LAST_WG
shared bool s_last;
#endif
#if LAST_WG && defined(ENTRY_PARTIALS)
#include "gn_last_wg.glsl"
#endif

shared vec2 s_seg[NUM_SG + ROWS_CAP];  // (sum dy, sum dy*e) of segment (s, r) at s + r
DEFINE_WG_SUM(wg_sum_d, float, 0.0)
DEFINE_WG_SUM(wg_sum_e2, float, 0.0)
#if defined(ENTRY_ONCHIP)
DEFINE_WG_SUM(wg_sum_w, vec2, vec2(0.0))
#endif

void main() {
  const uint C = params.channels, HW = params.spatial, G = params.num_groups;
  const uint CPG = C / G;
  const uint HWV = HW / VEC;                                   // row length in VT units
  const uint cpr = (HWV + SUBGROUP_SIZE - 1) / SUBGROUP_SIZE;  // chunks per row
#if defined(ENTRY_ONCHIP)
  const uint R = CPG, P = 1u, JP = cpr, TPG = 1u;
#else
  const uint R = params.aux_lo.x, P = params.aux_lo.y, JP = params.aux_lo.z, TPG = params.aux_lo.w;
#endif

  const uint tile_id = linear_workgroup_id();
  if (tile_id >= params.batch * G * TPG) return;  // idle workgroups of a folded dispatch
  const uint ng = tile_id / TPG, t = tile_id % TPG;
  const uint n = ng / G, g = ng % G;
  const uint rb = t / P, p = t % P;
  const uint r0 = rb * R, rows = min(R, CPG - r0);
  const uint j0 = p * JP, J = min(JP, cpr - j0);
  const uint Q = rows * J;
  const uint hw0 = j0 * SUBGROUP_SIZE;                              // tile's first column (VT)
  const uint row_len = min((j0 + J) * SUBGROUP_SIZE, HWV) - hw0;    // valid columns (VT)
  const float cnt = float(rows * row_len * VEC);
  const uint group_row = n * C + g * CPG;  // [N*C] row index of the group's first channel
  const uint tile_base = (group_row + r0) * HWV + hw0;

#if VEC == 4
  const float K = x_v[group_row * HWV].x;
#else
  const float K = x_v[group_row * HWV];
#endif

  const uint s = gl_SubgroupID, lane = gl_SubgroupInvocationID;
  const uint KQ = (Q + NUM_SG - 1) / NUM_SG;  // chunks per subgroup (<= SLOTS by the manifest)
  const uint q0 = s * KQ;
  const uint nk = q0 < Q ? min(KQ, Q - q0) : 0u;  // this subgroup's chunk count
  const uint r_start = q0 / J, jj_start = q0 - r_start * J;
  // Slot k of this invocation: row r, column jj*SUBGROUP_SIZE + lane, valid when k < nk
  // and the column is inside the row (the row's last chunk may be partial).
#define SLOT_OK(k, jj) ((k) < nk && (jj) * SUBGROUP_SIZE + lane < row_len)
#define SLOT_IDX(r, jj) (tile_base + (r) * HWV + (jj) * SUBGROUP_SIZE + lane)
#define NEXT_SLOT(r, jj) if (++(jj) == J) { (jj) = 0u; ++(r); }

  // Load: every slot's loads are issued before any is used.
  VT d[SLOTS];
#if KEEP_DY
  VT dy[SLOTS];
#endif
  {
    uint r = r_start, jj = jj_start;
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      d[k] = VZERO;
#if KEEP_DY
      dy[k] = VZERO;
#endif
      if (SLOT_OK(k, jj)) {
        d[k] = x_v[SLOT_IDX(r, jj)] - K;
#if KEEP_DY
        dy[k] = dy_v[SLOT_IDX(r, jj)];
#endif
      }
      NEXT_SLOT(r, jj)
    }
  }

  // Pass 1: the tile mean of d.
  VT acc = VZERO;
  [[unroll]] for (uint k = 0; k < SLOTS; ++k) acc += d[k];
  const float mean_t = wg_sum_d(hsum(acc)) / cnt;

  // Pass 2: e = d - mean_t; sum e^2 per subgroup; (sum dy, sum dy*e) per segment.
  // Without KEEP_DY, grad_out is loaded here DY_BATCH slots at a time, all of a batch's
  // loads issued before the first is used (r, jj track the loads; rp, jjp the use).
  VT se2 = VZERO;
  {
    vec2 seg = vec2(0.0);
    uint r = r_start, jj = jj_start, rp = r_start, jjp = jj_start;
    [[unroll]] for (uint kb = 0; kb < SLOTS; kb += DY_BATCH) {
      VT t[DY_BATCH];
      [[unroll]] for (uint i = 0; i < DY_BATCH; ++i) {
#if KEEP_DY
        t[i] = dy[kb + i];
#else
        t[i] = VZERO;
        if (SLOT_OK(kb + i, jj)) t[i] = dy_v[SLOT_IDX(r, jj)];
        NEXT_SLOT(r, jj)
#endif
      }
      [[unroll]] for (uint i = 0; i < DY_BATCH; ++i) {
        const uint k = kb + i;
        if (k < nk) {  // uniform in the subgroup
          const VT e = SLOT_OK(k, jjp) ? d[k] - mean_t : VZERO;
          se2 += e * e;
          seg += vec2(hsum(t[i]), hsum(t[i] * e));  // t is 0 outside the tile
          if (jjp + 1u == J || k + 1u == nk) {       // the segment ends with the row or the range
            const vec2 tot = subgroupAdd(seg);
            if (subgroupElect()) s_seg[s + rp] = tot;
            seg = vec2(0.0);
          }
        }
        NEXT_SLOT(rp, jjp)
      }
    }
  }
  // wg_sum_e2's barrier also publishes s_seg.
  const float m2 = wg_sum_e2(hsum(se2));

#if defined(ENTRY_ONCHIP)
  const float M = cnt;
  const float rstd = inversesqrt(m2 / M + uintBitsToFloat(params.eps_bits));
#endif
  // Row totals: the segments of the subgroups that cover the row, in subgroup order.
  vec2 wsum = vec2(0.0);
  for (uint rr = gl_LocalInvocationID.x; rr < rows; rr += WG_SIZE) {
    const uint s_end = ((rr + 1u) * J - 1u) / KQ;
    vec2 tot = vec2(0.0);
    for (uint s2 = (rr * J) / KQ; s2 <= s_end; ++s2) tot += s_seg[s2 + rr];
    const float A = tot.x;
    const float B = tot.y;  // sum dy*(d - mean_t)
    const uint row = group_row + r0 + rr;
#if defined(ENTRY_ONCHIP)
    wsum += weight[row - n * C] * vec2(A, B);
    part[row] = vec2(rstd * B, A);
#else
    rowrec[row * P + p] = vec2(A, B);
#endif
  }
#if defined(ENTRY_PARTIALS)
  if (gl_LocalInvocationID.x == 0u) tilerec[tile_id] = vec2(mean_t, m2);
#if LAST_WG
  if (arrive_last(ng, TPG)) combine_group(ng, K);  // s_last is uniform: barriers are fine
#endif
#else
#if LAST_WG
  // Release the part[] records now, before grad_input is stored: a fence after the stores
  // would wait for all of them to drain. The count's result is read only after the stores,
  // so its latency hides behind them.
  memoryBarrierBuffer();
#endif
  const vec2 W = wg_sum_w(wsum);  // its barrier orders every invocation's fence before the count
#if LAST_WG
  uint arrived = 0u;
  if (gl_LocalInvocationID.x == 0u) arrived = atomicAdd(counter[g], 1u);
#endif
  // grad_input = rstd * (w*dy - mean(w*dy) - rstd^2 * mean(w*dy*(x-mean)) * (x-mean)).
  // Kept in this form so that w*dy - mean(w*dy) is exactly 0 for one-element groups.
  const float cA = W.x / M;
  const float k2 = rstd * rstd * (W.y / M);
  {
    uint r = r_start, jj = jj_start, rp = r_start, jjp = jj_start;
    [[unroll]] for (uint kb = 0; kb < SLOTS; kb += DY_BATCH) {
      VT t[DY_BATCH];
      [[unroll]] for (uint i = 0; i < DY_BATCH; ++i) {
#if KEEP_DY
        t[i] = dy[kb + i];
#else
        t[i] = VZERO;
        if (SLOT_OK(kb + i, jj)) t[i] = dy_v[SLOT_IDX(r, jj)];  // from L2: read in pass 2
        NEXT_SLOT(r, jj)
#endif
      }
      [[unroll]] for (uint i = 0; i < DY_BATCH; ++i) {
        if (SLOT_OK(kb + i, jjp)) {
          const float w = weight[g * CPG + rp];
          dx_v[SLOT_IDX(rp, jjp)] = rstd * (weighted(w, t[i]) - (cA + k2 * (d[kb + i] - mean_t)));
        }
        NEXT_SLOT(rp, jjp)
      }
    }
  }
#if LAST_WG
  if (gl_LocalInvocationID.x == 0u) {
    s_last = arrived == params.batch - 1u;
    if (s_last) counter[g] = 0u;  // ready for the next run
  }
  barrier();
  if (s_last) {
    memoryBarrierBuffer();  // the other workgroups' records after the count
    for (uint rr = gl_LocalInvocationID.x; rr < CPG; rr += WG_SIZE) reduce_dwdb(g * CPG + rr);
  }
#endif
#endif
}
