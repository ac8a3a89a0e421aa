#version 450
// Stage 1 of gn_onchip2_v4_896: the on-chip kernel of gn_onchip2_sg.comp (one workgroup per
// (n, group) holds x and grad_out in registers, 3T of traffic, per-subgroup statistics and
// one barrier) for groups of long rows, with two changes that H200 run 20 measured:
//  - The group is one contiguous range of vec4 cut into equal spans, one per subgroup, with
//    no half-empty chunks at row ends. A span touches at most two rows (`when`:
//    KQ * SUBGROUP <= HW / 4), A (its first) and B (the next), so each subgroup keeps two
//    segment sums. 896 invocations x 7 vec4 slots hold resnet50gn_256x56x56's group exactly,
//    with 72 registers per invocation instead of 1024's 64.
//  - The subgroup records are merged at subgroup 0's mean c in one reduction instead of two
//    (mean first, then M2 about it): A = sum n_s (mean_s - c), B = sum M2_s + n_s (mean_s -
//    c)^2, mean = c + A/M, M2 = B - A^2/M. The cancellation is bounded: c is the mean of
//    n_0 >= M / (spans) elements, so M (mean - c)^2 <= (M / n_0) M2, at most the number of
//    spans times M2. The weighted row sums move to the group mean the same way.
// resnet50gn_256x56x56 hot: 94.3 us with gn_onchip2_v4_1024 -> 91.6 (90.3 with the dwdb
// stage's single batch of loads); sd_unet_640x32x32 29.5 -> 28.2.
#define PARAMS_BINDING 7
#include "gn_common.glsl"
#include "gn_part.glsl"
#ifndef DY_SHARED
#define DY_SHARED 0
#endif
layout(std430, set = 0, binding = 0) readonly buffer DyBuf { VT dy_v[]; };
layout(std430, set = 0, binding = 1) readonly buffer XBuf { VT x_v[]; };
layout(std430, set = 0, binding = 2) readonly buffer WBuf { float weight[]; };
layout(std430, set = 0, binding = 3) writeonly buffer DxBuf { VT dx_v[]; };
shared vec4 s_seg[NUM_SG];   // (sum dy, sum dy*(d - mean_s)) of rows A (xy) and B (zw)
shared vec3 s_stat[NUM_SG];  // (n_s, mean_s, M2_s)
shared float s_w[1024];
#if DY_SHARED > 0
shared VT s_dy[DY_SHARED * WG_SIZE];
#define DYV(k) ((k) < DY_SHARED ? s_dy[(k) * WG_SIZE + gl_LocalInvocationID.x] : dy[k])
#else
#define DYV(k) dy[k]
#endif

// Row A of subgroup i's span: the row of its first value (the last row for idle subgroups).
uint span_row(uint i, uint SPAN, uint HWV, uint CPG) { return min((i * SPAN) / HWV, CPG - 1u); }

void group_kernel(const uint ng) {
  const uint C = params.channels, HW = params.spatial, G = params.num_groups;
  const uint CPG = C / G;
  const uint HWV = HW / VEC;
  const uint GV = CPG * HWV;  // the group's VT values
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
  const uint KQ = (Q + NUM_SG - 1) / NUM_SG;  // slots per subgroup
  const uint SPAN = KQ * SUBGROUP_SIZE;
  const uint v0 = s * SPAN;
  const uint rA = span_row(s, SPAN, HWV, CPG);
  const uint bnd = (rA + 1u) * HWV;  // first value of row B

  // Load: every slot's loads are issued before any is used.
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

  // This subgroup's statistics: its mean, then sums centred on it (two-pass; the rounded
  // mean's error adds n_s * error^2 to M2_s, second order).
  VT acc = VZERO;
  [[unroll]] for (uint k = 0; k < SLOTS; ++k) acc += d[k];
  const float cnt = float(VEC * bitCount(valid));
  const vec2 sc = subgroupAdd(vec2(hsum(acc), cnt));
  const float mhat = sc.y > 0.0 ? sc.x / sc.y : 0.0;
  {
    VT se2 = VZERO;
    vec4 seg = vec4(0.0);  // rows A (xy) and B (zw)
    VT t[SLOTS];  // grad_out, read (from registers or shared memory) before any use
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) t[k] = DYV(k);
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      if (k < KQ) {  // uniform in the subgroup, as are the row tests but the last
        const VT e = ((valid >> k) & 1u) != 0u ? d[k] - mhat : VZERO;
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
    const vec4 S = subgroupAdd(seg);
    const float m2 = subgroupAdd(hsum(se2));
    if (subgroupElect()) {
      s_stat[s] = vec3(sc.y, mhat, m2);
      s_seg[s] = S;
    }
  }
  barrier();  // the only one: publishes s_stat, s_seg and s_w

  // Merge in every subgroup, lane i taking subgroup i's record, at c = subgroup 0's mean:
  // (A, B, sum w*dy, sum w*dy*(d - c)) in one reduction, then moved to the group mean.
  const uint nact = min(NUM_SG, (GV + SPAN - 1) / SPAN);  // subgroups with values
  const float c = s_stat[0].y;
  vec4 t4 = vec4(0.0);
  for (uint i = lane; i < nact; i += SUBGROUP_SIZE) {
    const vec3 st = s_stat[i];
    const vec4 sg = s_seg[i];
    const uint ra = span_row(i, SPAN, HWV, CPG);
    const float wa = s_w[ra], wb = ra + 1u < CPG ? s_w[ra + 1u] : 0.0;
    const float dm = st.y - c;
    t4 += vec4(st.x * dm, st.z + st.x * dm * dm, wa * sg.x + wb * sg.z,
               wa * (sg.y + dm * sg.x) + wb * (sg.w + dm * sg.z));
  }
  const vec4 T4 = subgroupAdd(t4);
  const float off = T4.x / M;
  const float mean = c + off;
  const vec3 T = vec3(T4.y - off * T4.x, T4.z, T4.w - off * T4.z);
  const float rstd = inversesqrt(max(T.x, 0.0) / M + uintBitsToFloat(params.eps_bits));
  // grad_input = rstd * (w*dy - mean(w*dy) - rstd^2 * mean(w*dy*(x-mean)) * (x-mean)), in
  // this form so that w*dy - mean(w*dy) is exactly 0 for one-element groups.
  const float cA = T.y / M;
  const float k2 = rstd * rstd * (T.z / M);
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
  // After grad_input's stores: nothing waits on part[]. Row rr's totals from the subgroups
  // whose span touches it, in subgroup order, each moved to the group mean.
  for (uint rr = gl_LocalInvocationID.x; rr < CPG; rr += WG_SIZE) {
    const uint s1 = (rr * HWV) / SPAN, s2 = min(nact - 1u, ((rr + 1u) * HWV - 1u) / SPAN);
    vec2 tot = vec2(0.0);
    for (uint i = s1; i <= s2; ++i) {
      const vec4 sg = s_seg[i];
      const float dm = s_stat[i].y - mean;
      const vec2 a = span_row(i, SPAN, HWV, CPG) == rr ? sg.xy : sg.zw;
      tot += vec2(a.x, a.y + dm * a.x);
    }
    store_part(group_row + rr, vec2(rstd * tot.y, tot.x));
  }
}

void main() {
  // One group per workgroup (idle workgroups of a folded dispatch skip the loop).
  const uint total = params.batch * params.num_groups;
  const uint nwg = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
  [[dont_unroll]] for (uint ng = linear_workgroup_id(); ng < total; ng += nwg) group_kernel(ng);
}
