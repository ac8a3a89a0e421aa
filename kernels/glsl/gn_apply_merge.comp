#version 450
// Last stage of the gn_fused1 variants (batch 1): gn_fused's combine and apply in one
// dispatch. Each workgroup takes a block of one group's grad_input and merges that group's
// tile records itself (gn_combine.glsl's merge_group: TPG + CPG * P records, issued in one
// round trip, after this block's own x and grad_out loads so their latencies overlap); the
// group's first block also stores grad_weight / grad_bias, which with one sample are the
// group's per-row partials. The combine dispatch and its barrier (6.9-11.2 us in the stage
// times of H200 run 25e) go, for a few redundant record loads per block.
//
// grad_input = rstd * (w*dy - (cA + k2 * ((x - K) - mean))) with K the group's first element,
// the formula and numerics of gn_apply.comp's ENTRY_APPLY. Blocks run in reverse order:
// stage 1 read the tensor front to back, so its tail is what is still in L2.
#define PARAMS_BINDING 8
#include "gn_common.glsl"

#ifndef ITEMS
#error "define ITEMS (VT values per invocation)"
#endif

layout(std430, set = 0, binding = 0) readonly restrict buffer DyBuf { VT dy_v[]; };
layout(std430, set = 0, binding = 1) readonly restrict buffer XBuf { VT x_v[]; };
layout(std430, set = 0, binding = 2) readonly restrict buffer WBuf { float weight[]; };
layout(std430, set = 0, binding = 3) readonly restrict buffer TileBuf { vec2 tilerec[]; };
layout(std430, set = 0, binding = 4) readonly restrict buffer RowBuf { vec2 rowrec[]; };
layout(std430, set = 0, binding = 5) writeonly restrict buffer DxBuf { VT dx_v[]; };
layout(std430, set = 0, binding = 6) writeonly restrict buffer GwBuf { float grad_weight[]; };
layout(std430, set = 0, binding = 7) writeonly restrict buffer GbBuf { float grad_bias[]; };

// Batch 1: row n*C + c is channel c. Only the group's first block stores.
bool g_first_block;
#define MERGE_STORE_ROW(row, dw, db) \
  if (g_first_block) {               \
    grad_weight[row] = dw;           \
    grad_bias[row] = db;             \
  }
#define MERGE_ONLY
#define CB_BATCH 1u  // one record a round, as before run 47c (see gn_combine.glsl)
#include "gn_combine.glsl"

void main() {
  const uint C = params.channels, HW = params.spatial, G = params.num_groups;
  const uint CPG = C / G;
  const uint HWV = HW / VEC;
  const uint MV = CPG * HWV;  // the group's VT values
  const uint BPG = params.aux_hi.x;  // blocks per group
  const uint per_block = WG_SIZE * ITEMS;
  const uint total = params.batch * G * BPG;
  const uint id = linear_workgroup_id();
  if (id >= total) return;  // idle workgroups of a folded dispatch (whole workgroups)
  const uint rid = total - 1u - id;
  const uint ng = rid / BPG, b = rid % BPG;
  const uint g = ng % G;
  const uint group_base = (ng / G * C + g * CPG) * HWV;
  const uint first = b * per_block + gl_LocalInvocationID.x;

  VT xs[ITEMS], dys[ITEMS];
  [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
    const uint i = first + k * WG_SIZE;
    if (i < MV) {
      xs[k] = x_v[group_base + i];
      dys[k] = dy_v[group_base + i];
    }
  }
#if VEC == 4
  const float K = x_v[group_base].x;
#else
  const float K = x_v[group_base];
#endif
  g_first_block = b == 0u;
  const GroupCoef gc = merge_group(ng);
  [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
    const uint i = first + k * WG_SIZE;
    if (i < MV) {
      const float w = weight[g * CPG + i / HWV];
      dx_v[group_base + i] = gc.rstd * (weighted(w, dys[k]) - (gc.cA + gc.k2 * ((xs[k] - K) - gc.mean)));
    }
  }
}
