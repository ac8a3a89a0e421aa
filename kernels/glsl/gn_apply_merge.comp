#version 450
// Stage 2 of the gn_split variants: grad_input straight from the tile records of
// gn_tile.comp (ENTRY_PARTIALS), with no combine dispatch in between. Every workgroup
// owns one block of ITEMS * WG_SIZE VT values of one (n, group) and merges that group's
// records itself (merge_group() of gn_combine.glsl: TPG tile records and CPG * P row
// records, a few KB read from L2, their latency hidden behind the block's own loads).
// The merge is the same fixed-order code in every workgroup of a group, so all of them
// use bitwise the same mean, rstd, cA and k2.
//
// grad_weight / grad_bias: the first N*G workgroups (one "lead" per group, dispatched
// first) also write the group's per-(n, c) records part[] and count themselves; the lead
// that counts last sums part[] over n (gn_dwdb.glsl) while the other blocks still run.
// No workgroup waits on another, and the sums over n are in n order: deterministic.
//
// Block order: leads take the last block of each group, the rest run from the end of the
// tensor backwards, since the end is what stage 1 left in L2.
#define PARAMS_BINDING 10
#include "gn_common.glsl"

#ifndef ITEMS
#error "define ITEMS (VT values per invocation)"
#endif

layout(std430, set = 0, binding = 0) readonly restrict buffer DyBuf { VT dy_v[]; };
layout(std430, set = 0, binding = 1) readonly restrict buffer XBuf { VT x_v[]; };
layout(std430, set = 0, binding = 2) readonly restrict buffer WBuf { float weight[]; };
layout(std430, set = 0, binding = 3) readonly restrict buffer TileBuf { vec2 tilerec[]; };  // (mean d, M2)
layout(std430, set = 0, binding = 4) readonly restrict buffer RowBuf { vec2 rowrec[]; };    // (A, B)
layout(std430, set = 0, binding = 5) coherent restrict buffer PartBuf { vec2 part[]; };     // [N*C]
layout(std430, set = 0, binding = 6) coherent restrict buffer CountBuf { uint counter[]; };  // [1]
layout(std430, set = 0, binding = 7) writeonly restrict buffer DxBuf { VT dx_v[]; };
layout(std430, set = 0, binding = 8) writeonly restrict buffer GwBuf { float grad_weight[]; };
layout(std430, set = 0, binding = 9) writeonly restrict buffer GbBuf { float grad_bias[]; };

#include "gn_combine.glsl"
#include "gn_dwdb.glsl"

shared bool s_last;

void main() {
  const uint C = params.channels, G = params.num_groups, CPG = C / G;
  const uint HWV = params.spatial / VEC;
  const uint NG = params.batch * G;
  const uint L = CPG * HWV;  // VT values per group
  const uint per_block = WG_SIZE * ITEMS;
  const uint nb = (L + per_block - 1u) / per_block;
  const uint wg = linear_workgroup_id();
  if (wg >= NG * nb) return;  // idle workgroups of a folded dispatch
  const bool lead = wg < NG;
  uint ng, b;
  if (lead) {
    ng = NG - 1u - wg;
    b = nb - 1u;
  } else {
    const uint lin = NG * (nb - 1u) - 1u - (wg - NG);
    ng = lin / (nb - 1u);
    b = lin % (nb - 1u);
  }
  const uint g = ng % G;
  const uint group_base = ((ng / G) * C + g * CPG) * HWV;
  const uint first = b * per_block + gl_LocalInvocationID.x;  // within the group

  // The block's loads first (and its weights), then the records: all in flight together.
  VT xs[ITEMS], dys[ITEMS];
  float ws[ITEMS];
  [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
    const uint i = first + k * WG_SIZE;
    if (i < L) {
      xs[k] = x_v[group_base + i];
      dys[k] = dy_v[group_base + i];
      ws[k] = weight[g * CPG + i / HWV];
    }
  }
#if VEC == 4
  const float K = x_v[group_base].x;
#else
  const float K = x_v[group_base];
#endif
  const GroupCoef gc = merge_group(ng, lead);

  // Leads publish part[] before storing grad_input (a fence after the stores would wait
  // for them to drain); the count's result is read after the stores.
  uint arrived = 0u;
  if (lead) {
    memoryBarrierBuffer();
    barrier();
    if (gl_LocalInvocationID.x == 0u) arrived = atomicAdd(counter[0], 1u);
  }
  [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
    const uint i = first + k * WG_SIZE;
    if (i < L) dx_v[group_base + i] = gc.rstd * (ws[k] * dys[k] - (gc.cA + gc.k2 * ((xs[k] - K) - gc.mean)));
  }
  if (!lead) return;
  if (gl_LocalInvocationID.x == 0u) {
    s_last = arrived == NG - 1u;
    if (s_last) counter[0] = 0u;  // ready for the next run
  }
  barrier();
  if (s_last) {
    memoryBarrierBuffer();  // the other leads' records after the count
    for (uint c = gl_LocalInvocationID.x; c < C; c += WG_SIZE) reduce_dwdb(c);
  }
}
