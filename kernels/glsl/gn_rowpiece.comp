#version 450
// Stage 1 of gn_fused_rp: gn_tile.comp's ENTRY_PARTIALS for rows of any length that are at
// least a tile long (one row per tile, R = 1), read as vec4 even when HW % 4 != 0. The scalar
// tile stage issues four times the loads and arithmetic per byte and took 95.6 us on
// 1x512x49999/512 where the vec4 one takes 55.5 on 1x512x50000 (H200 run 25e); rows whose
// start is not 16-byte aligned are what left such shapes to it.
//
// Tile t of group (n, g) is piece p of row rr (t = rr * P + p): scalar columns
// [p * JP * SUBGROUP_SIZE, min((p + 1) * JP * SUBGROUP_SIZE, HW)), the geometry of the scalar
// gn_fused builds, so gn_combine.comp (VEC 1) merges the records as it does theirs. The piece
// is one contiguous range of the flat tensor; each invocation loads the aligned vec4 that
// cover it, every VT_SLOTS-th, and masks the elements outside. Records as ENTRY_PARTIALS:
// tilerec = (m^, M2) of d = x - K (K the group's first element; two-pass with the rounded
// m^ as the tile mean), rowrec = (sum dy, sum dy * (d - m^)); every sum in a fixed order.
//
// ROW_PER_SUBGROUP: each subgroup is a tile of its own, one whole row (P == 1, the row within
// SUBGROUP_SIZE * VT_SLOTS vec4), so a workgroup holds NUM_SG rows and its sums are subgroup
// sums only: no barrier. For rows of a few hundred elements, where a workgroup per row leaves
// most invocations with one vec4 or none.
//
// TEAM (1, 2, 4 or 8; the gn_fused_rp_t* builds): each team of TEAM lanes of a subgroup is a
// tile of its own, one whole row (P == 1, the row within TEAM * VT_SLOTS vec4), its sums
// gn_team_sum.glsl's butterfly within the team. For rows of at most 156 elements in groups too
// large for the on-chip builds (the manifest's bands), which one row per subgroup leaves to a
// few lanes and the scalar gn_fused loads in 32-element chunks of one row each.
//
// LAST_WG (the gn_fused_rp2s* builds): a counter per (n, g) counts its finished tiles (a
// workgroup adds its tiles of each group it touches: one, or for the one-row-per-subgroup and
// per-team builds its rows of one or two large groups, or of several small ones), and the
// workgroup that completes a group merges it in the same dispatch (gn_piece_merge.glsl, one
// record per tile, in parallel) and stores (mean, rstd, cA, k2) in gstat[n*G + g] for the
// apply stage (gn_apply_rpmerge.comp GROUP_STATS): no combine dispatch, and a short tail of
// one round of record loads and two workgroup sums. Results do not depend on which workgroup
// is last: the merge reads every record in a fixed order.
#ifndef LAST_WG
#define LAST_WG 0
#endif
#ifdef TEAM
#extension GL_KHR_shader_subgroup_shuffle : require
#endif
#if LAST_WG
#define PARAMS_BINDING 7
#define REC_QUAL coherent restrict
#else
#define PARAMS_BINDING 4
#define REC_QUAL writeonly restrict
#endif
#include "gn_common.glsl"

#ifndef VT_SLOTS
#error "define VT_SLOTS (vec4 per invocation: a piece's vec4, plus one for misalignment)"
#endif

layout(std430, set = 0, binding = 0) readonly restrict buffer DyBuf { vec4 dy_v[]; };
layout(std430, set = 0, binding = 1) readonly restrict buffer XBuf { vec4 x_v[]; };
layout(std430, set = 0, binding = 2) REC_QUAL buffer TileBuf { vec2 tilerec[]; };  // [N*G*TPG]
layout(std430, set = 0, binding = 3) REC_QUAL buffer RowBuf { vec2 rowrec[]; };    // [N*C*P]
#if LAST_WG
layout(std430, set = 0, binding = 4) coherent restrict buffer CountBuf { uint counter[]; };  // [N*G]
layout(std430, set = 0, binding = 5) readonly restrict buffer WBuf { float weight[]; };
layout(std430, set = 0, binding = 6) writeonly restrict buffer StatBuf { vec4 gstat[]; };  // [N*G]
shared bool s_last;
#include "gn_last_wg.glsl"
#define MREC 4
#include "gn_piece_merge.glsl"
#endif

#if defined(TEAM)
#define TILES_PER_WG (WG_SIZE / TEAM)
#elif defined(ROW_PER_SUBGROUP)
#define TILES_PER_WG NUM_SG
#else
#define TILES_PER_WG 1u
#endif

#if defined(TEAM)
#include "gn_team_sum.glsl"
DEFINE_TEAM_SUM(float)
DEFINE_TEAM_SUM(vec3)
#define TILE_SUM(v) team_sum(v)
#define TILE_SUM_D(v) team_sum(v)
// Teams are built from subgroup ids, so a team's lanes share a subgroup.
#define TILE_ID ((linear_workgroup_id() * NUM_SG + gl_SubgroupID) * (SUBGROUP_SIZE / TEAM) + gl_SubgroupInvocationID / TEAM)
#define TILE_LANE (gl_SubgroupInvocationID % TEAM)
#define TILE_WIDTH TEAM
#define TILE_LEADER (TILE_LANE == 0u)
#elif defined(ROW_PER_SUBGROUP)
#define TILE_SUM(v) subgroupAdd(v)
#define TILE_SUM_D(v) subgroupAdd(v)
#define TILE_ID (linear_workgroup_id() * NUM_SG + gl_SubgroupID)
#define TILE_LANE gl_SubgroupInvocationID
#define TILE_WIDTH SUBGROUP_SIZE
#define TILE_LEADER subgroupElect()
#else
DEFINE_WG_SUM(wg_sum_d, float, 0.0)
DEFINE_WG_SUM(wg_sum_rec, vec3, vec3(0.0))
#define TILE_SUM(v) wg_sum_rec(v)
#define TILE_SUM_D(v) wg_sum_d(v)
#define TILE_ID linear_workgroup_id()
#define TILE_LANE gl_LocalInvocationID.x
#define TILE_WIDTH WG_SIZE
#define TILE_LEADER (gl_LocalInvocationID.x == 0u)
#endif

float element(uint f) { return x_v[f >> 2u][f & 3u]; }

// One tile's records (its mean and M2, its row piece's sums).
void tile_partials(uint tile_id) {
  const uint C = params.channels, HW = params.spatial, G = params.num_groups;
  const uint CPG = C / G;
  const uint P = params.aux_lo.y, JP = params.aux_lo.z, TPG = params.aux_lo.w;

  // Idle workgroups of a folded dispatch (and, one row per subgroup or team, the subgroups or
  // teams past the last row: whole teams, whose shuffles read only their own lanes).
  if (tile_id >= params.batch * G * TPG) return;
  const uint ng = tile_id / TPG, t = tile_id % TPG;
  const uint n = ng / G, g = ng % G;
  const uint rr = t / P, p = t % P;
  const uint group_row = n * C + g * CPG;
  const uint row = group_row + rr;
  // The piece in flat scalar indices, and the vec4 that cover it.
  const uint lo = row * HW + p * JP * SUBGROUP_SIZE;
  const uint hi = row * HW + min((p + 1u) * JP * SUBGROUP_SIZE, HW);
  const uint v0 = lo >> 2u, v1 = (hi + 3u) >> 2u;
  const float cnt = float(hi - lo);
  const float K = element(group_row * HW);
  const uint E = params.batch * C * HW;

  vec4 d[VT_SLOTS], dy[VT_SLOTS];
  bvec4 in_piece[VT_SLOTS];
  [[unroll]] for (uint k = 0; k < VT_SLOTS; ++k) {
    const uint v = v0 + k * TILE_WIDTH + TILE_LANE;
    const uvec4 f = uvec4(4u * v) + uvec4(0u, 1u, 2u, 3u);
    in_piece[k] = bvec4(uvec4(greaterThanEqual(f, uvec4(lo))) & uvec4(lessThan(f, uvec4(hi))));
    d[k] = vec4(0.0);
    dy[k] = vec4(0.0);
    if (v < v1) {
      if (4u * v + 3u < E) {
        d[k] = x_v[v];
        dy[k] = dy_v[v];
      } else {  // the tensor's last vec4 is partial: no load past its end
        for (uint c = 0; c < 4u; ++c)
          if (4u * v + c < E) {
            d[k][c] = x_v[v][c];
            dy[k][c] = dy_v[v][c];
          }
      }
    }
  }
  // Pass 1: the tile mean of d (elements outside the piece selected out, not multiplied:
  // a neighbour's value never reaches a sum).
  float sd = 0.0;
  [[unroll]] for (uint k = 0; k < VT_SLOTS; ++k) {
    d[k] = mix(vec4(0.0), d[k] - K, in_piece[k]);
    dy[k] = mix(vec4(0.0), dy[k], in_piece[k]);
    sd += hsum(d[k]);
  }
  const float mean_t = TILE_SUM_D(sd) / cnt;
  // Pass 2: M2, sum dy, sum dy*e with e = d - m^ (0 outside the piece).
  vec3 acc = vec3(0.0);
  [[unroll]] for (uint k = 0; k < VT_SLOTS; ++k) {
    const vec4 e = mix(vec4(0.0), d[k] - mean_t, in_piece[k]);
    acc += vec3(hsum(e * e), hsum(dy[k]), hsum(dy[k] * e));
  }
  const vec3 tot = TILE_SUM(acc);
  if (TILE_LEADER) {
    tilerec[tile_id] = vec2(mean_t, tot.x);
    rowrec[row * P + p] = tot.yz;
  }
}

void main() {
  tile_partials(TILE_ID);
#if LAST_WG
  // This workgroup's tiles [first, last], counted to each group they lie in (uniform).
  const uint TPG = params.aux_lo.w, total = params.batch * params.num_groups * TPG;
  const uint first = linear_workgroup_id() * TILES_PER_WG;
  if (first >= total) return;
  const uint last = min(first + TILES_PER_WG, total) - 1u;
  for (uint ng = first / TPG; ng <= last / TPG; ++ng) {
    const uint lo = max(first, ng * TPG), hi = min(last, ng * TPG + TPG - 1u);
    if (arrive_last_n(ng, hi - lo + 1u, TPG)) {  // s_last is uniform: the merge's barriers are fine
      const GroupCoef gc = merge_tiles(ng);
      if (gl_LocalInvocationID.x == 0u) gstat[ng] = vec4(gc.mean, gc.rstd, gc.cA, gc.k2);
    }
  }
#endif
}
