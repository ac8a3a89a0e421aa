#version 450
// Stage 1 of the gn_team variants: instance-norm-like problems (CPG == 1: a group is one row
// of HW elements) with short rows, where one subgroup or workgroup per group leaves most
// lanes idle and pays a reduction chain per few dozen elements (gn_sgroup on G = C, HW < 800:
// 12-48 % of copy bandwidth on the H200, held-out shapes of runs 28-29).
//
// A team of TEAM = SUBGROUP_SIZE / ROWS_PER_SG consecutive lanes owns one row; a subgroup
// owns ROWS_PER_SG consecutive rows, which are one contiguous range, so the subgroup's loads
// of slot k (lane j of each team reads element k * TEAM + j of its row) cover that range
// without gaps over the slots. Lane j holds elements j, j + TEAM, ... (SLOTS of them) in
// registers. Team sums are an xor butterfly of subgroupShuffleXor: both partners of a step
// add the same two values, so every lane of a team ends with the same bits, and the order
// is fixed (bitwise reproducible). No shared memory, no barrier.
//
// MASKED (VEC 4; the shipped builds take HW % 4 != 0): a row that does not start on a 16-byte
// boundary is read as the aligned vec4 that cover it, elements of the neighbouring rows
// selected out (never multiplied: their values never reach a sum), and the row's end vec4
// written per element. The scalar builds spend a load, an address and a test per element (127
// registers for 24 slots against 64 for the vec4 build of the same capacity, H200 run 30a);
// the masked ones spend bound tests per slot instead, and won only on rows up to 2 * SUBGROUP
// elements and past the scalar capacity (run 30b).
//
// Numerics as every gn_* variant (docs/performance.md): d = x - K with K the row's first
// element, two-pass statistics, sums centred at m^, grad_input = rstd * (w*dy - (cA + k2 *
// (d - m^))) with w*dy a `precise` product. Writes grad_input (3T) and the per-(n, c)
// partials (rstd * sum dy*(x-mean), sum dy), summed over n by gn_dwdb_split.comp.
#extension GL_KHR_shader_subgroup_shuffle : require
#define PARAMS_BINDING 7
#include "gn_common.glsl"
#include "gn_part.glsl"

#ifndef SLOTS
#error "define SLOTS (VT elements per lane held in registers)"
#endif
#ifndef ROWS_PER_SG
#error "define ROWS_PER_SG (rows per subgroup: 1, 2, 4 or 8)"
#endif
#define TEAM (SUBGROUP_SIZE / ROWS_PER_SG)
#if TEAM < 1 || (TEAM * ROWS_PER_SG) != SUBGROUP_SIZE
#error "ROWS_PER_SG must divide SUBGROUP_SIZE"
#endif

layout(std430, set = 0, binding = 0) readonly restrict buffer DyBuf { VT dy_v[]; };
layout(std430, set = 0, binding = 1) readonly restrict buffer XBuf { VT x_v[]; };
layout(std430, set = 0, binding = 2) readonly restrict buffer WBuf { float weight[]; };
layout(std430, set = 0, binding = 3) writeonly restrict buffer DxBuf { VT dx_v[]; };

#include "gn_team_sum.glsl"
DEFINE_TEAM_SUM(float)
DEFINE_TEAM_SUM(vec2)

#ifdef MASKED
#include "gn_masked.glsl"
#endif

void main() {
  const uint C = params.channels, HW = params.spatial;
  const uint rows = params.batch * C;  // CPG == 1: row (n, c) is group (n, c)
  const uint first_row = linear_workgroup_id() * (NUM_SG * ROWS_PER_SG);
  if (first_row >= rows) return;  // idle workgroups of a folded dispatch (uniform)
  const uint lane = gl_SubgroupInvocationID;
  const uint j = lane % TEAM;
  const uint row = first_row + gl_SubgroupID * ROWS_PER_SG + lane / TEAM;
  // Lanes of rows past the end still take part in the shuffles (zeros), never store.
  const bool live = row < rows;
  const float M = float(HW);
#ifdef MASKED
  const uint lo = row * HW;                      // the row's first element
  const uint base = lo >> 2u;                    // the vec4 holding it
  const uint HWV = ((lo & 3u) + HW + 3u) >> 2u;  // vec4 touching the row
  const uint E = rows * HW;
  const float K = live ? x_v[base][lo & 3u] : 0.0;
#define INSIDE(k, h) in_row(base + (h), lo, HW)
#else
  const uint HWV = HW / VEC;
  const uint base = row * HWV;
#if VEC == 4
  const float K = live ? x_v[base].x : 0.0;
#else
  const float K = live ? x_v[base] : 0.0;
#endif
#endif
  const float w = live ? weight[row % C] : 0.0;

  VT d[SLOTS], dy[SLOTS];
  [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
    const uint h = k * TEAM + j;
    const bool ok = live && h < HWV;
    d[k] = VZERO;
    dy[k] = VZERO;
#ifdef MASKED
    if (ok) {
      const uint v = base + h;
      LOAD_PAIR_BOUNDED(d[k], dy[k], x_v, dy_v, v, E)  // one test for both tensors
      const bvec4 in_k = INSIDE(k, h);
      d[k] = mix(VZERO, d[k] - K, in_k);
      dy[k] = mix(VZERO, dy[k], in_k);
    }
#else
    if (ok) {
      d[k] = x_v[base + h] - K;
      dy[k] = dy_v[base + h];
    }
#endif
  }
  VT acc = VZERO;
  [[unroll]] for (uint k = 0; k < SLOTS; ++k) acc += d[k];
  const float mean_t = team_sum(hsum(acc)) / M;

  VT se2 = VZERO, sa = VZERO, sb = VZERO;
  [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
    const uint h = k * TEAM + j;
    const bool ok = live && h < HWV;
#ifdef MASKED
    const VT e = ok ? mix(VZERO, d[k] - mean_t, INSIDE(k, h)) : VZERO;
#else
    const VT e = ok ? d[k] - mean_t : VZERO;
#endif
    d[k] = e;
    // Explicit fma (one rounding per term) as in gn_sgroup.comp: left to contraction, the
    // H200 build of a sum of products lost accuracy (GPU-host run 21a).
    se2 = fma(e, e, se2);
    sa += dy[k];
    sb = fma(dy[k], e, sb);
  }
  const float m2 = team_sum(hsum(se2));
  const vec2 ab = team_sum(vec2(hsum(sa), hsum(sb)));  // (sum dy, sum dy*e)
  const float rstd = inversesqrt(m2 / M + uintBitsToFloat(params.eps_bits));
  if (live && j == 0u) store_part(row, vec2(rstd * ab.y, ab.x));
  // The group's sums of w*dy and w*dy*e are w times the row's (one channel per group).
  const vec2 W = fma(vec2(w), ab, vec2(0.0));
  const float cA = W.x / M;
  const float k2 = rstd * rstd * (W.y / M);
  [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
    const uint h = k * TEAM + j;
    if (!live || h >= HWV) continue;
    const VT g = rstd * (weighted(w, dy[k]) - (cA + k2 * d[k]));
#ifdef MASKED
    const bvec4 in_k = INSIDE(k, h);
    if (all(in_k)) {
      dx_v[base + h] = g;
    } else {  // the row's end vec4: its own elements only (the neighbours' teams write theirs)
      for (uint c = 0; c < 4u; ++c)
        if (in_k[c]) dx_v[base + h][c] = g[c];
    }
#else
    dx_v[base + h] = g;
#endif
  }
}
