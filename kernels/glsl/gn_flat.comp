#version 450
// Stage 1 of the gn_flat variants: GroupNorm on flattened features (spatial 1, an N x C
// matrix) with groups of hundreds to thousands of channels (G = 1 is layer-norm-like). One
// workgroup per (n, group); the group is one contiguous range of M = CPG elements and
// invocation t holds elements t, t + WG_SIZE, ... (VT units), so the loads are coalesced and
// every element is a whole channel row: its products are the per-(n, c) partials, with no
// per-row sums. The one-subgroup gn_sgroup builds stop at SUBGROUP * 32 elements, and the
// row-based builds give every one-element row a chunk or a tile of its own (H200 run 37b:
// 0.15-0.44x of PyTorch's time on such shapes).
//
// Numerics as every gn_* variant (docs/performance.md): d = x - K with K the group's first
// element, two-pass statistics (m^ = mean of d, M2 = sum (d - m^)^2), grad_input =
// rstd * (w*dy - (cA + k2 * (d - m^))) with w*dy a `precise` product (weighted()). Sums run
// in a fixed order (an invocation's slots in turn, then the workgroup sum's fixed tree).
// Writes grad_input (3T) and the partials (rstd * dy*(x-mean), dy) per (n, c), summed over n
// by gn_dwdb_split.comp (at batch 1 they are grad_weight / grad_bias: gn_part.glsl).
//
// W_LATE: weights read where used (from the cache) instead of held in a third register array;
// for the builds whose three arrays overflow the registers (a 1024-invocation stage gets 64).
//
// REREAD (one sample per workgroup): no partials; where N > 1 invocation 0 writes the group's
// (K, m^) and (rstd, 0) to part[2 (n G + g)] and gn_dwdb_split.comp (REREAD) forms the
// products from x and grad_out again: 2T of reads instead of 2T written and 2T read.
//
// STATS_ONLY (one sample per workgroup): the statistics alone; invocation 0 writes the (n, g)
// record (K, m^), (rstd, cA), (k2, 0) to part[4 (n G + g) ...] and gn_dwdb_split.comp (APPLY,
// gn_flat_apply.glsl) writes grad_input and sums the products over n in one read of x and
// grad_out. Nothing is stored per element here, so a workgroup is done when its three sums are.
//
// SAMPLES > 1: a workgroup takes samples n = r * SAMPLES ... r * SAMPLES + SAMPLES - 1 of its
// group in turn; invocation t owns the same channels in each, so it sums their partials in
// registers (in n order) and writes one row r of part[] per SAMPLES samples: the partials'
// traffic (as large as x and grad_out themselves at spatial 1) shrinks by SAMPLES, and where
// N <= SAMPLES the rows are grad_weight / grad_bias and the dwdb stage is not run.
#define PARAMS_BINDING 7
#include "gn_common.glsl"
#include "gn_part.glsl"

#ifndef SAMPLES
#define SAMPLES 1
#endif

#if SAMPLES > 1 && defined(REREAD)
#error "REREAD takes one sample per workgroup"
#endif
#if defined(STATS_ONLY) && (SAMPLES > 1 || defined(REREAD))
#error "STATS_ONLY takes one sample per workgroup and no REREAD"
#endif

#ifndef SLOTS
#error "define SLOTS (VT units per invocation)"
#endif

layout(std430, set = 0, binding = 0) readonly restrict buffer DyBuf { VT dy_v[]; };
layout(std430, set = 0, binding = 1) readonly restrict buffer XBuf { VT x_v[]; };
// Weight in VT units: with spatial 1 the group's element i is channel g * CPG + i, and the
// vec4 builds need CPG % 4 == 0, so a group's weights start on 16 bytes.
layout(std430, set = 0, binding = 2) readonly restrict buffer WBuf { VT w_v[]; };
#ifndef STATS_ONLY  // no grad_input there
layout(std430, set = 0, binding = 3) writeonly restrict buffer DxBuf { VT dx_v[]; };
#endif

DEFINE_WG_SUM(wg_sum_d, float, 0.0)
DEFINE_WG_SUM(wg_sum_e2, float, 0.0)
DEFINE_WG_SUM(wg_sum_w, vec2, vec2(0.0))

void main() {
  const uint C = params.channels, G = params.num_groups;
  const uint M = C / G;  // CPG; the manifest admits spatial 1 only
  const uint MV = M / VEC;
  const uint rows = (params.batch + SAMPLES - 1u) / SAMPLES;  // of part[]
  const uint wid = linear_workgroup_id();
  if (wid >= rows * G) return;  // uniform in the workgroup
  const uint r = wid / G, g = wid % G;
  const uint wbase = g * MV;
  const uint tid = gl_LocalInvocationID.x;
#ifdef W_LATE  // the weights read where used (cached), not held: two arrays instead of three
#define W_OF(k) w_v[wbase + (k) * WG_SIZE + tid]
#else
  VT w[SLOTS];
  [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
    const uint i = k * WG_SIZE + tid;
    w[k] = i < MV ? w_v[wbase + i] : VZERO;
  }
#define W_OF(k) w[k]
#endif
#if SAMPLES > 1
  VT acc_a[SLOTS], acc_b[SLOTS];  // sum dy, sum rstd * dy * e over this workgroup's samples
  [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
    acc_a[k] = VZERO;
    acc_b[k] = VZERO;
  }
  // Three workgroup sums per sample, each with its own shared array: a sample's first one
  // writes only after every invocation passed the previous sample's second barrier, so no
  // barrier is needed between samples.
  for (uint s = 0; s < SAMPLES; ++s) {
    const uint n = r * SAMPLES + s;
    if (n >= params.batch) break;  // uniform
#else
  {  // one sample: no loop (a one-trip loop compiles to other SPIR-V than the builds timed in run 37)
    const uint n = r;
#endif
    const uint base = (n * G + g) * MV;  // (n*C + g*CPG) / VEC: a group is contiguous
    const float K = K_OF(x_v[base]);
    VT d[SLOTS], dy[SLOTS];
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      const uint i = k * WG_SIZE + tid;
      d[k] = i < MV ? x_v[base + i] - K : VZERO;
      dy[k] = i < MV ? dy_v[base + i] : VZERO;
    }
    VT sd = VZERO;
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) sd += d[k];
    const float mean_t = wg_sum_d(hsum(sd)) / float(M);
    VT se2 = VZERO;
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      d[k] = k * WG_SIZE + tid < MV ? d[k] - mean_t : VZERO;  // e = d - m^ from here on
      se2 = fma(d[k], d[k], se2);
    }
    const float rstd = inversesqrt(wg_sum_e2(hsum(se2)) / float(M) + uintBitsToFloat(params.eps_bits));
#ifdef REREAD
    if (tid == 0u && params.batch > 1u) {
      const uint st = 2u * (n * G + g);
      part[st] = vec2(K, mean_t);
      part[st + 1u] = vec2(rstd, 0.0);
    }
#endif
    // Per element (= per channel): A = dy, B = dy * e; the group's sum w * (A, B).
    VT wa = VZERO, wb = VZERO;
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      const uint i = k * WG_SIZE + tid;
      if (i < MV) {
        const VT b = dy[k] * d[k];
        wa = fma(W_OF(k), dy[k], wa);
        wb = fma(W_OF(k), b, wb);
#if defined(STATS_ONLY)  // nothing per element: the apply stage forms it
#elif SAMPLES > 1
        acc_a[k] += dy[k];
        acc_b[k] += rstd * b;
#elif defined(REREAD)
        if (params.batch == 1u) {  // the products are grad_weight / grad_bias (c = g * M + i)
#if VEC == 4
          [[unroll]] for (uint j = 0; j < 4u; ++j) store_row(1u, base * 4u + 4u * i + j, vec2(rstd * b[j], dy[k][j]));
#else
          store_row(1u, base + i, vec2(rstd * b, dy[k]));
#endif
        }
#elif VEC == 4
        [[unroll]] for (uint j = 0; j < 4u; ++j) store_part(base * 4u + 4u * i + j, vec2(rstd * b[j], dy[k][j]));
#else
        store_part(base + i, vec2(rstd * b, dy[k]));
#endif
      }
    }
    const vec2 W = wg_sum_w(vec2(hsum(wa), hsum(wb)));
    const float cA = W.x / float(M);
    const float k2 = rstd * rstd * (W.y / float(M));
#ifdef STATS_ONLY
    if (tid == 0u) {
      const uint st = 4u * (n * G + g);
      part[st] = vec2(K, mean_t);
      part[st + 1u] = vec2(rstd, cA);
      part[st + 2u] = vec2(k2, 0.0);
    }
#else
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      const uint i = k * WG_SIZE + tid;
      if (i < MV) dx_v[base + i] = rstd * (weighted(W_OF(k), dy[k]) - (cA + k2 * d[k]));
    }
#endif
  }
#if SAMPLES > 1
  // Row r of part[] (row == channel's index in grad_weight where there is one row).
  const uint row0 = r * C + g * M;
  [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
    const uint i = k * WG_SIZE + tid;
    if (i < MV) {
#if VEC == 4
      [[unroll]] for (uint j = 0; j < 4u; ++j) store_row(rows, row0 + 4u * i + j, vec2(acc_b[k][j], acc_a[k][j]));
#else
      store_row(rows, row0 + i, vec2(acc_b[k], acc_a[k]));
#endif
    }
  }
#endif
}
