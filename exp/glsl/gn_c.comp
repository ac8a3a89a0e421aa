#version 450
// Experiment: the on-chip kernel of gn_onchip2_sg.comp with the group as one contiguous
// range of vec4 (no half-empty chunks at row ends), each subgroup's range touching at most
// two rows (A = its first row, B = the next; `when`: KQ * SUBGROUP <= HWV).
//  LANE_STATS 1: each lane's own mean, lanes merged at lane 0's mean (no subgroup reduction
//    before the centred loop).
//  MERGE_REF 1: the subgroup records merged at subgroup 0's mean in one reduction.
//  NO_STORE 1: timing only (grad_input not written).
#define PARAMS_BINDING 5
#include "../../kernels/glsl/gn_common.glsl"
#extension GL_KHR_shader_subgroup_ballot : require
#ifndef DY_SHARED
#define DY_SHARED 0
#endif
#ifndef LANE_STATS
#define LANE_STATS 0
#endif
#ifndef MERGE_REF
#define MERGE_REF 0
#endif
layout(std430, set = 0, binding = 0) readonly buffer DyBuf { VT dy_v[]; };
layout(std430, set = 0, binding = 1) readonly buffer XBuf { VT x_v[]; };
layout(std430, set = 0, binding = 2) readonly buffer WBuf { float weight[]; };
layout(std430, set = 0, binding = 3) writeonly buffer DxBuf { VT dx_v[]; };
layout(std430, set = 0, binding = 4) writeonly buffer PartBuf { vec2 part[]; };
shared vec4 s_seg[NUM_SG];   // (sum dy, sum dy*(d - mean_s)) of rows A and B
shared vec3 s_stat[NUM_SG];  // (n_s, mean_s, M2_s)
shared float s_w[1024];
#if DY_SHARED > 0
shared VT s_dy[DY_SHARED * WG_SIZE];
#define DYV(k) ((k) < DY_SHARED ? s_dy[(k) * WG_SIZE + gl_LocalInvocationID.x] : dy[k])
#else
#define DYV(k) dy[k]
#endif

void group_kernel(const uint ng) {
  const uint C = params.channels, HW = params.spatial, G = params.num_groups;
  const uint CPG = C / G;
  const uint HWV = HW / VEC;
  const uint GV = CPG * HWV;
  const uint n = ng / G, g = ng % G;
  const float M = float(CPG * HW);
  const uint group_row = n * C + g * CPG;
  const uint base = group_row * HWV;
  const float w_pre = gl_LocalInvocationID.x < CPG ? weight[g * CPG + gl_LocalInvocationID.x] : 0.0;
#if VEC == 4
  const float K = x_v[base].x;
#else
  const float K = x_v[base];
#endif
  const uint s = gl_SubgroupID, lane = gl_SubgroupInvocationID;
  const uint Q = (GV + SUBGROUP_SIZE - 1) / SUBGROUP_SIZE;
  const uint KQ = (Q + NUM_SG - 1) / NUM_SG;
  const uint SPAN = KQ * SUBGROUP_SIZE;
  const uint v0 = s * SPAN;
  const uint rA = min(v0 / HWV, CPG - 1u);
  const uint bnd = (rA + 1u) * HWV;  // first vec4 of row B

  uint valid = 0u;
  VT d[SLOTS];
  VT dy[SLOTS];
  [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
    const uint i = v0 + k * SUBGROUP_SIZE + lane;
    const bool ok = k < KQ && i < GV;
    if (ok) valid |= 1u << k;
    d[k] = ok ? x_v[base + i] - K : VZERO;
    dy[k] = ok ? dy_v[base + i] : VZERO;
  }
#if DY_SHARED > 0
  [[unroll]] for (uint k = 0; k < DY_SHARED; ++k) s_dy[k * WG_SIZE + gl_LocalInvocationID.x] = dy[k];
#endif
  if (gl_LocalInvocationID.x < CPG) s_w[gl_LocalInvocationID.x] = w_pre;
  for (uint rr = gl_LocalInvocationID.x + WG_SIZE; rr < CPG; rr += WG_SIZE) s_w[rr] = weight[g * CPG + rr];

  VT acc = VZERO;
  [[unroll]] for (uint k = 0; k < SLOTS; ++k) acc += d[k];
  const float cnt = float(VEC * bitCount(valid));
#if LANE_STATS
  const float m_l = cnt > 0.0 ? hsum(acc) / cnt : 0.0;
  const float mref = subgroupBroadcast(m_l, 0u);
#else
  const vec2 sc = subgroupAdd(vec2(hsum(acc), cnt));
  const float m_l = sc.y > 0.0 ? sc.x / sc.y : 0.0;
#endif
  {
    VT se2 = VZERO;
    vec4 seg = vec4(0.0);  // rows A (xy) and B (zw)
    VT t[SLOTS];
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) t[k] = DYV(k);
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      if (k < KQ) {
        const VT e = ((valid >> k) & 1u) != 0u ? d[k] - m_l : VZERO;
        se2 += e * e;
        const vec2 a = vec2(hsum(t[k]), hsum(t[k] * e));
        const uint lo = v0 + k * SUBGROUP_SIZE;
        if (lo + SUBGROUP_SIZE <= bnd) {
          seg.xy += a;
        } else if (lo >= bnd) {
          seg.zw += a;
        } else {
          const bool inA = lo + lane < bnd;
          seg.xy += inA ? a : vec2(0.0);
          seg.zw += inA ? vec2(0.0) : a;
        }
      }
    }
#if LANE_STATS
    const float dl = m_l - mref;
    seg.y += dl * seg.x;
    seg.w += dl * seg.z;
    const vec4 S = subgroupAdd(seg);
    const vec3 P = subgroupAdd(vec3(cnt * dl, hsum(se2) + cnt * dl * dl, cnt));
    if (subgroupElect()) {
      const float n_s = P.z;
      const float off = n_s > 0.0 ? P.x / n_s : 0.0;
      s_stat[s] = vec3(n_s, mref + off, max(P.y - off * P.x, 0.0));
      s_seg[s] = vec4(S.x, S.y - off * S.x, S.z, S.w - off * S.z);
    }
#else
    const vec4 S = subgroupAdd(seg);
    const float m2 = subgroupAdd(hsum(se2));
    if (subgroupElect()) {
      s_stat[s] = vec3(sc.y, m_l, m2);
      s_seg[s] = S;
    }
#endif
  }
  barrier();

  // Merge: lane i takes subgroup i's record (Chan; segments re-centred to the group mean).
  const uint nact = min(NUM_SG, (GV + SPAN - 1) / SPAN);
#if MERGE_REF
  const float c = s_stat[0].y;
  vec4 t4 = vec4(0.0);
  for (uint i = lane; i < nact; i += SUBGROUP_SIZE) {
    const vec3 st = s_stat[i];
    const vec4 sg = s_seg[i];
    const uint ra = min((i * SPAN) / HWV, CPG - 1u);
    const float wa = s_w[ra], wb = ra + 1u < CPG ? s_w[ra + 1u] : 0.0;
    const float dm = st.y - c;
    t4 += vec4(st.x * dm, st.z + st.x * dm * dm, wa * sg.x + wb * sg.z,
               wa * (sg.y + dm * sg.x) + wb * (sg.w + dm * sg.z));
  }
  const vec4 T4 = subgroupAdd(t4);
  const float off = T4.x / M;
  const float mean = c + off;
  const vec3 T = vec3(T4.y - off * T4.x, T4.z, T4.w - off * T4.z);
#else
  float tm = 0.0;
  for (uint i = lane; i < nact; i += SUBGROUP_SIZE) tm += s_stat[i].x * s_stat[i].y;
  const float mean = subgroupAdd(tm) / M;
  vec3 t3 = vec3(0.0);
  for (uint i = lane; i < nact; i += SUBGROUP_SIZE) {
    const vec3 st = s_stat[i];
    const vec4 sg = s_seg[i];
    const uint ra = min((i * SPAN) / HWV, CPG - 1u);
    const float wa = s_w[ra], wb = ra + 1u < CPG ? s_w[ra + 1u] : 0.0;
    const float dm = st.y - mean;
    t3 += vec3(st.z + st.x * dm * dm, wa * sg.x + wb * sg.z,
               wa * (sg.y + dm * sg.x) + wb * (sg.w + dm * sg.z));
  }
  const vec3 T = subgroupAdd(t3);
#endif
  const float rstd = inversesqrt(max(T.x, 0.0) / M + uintBitsToFloat(params.eps_bits));
  const float cA = T.y / M;
  const float k2 = rstd * rstd * (T.z / M);
#if !NO_STORE
  {
    const float wA = s_w[rA], wB = rA + 1u < CPG ? s_w[rA + 1u] : 0.0;
    VT t[SLOTS];
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) t[k] = DYV(k);
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      const uint i = v0 + k * SUBGROUP_SIZE + lane;
      if (((valid >> k) & 1u) != 0u)
        dx_v[base + i] = rstd * (weighted(i < bnd ? wA : wB, t[k]) - (cA + k2 * (d[k] - mean)));
    }
  }
#endif
  // part[] rows after the stores: row rr's totals from the subgroups whose range touches it.
  for (uint rr = gl_LocalInvocationID.x; rr < CPG; rr += WG_SIZE) {
    const uint s1 = (rr * HWV) / SPAN, s2 = min(nact - 1u, ((rr + 1u) * HWV - 1u) / SPAN);
    vec2 tot = vec2(0.0);
    for (uint i = s1; i <= s2; ++i) {
      const vec4 sg = s_seg[i];
      const float dm = s_stat[i].y - mean;
      const vec2 a = min((i * SPAN) / HWV, CPG - 1u) == rr ? sg.xy : sg.zw;
      tot += vec2(a.x, a.y + dm * a.x);
    }
    part[group_row + rr] = vec2(rstd * tot.y, tot.x);
  }
}

void main() {
  const uint total = params.batch * params.num_groups;
  const uint nwg = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
  [[dont_unroll]] for (uint ng = linear_workgroup_id(); ng < total; ng += nwg) group_kernel(ng);
}
