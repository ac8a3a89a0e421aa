#version 450
// grad_weight / grad_bias for any batch size: workgroup (x, y) sums the per-(n, c) partials
// of channel block x (CB = WG_SIZE / ROW_LANES channels) over the rows n of chunk y (NB
// rows, params 0) into part2[y][c]; the last chunk of each channel block to finish sums the
// NCH (params 1) chunks in order. ROW_LANES invocations share a channel, each taking every
// ROW_LANES-th row of the chunk, so that a chunk costs NB / ROW_LANES / BATCH dependent load
// rounds instead of NB / BATCH (one invocation per channel waits on a round trip per BATCH
// rows: large batches with few channels left most of the GPU idle). ROW_LANES 1 is the
// one-invocation-per-channel form.
// Every sum runs in a fixed order (a lane's rows in n order, the lanes in lane order, the
// chunks in chunk order), so the result does not depend on which workgroup is last: bitwise
// reproducible. The counters are zero-filled by the runtime and reset by the last workgroup.
// SAMPLES_PER_ROW: the group stage already summed that many samples into each row of part[]
// (gn_flat.comp), so there are ceil(N / SAMPLES_PER_ROW) rows.
// REREAD (spatial 1 only): no per-(n, c) partials; part[] holds each (n, g)'s (K, m^) and
// (rstd, 0) from gn_flat.comp, and a row's (rstd * dy * e, dy) is formed here from x and
// grad_out, with e = (x - K) - m^ as the group stage formed it. The partials at spatial 1 are
// as large as x and grad_out: writing then reading them moved 4T, reading x and dy again 2T.
// APPLY (spatial 1, with REREAD; gn_flat_apply.glsl): part[] holds gn_flat.comp's STATS_ONLY
// records, and each row read here also yields that element's grad_input, so one read of x and
// grad_out serves grad_input and grad_weight / grad_bias (gn_flatap).
#define PARAMS_BINDING 5
#include "gn_common.glsl"

#ifndef ROW_LANES
#define ROW_LANES 1
#endif
#define CB (WG_SIZE / ROW_LANES)
#ifndef BATCH
#define BATCH 8u
#endif
#if (WG_SIZE % ROW_LANES) != 0
#error "WG_SIZE must be a multiple of ROW_LANES"
#endif

layout(std430, set = 0, binding = 0) readonly restrict buffer PartBuf { vec2 part[]; };  // [N*C]
layout(std430, set = 0, binding = 1) coherent restrict buffer Part2Buf { vec2 part2[]; };  // [NCH*C]
layout(std430, set = 0, binding = 2) coherent restrict buffer CountBuf { uint counter[]; };  // [ceil(C/CB)]
layout(std430, set = 0, binding = 3) writeonly restrict buffer GwBuf { float grad_weight[]; };
layout(std430, set = 0, binding = 4) writeonly restrict buffer GbBuf { float grad_bias[]; };
#ifdef REREAD
layout(std430, set = 0, binding = 6) readonly restrict buffer DyBuf { float dy_s[]; };
layout(std430, set = 0, binding = 7) readonly restrict buffer XBuf { float x_s[]; };
#ifdef APPLY
#include "gn_flat_apply.glsl"
#else

// (rstd * dy * e, dy) of element (n, c) of group g (see REREAD above).
vec2 reread(uint n, uint c, uint g, uint C, uint G) {
  const uint s = n * G + g;
  const vec2 km = part[2u * s];
  const float rstd = part[2u * s + 1u].x;
  const float dy = dy_s[n * C + c];
  const float e = (x_s[n * C + c] - km.x) - km.y;
  return vec2(rstd * (dy * e), dy);
}
#endif
#endif

shared bool s_last;
shared vec2 s_lane[ROW_LANES][CB];

// Sum of lane r's rows n = N0 + r, N0 + r + LANES, ... < N1, row n's value AT(n). LANES is
// ROW_LANES, or 1 where the rows fit one batch (no lanes to merge: no shared memory, no
// barrier; run 31 measured the row lanes 1-4 % slower than one invocation at N = 2).
#define LANE_SUM(AT, N0, N1, LANES, r, OUT)                                                     \
  {                                                                                             \
    OUT = vec2(0.0);                                                                            \
    for (uint n = (N0) + (r); n < (N1); n += BATCH * (LANES)) {                                 \
      vec2 v[BATCH]; /* loads in flight together, summed in n order */                          \
      [[unroll]] for (uint k = 0; k < BATCH; ++k) {                                             \
        const uint m = n + k * (LANES);                                                         \
        v[k] = m < (N1) ? AT(m) : vec2(0.0);                                                    \
      }                                                                                         \
      [[unroll]] for (uint k = 0; k < BATCH; ++k) OUT += v[k];                                  \
    }                                                                                           \
  }

uint lanes_for(uint rows) { return rows <= BATCH ? 1u : ROW_LANES; }

// Lane 0 of each channel gets the lanes' sums added in lane order; uniform control flow.
vec2 lanes_total(vec2 mine, uint lanes, uint cl, uint r) {
  if (lanes == 1u) return mine;
  s_lane[r][cl] = mine;
  barrier();
  vec2 t = vec2(0.0);
  if (r == 0u)
    for (uint k = 0; k < ROW_LANES; ++k) t += s_lane[k][cl];
  return t;
}

void main() {
#ifdef SAMPLES_PER_ROW  // the group stage summed that many samples into each row of part[]
  const uint C = params.channels, N = (params.batch + SAMPLES_PER_ROW - 1u) / SAMPLES_PER_ROW;
#else
  const uint C = params.channels, N = params.batch;
#endif
  const uint NB = params.aux_lo.x, NCH = params.aux_lo.y;
  const uint cb = gl_WorkGroupID.x, chunk = gl_WorkGroupID.y;
  const uint cl = gl_LocalInvocationID.x % CB, r = gl_LocalInvocationID.x / CB;
  const uint c = cb * CB + cl;
  const uint n0 = chunk * NB, n1 = min(N, n0 + NB);
  const uint lanes = lanes_for(n1 - n0);  // uniform
  vec2 acc = vec2(0.0);
#if defined(APPLY)
  const uint G = params.num_groups, M = C / G, g0 = (cb * CB) / M;
  load_records(n0, n1, g0, G);
  if (c < C && r < lanes) acc = apply_rows(n0, n1, lanes, r, c, C, c / M - g0, w_s[c]);
#else
#ifdef REREAD
  const uint G = params.num_groups, g = c / (C / G);
#define ROW_AT(m) reread(m, c, g, C, G)
#else
#define ROW_AT(m) part[(m) * C + c]
#endif
  if (c < C && r < lanes) LANE_SUM(ROW_AT, n0, n1, lanes, r, acc);
#endif
  acc = lanes_total(acc, lanes, cl, r);
  if (NCH == 1u) {  // uniform: one chunk is the whole sum
    if (c < C && r == 0u) {
      grad_weight[c] = acc.x;
      grad_bias[c] = acc.y;
    }
    return;
  }
  if (c < C && r == 0u) part2[chunk * C + c] = acc;
  memoryBarrierBuffer();  // this invocation's record before the count
  barrier();
  if (gl_LocalInvocationID.x == 0u) {
    const bool last = atomicAdd(counter[cb], 1u) == NCH - 1u;
    if (last) counter[cb] = 0u;  // ready for the next run
    s_last = last;
  }
  barrier();
  memoryBarrierBuffer();  // the other chunks' records after the count
  if (!s_last) return;  // uniform across the workgroup
  const uint chunk_lanes = lanes_for(NCH);
  vec2 tot = vec2(0.0);
#define CHUNK_AT(m) part2[(m) * C + c]
  if (c < C && r < chunk_lanes) LANE_SUM(CHUNK_AT, 0u, NCH, chunk_lanes, r, tot);
  barrier();  // s_lane is reused
  tot = lanes_total(tot, chunk_lanes, cl, r);
  if (c < C && r == 0u) {
    grad_weight[c] = tot.x;
    grad_bias[c] = tot.y;
  }
}
