#version 450
// Stage 2 of the gn_fused variants: one workgroup per (n, group) merges the tile records of
// gn_tile.comp (ENTRY_PARTIALS); see gn_combine.glsl. Built with the tile stage's VEC.
#define PARAMS_BINDING 6
#include "gn_common.glsl"

layout(std430, set = 0, binding = 0) readonly restrict buffer XBuf { float x[]; };
layout(std430, set = 0, binding = 1) readonly restrict buffer WBuf { float weight[]; };
layout(std430, set = 0, binding = 2) readonly restrict buffer TileBuf { vec2 tilerec[]; };  // (mean of d, M2)
layout(std430, set = 0, binding = 3) readonly restrict buffer RowBuf { vec2 rowrec[]; };    // (A, B) per row piece
layout(std430, set = 0, binding = 4) writeonly restrict buffer PartBuf { vec2 part[]; };
layout(std430, set = 0, binding = 5) writeonly restrict buffer CoefBuf { vec4 coef[]; };  // [N*C][2]

#include "gn_combine.glsl"

void main() {
  const uint ng = linear_workgroup_id();
  if (ng >= params.batch * params.num_groups) return;
  const uint CPG = params.channels / params.num_groups;
  combine_group(ng, x[(ng / params.num_groups * params.channels + ng % params.num_groups * CPG) * params.spatial]);
}
