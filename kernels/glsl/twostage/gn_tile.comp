#version 450
// Two-dispatch build of the on-chip kernels: the code measured in H200 run 3, plus the weight
// prefetch of run 10 (see docs/gpu-log.md). The shared gn_tile.comp measured slower for
// these builds (run 9), so they keep their own copy.
// Tile kernel of the gn_* variants: one workgroup loads a tile of one (n, group) into
// registers once, and computes numerically stable statistics from the registers.
//
// A tile is rows [r0, r0 + rows) of the group (channels), and chunks [j0, j0 + J) of each
// row; a chunk is SUBGROUP_SIZE * VEC consecutive elements of one row, loaded by one
// subgroup. Subgroup s owns the KQ consecutive chunks [s*KQ, (s+1)*KQ) of the tile
// (row-major), SLOTS at most, so its chunks change row rarely and the per-row sums need
// one subgroupAdd per (subgroup, row) segment, not one per chunk.
//
// Statistics are taken on d = x - K, K = x at the group's first element (the same K for
// every tile of the group, so tiles combine exactly; x - K is exact for large-mean data).
// Corrected two-pass within the tile: m^ = sum(d)/n, then e = d - m^, the tile mean is
// m^ + sum(e)/n and M2 = sum(e^2) - sum(e)^2/n (Chan, Golub, LeVeque), which stays
// accurate even when K is an outlier of the group.
//
// Two modes:
//  ENTRY_ONCHIP   the tile is the whole group (the manifest's `when` guarantees it fits):
//                 the kernel finishes the group: grad_input from the registers (3T of
//                 traffic) and per-(n, c) partials (rstd * sum dy*(x-mean), sum dy) for
//                 grad_weight / grad_bias, which gn_apply.comp (ENTRY_DWDB) reduces over n.
//  ENTRY_PARTIALS the group is split into TPG tiles (aux params R, P, JP, TPG from the
//                 manifest); writes per tile (mean of d, M2) and per (n, c, row piece)
//                 (sum dy, sum dy*(d - tile mean)); gn_combine.comp merges them.
#if defined(ENTRY_ONCHIP)
#define PARAMS_BINDING 5
#else
#define PARAMS_BINDING 4
#endif
#include "../gn_common.glsl"

#ifndef SLOTS
#error "define SLOTS (chunks per subgroup held in registers)"
#endif
#if SLOTS > 32
#error "SLOTS > 32 does not fit the validity bit mask"
#endif
#define QCAP (NUM_SG * SLOTS)

layout(std430, set = 0, binding = 0) readonly buffer DyBuf { VT dy_v[]; };
layout(std430, set = 0, binding = 1) readonly buffer XBuf { VT x_v[]; };
#if defined(ENTRY_ONCHIP)
layout(std430, set = 0, binding = 2) readonly buffer WBuf { float weight[]; };
layout(std430, set = 0, binding = 3) writeonly buffer DxBuf { VT dx_v[]; };
layout(std430, set = 0, binding = 4) writeonly buffer PartBuf { vec2 part[]; };  // [N*C] (rstd*B, A)
#elif defined(ENTRY_PARTIALS)
layout(std430, set = 0, binding = 2) writeonly buffer TileBuf { vec2 tilerec[]; };  // [N*G*TPG] (mean d, M2)
layout(std430, set = 0, binding = 3) writeonly buffer RowBuf { vec2 rowrec[]; };    // [N*C*P] (A, B)
#else
#error "define ENTRY_ONCHIP or ENTRY_PARTIALS"
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
#if defined(ENTRY_ONCHIP)
// The group's weights. CPG <= Q <= QCAP, and the manifests also require CPG <= 1024, which
// keeps lavapipe's scalar 1024-invocation build (subgroup 8: QCAP 3200) within 32 KiB.
#define W_CAP (QCAP < 1024 ? QCAP : 1024)
shared float s_w[W_CAP];
#endif
DEFINE_WG_SUM(wg_sum_d, float, 0.0)
DEFINE_WG_SUM(wg_sum_e, vec2, vec2(0.0))
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
  const uint row_len = min((j0 + J) * SUBGROUP_SIZE, HWV) - j0 * SUBGROUP_SIZE;  // VT units
  const float cnt = float(rows * row_len * VEC);
  const uint group_row = n * C + g * CPG;      // [N*C] row index of the group's first channel
  const uint tile_base = (group_row + r0) * HWV + j0 * SUBGROUP_SIZE;

#if defined(ENTRY_ONCHIP)
  // Needed only after the statistics: issued first, the weights' latency hides behind the
  // tile loads instead of adding two global round trips after the reductions.
  const float w_pre = gl_LocalInvocationID.x < CPG ? weight[g * CPG + gl_LocalInvocationID.x] : 0.0;
#endif
#if VEC == 4
  const float K = x_v[group_row * HWV].x;
#else
  const float K = x_v[group_row * HWV];
#endif

  const uint s = gl_SubgroupID, lane = gl_SubgroupInvocationID;
  const uint KQ = (Q + NUM_SG - 1) / NUM_SG;  // chunks per subgroup (<= SLOTS by the manifest)
  const uint q0 = s * KQ;
  const uint r_start = q0 / J, jj_start = q0 - r_start * J;

  // Load: every slot's loads are issued before any is used.
  VT d[SLOTS], dy[SLOTS];
  uint valid = 0u;
  {
    uint r = r_start, jj = jj_start;
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      const uint hw = jj * SUBGROUP_SIZE + lane;  // within the tile's chunk range
      const bool ok = k < KQ && q0 + k < Q && j0 * SUBGROUP_SIZE + hw < HWV;
      d[k] = VZERO;
      dy[k] = VZERO;
      if (ok) {
        const uint idx = tile_base + r * HWV + hw;
        d[k] = x_v[idx] - K;
        dy[k] = dy_v[idx];
        valid |= 1u << k;
      }
      if (++jj == J) { jj = 0u; ++r; }
    }
  }

#if DY_SHARED > 0
  // After every load is issued: the stores wait for their data.
  [[unroll]] for (uint k = 0; k < DY_SHARED; ++k) s_dy[k * WG_SIZE + gl_LocalInvocationID.x] = dy[k];
#endif
  // Pass 1: provisional tile mean of d.
  VT acc = VZERO;
  [[unroll]] for (uint k = 0; k < SLOTS; ++k) acc += d[k];
#if defined(ENTRY_ONCHIP)
  // Published by wg_sum_d's barrier.
  if (gl_LocalInvocationID.x < CPG) s_w[gl_LocalInvocationID.x] = w_pre;
  for (uint rr = gl_LocalInvocationID.x + WG_SIZE; rr < CPG; rr += WG_SIZE) s_w[rr] = weight[g * CPG + rr];
#endif
  const float mhat = wg_sum_d(hsum(acc)) / cnt;

  // Pass 2: e = d - mhat; sum e, sum e^2 per subgroup; (sum dy, sum dy*e) per segment.
  {
    VT se = VZERO, se2 = VZERO;
    vec2 seg = vec2(0.0);
    uint jj = jj_start, seg_start = q0;
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      if (k < KQ && q0 + k < Q) {  // uniform in the subgroup
        const VT e = ((valid >> k) & 1u) != 0u ? d[k] - mhat : VZERO;
        se += e;
        se2 += e * e;
        seg += vec2(hsum(DY(k)), hsum(DY(k) * e));
        ++jj;
        if (jj == J || k + 1 == KQ || q0 + k + 1 == Q) {  // segment ends: row or range ends
          const vec2 tot = subgroupAdd(seg);
          if (subgroupElect()) s_seg[seg_start] = tot;
          seg = vec2(0.0);
          seg_start = q0 + k + 1;
          if (jj == J) jj = 0u;
        }
      }
    }
    // wg_sum_e's barrier also publishes s_seg.
    const vec2 E = wg_sum_e(vec2(hsum(se), hsum(se2)));
    const float corr = E.x / cnt;  // mean of e
    const float mean_t = mhat + corr;
    const float m2 = max(E.y - E.x * corr, 0.0);

#if defined(ENTRY_ONCHIP)
    const float M = cnt;
    const float rstd = inversesqrt(m2 / M + uintBitsToFloat(params.eps_bits));
#endif
    // Row totals: the segment at the row's start, plus one per subgroup starting inside it.
    vec2 wsum = vec2(0.0);
    for (uint rr = gl_LocalInvocationID.x; rr < rows; rr += WG_SIZE) {
      vec2 tot = s_seg[rr * J];
      for (uint s2 = (rr * J) / KQ + 1u; s2 < NUM_SG && s2 * KQ < (rr + 1u) * J; ++s2) tot += s_seg[s2 * KQ];
      const float A = tot.x;
      const float B = tot.y - corr * tot.x;  // sum dy*(d - mean_t)
      const uint row = group_row + r0 + rr;
#if defined(ENTRY_ONCHIP)
      const float w = s_w[rr];
      wsum += w * vec2(A, B);
      part[row] = vec2(rstd * B, A);
#else
      rowrec[row * P + p] = vec2(A, B);
#endif
    }
#if defined(ENTRY_PARTIALS)
    if (gl_LocalInvocationID.x == 0u) tilerec[tile_id] = vec2(mean_t, m2);
#else
    const vec2 W = wg_sum_w(wsum);
    // grad_input = rstd * (w*dy - mean(w*dy) - rstd^2 * mean(w*dy*(x-mean)) * (x-mean)).
    // Kept in this form so that w*dy - mean(w*dy) is exactly 0 for one-element groups.
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
#endif
  }
}
