#version 450
// gn_pipe: gn_onchip2_sg.comp's on-chip kernel, persistent and software-pipelined: a
// workgroup takes groups from a counter, and while it stores one group's grad_input slot by
// slot it loads the next group's x and grad_out into the registers each store frees, so the
// next group's load latency hides behind this group's stores.
#define PARAMS_BINDING 6
#include "../../kernels/glsl/gn_common.glsl"
#ifndef DY_SHARED
#define DY_SHARED 0
#endif
#define QCAP (NUM_SG * SLOTS)
layout(std430, set = 0, binding = 0) readonly buffer DyBuf { VT dy_v[]; };
layout(std430, set = 0, binding = 1) readonly buffer XBuf { VT x_v[]; };
layout(std430, set = 0, binding = 2) readonly buffer WBuf { float weight[]; };
layout(std430, set = 0, binding = 3) writeonly buffer DxBuf { VT dx_v[]; };
layout(std430, set = 0, binding = 4) writeonly buffer PartBuf { vec2 part[]; };
// [0]: the next group to take. Zero before the first dispatch; the last workgroup to find
// the groups exhausted sets it back to zero.
layout(std430, set = 0, binding = 5) coherent buffer CtrBuf { uint ctr[]; };
shared vec2 s_seg[QCAP];
shared vec4 s_stat[NUM_SG];
shared uint s_first, s_next;
#define W_CAP (QCAP < 1024 ? QCAP : 1024)
shared float s_w[W_CAP];
#if DY_SHARED > 0
shared VT s_dy[DY_SHARED * WG_SIZE];
#define DYV(k) ((k) < DY_SHARED ? s_dy[(k) * WG_SIZE + gl_LocalInvocationID.x] : dy[k])
#else
#define DYV(k) dy[k]
#endif

vec2 row_total(uint rr, uint J, uint KQ, float mean) {
  const uint s1 = (rr * J) / KQ;
  vec2 a = s_seg[rr * J];
  vec2 tot = vec2(a.x, a.y + (s_stat[s1].w - mean) * a.x);
  for (uint s2 = s1 + 1u; s2 < NUM_SG && s2 * KQ < (rr + 1u) * J; ++s2) {
    a = s_seg[s2 * KQ];
    tot += vec2(a.x, a.y + (s_stat[s2].w - mean) * a.x);
  }
  return tot;
}

uint take_group() {
  const uint v = atomicAdd(ctr[0], 1u);
  const uint total = params.batch * params.num_groups;
  // Every workgroup ends with exactly one failed take: the last of them resets the counter.
#ifndef NORESET
  if (v == total + gl_NumWorkGroups.x * gl_NumWorkGroups.y - 1u) atomicExchange(ctr[0], 0u);
#endif
  return v;
}

void main() {
  const uint C = params.channels, HW = params.spatial, G = params.num_groups;
  const uint total = params.batch * G;
  const uint CPG = C / G;
  const uint HWV = HW / VEC;
  const uint J = (HWV + SUBGROUP_SIZE - 1) / SUBGROUP_SIZE;
  const uint Q = CPG * J;
  const float M = float(CPG * HW);
  const uint s = gl_SubgroupID, lane = gl_SubgroupInvocationID;
  const uint KQ = (Q + NUM_SG - 1) / NUM_SG;
  const uint q0 = s * KQ;
  const uint nk = q0 < Q ? min(KQ, Q - q0) : 0u;
  const uint r_start = q0 / J, jj_start = q0 - r_start * J;
#define SLOT_IDX(base, r, jj) ((base) + (r) * HWV + (jj) * SUBGROUP_SIZE + lane)
#define NEXT_SLOT(r, jj) if (++(jj) == J) { (jj) = 0u; ++(r); }
#define GROUP_ROW(ng) (((ng) / G) * C + ((ng) % G) * CPG)

  // The slots this invocation holds are the same for every group.
  uint valid = 0u;
  {
    uint r = r_start, jj = jj_start;
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      if (k < nk && jj * SUBGROUP_SIZE + lane < HWV) valid |= 1u << k;
      NEXT_SLOT(r, jj)
    }
  }
#ifdef STATIC
  const uint nwg = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
  uint cur = linear_workgroup_id();
#else
  if (gl_LocalInvocationIndex == 0u) s_first = take_group();
  barrier();
  uint cur = s_first;
#endif
  if (cur >= total) return;
  VT d[SLOTS];  // x (raw until the statistics subtract K)
  VT dy[SLOTS];
  {
    const uint base = GROUP_ROW(cur) * HWV;
    uint r = r_start, jj = jj_start;
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      const bool ok = ((valid >> k) & 1u) != 0u;
      d[k] = ok ? x_v[SLOT_IDX(base, r, jj)] : VZERO;
      dy[k] = ok ? dy_v[SLOT_IDX(base, r, jj)] : VZERO;
      NEXT_SLOT(r, jj)
    }
  }
  [[dont_unroll]] for (;;) {
    const uint group_row = GROUP_ROW(cur);
    const uint tile_base = group_row * HWV;
    const uint g = cur % G;
#ifndef STATIC
    if (gl_LocalInvocationIndex == 0u) s_next = take_group();
#endif
#if VEC == 4
    const float K = x_v[tile_base].x;
#else
    const float K = x_v[tile_base];
#endif
#if DY_SHARED > 0
    [[unroll]] for (uint k = 0; k < DY_SHARED; ++k) s_dy[k * WG_SIZE + gl_LocalInvocationID.x] = dy[k];
#endif
    for (uint rr = gl_LocalInvocationID.x; rr < CPG; rr += WG_SIZE) s_w[rr] = weight[g * CPG + rr];
#ifdef DBG_B1
    barrier();
#endif

    VT acc = VZERO;
    float cnt = 0.0;
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      d[k] = ((valid >> k) & 1u) != 0u ? d[k] - K : VZERO;
      acc += d[k];
      if (((valid >> k) & 1u) != 0u) cnt += float(VEC);
    }
    const vec2 sc = subgroupAdd(vec2(hsum(acc), cnt));
    const float n_s = sc.y;
    const float mhat = n_s > 0.0 ? sc.x / n_s : 0.0;
    {
      VT se = VZERO, se2 = VZERO;
      vec2 seg = vec2(0.0);
      uint jjp = jj_start, seg_start = q0;
      VT t[SLOTS];
      [[unroll]] for (uint k = 0; k < SLOTS; ++k) t[k] = DYV(k);
      [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
        if (k < nk) {
          const VT e = ((valid >> k) & 1u) != 0u ? d[k] - mhat : VZERO;
          se += e;
          se2 += e * e;
          seg += vec2(hsum(t[k]), hsum(t[k] * e));
          ++jjp;
          if (jjp == J || k + 1 == nk) {
            const vec2 tot = subgroupAdd(seg);
            if (subgroupElect()) s_seg[seg_start] = tot;
            seg = vec2(0.0);
            seg_start = q0 + k + 1;
            if (jjp == J) jjp = 0u;
          }
        }
      }
      const vec2 E = subgroupAdd(vec2(hsum(se), hsum(se2)));
      if (subgroupElect()) {
        const float c = n_s > 0.0 ? E.x / n_s : 0.0;
        s_stat[s] = vec4(n_s, mhat + c, max(E.y - E.x * c, 0.0), mhat);
      }
    }
    barrier();
#ifdef STATIC
    const uint next = cur + nwg;
#else
    const uint next = s_next;
#endif
#ifdef DBG_B2
    barrier();
#endif

    float tm = 0.0;
    for (uint i = lane; i < NUM_SG; i += SUBGROUP_SIZE) tm += s_stat[i].x * s_stat[i].y;
    const float mean = subgroupAdd(tm) / M;
    vec3 t3 = vec3(0.0);
    for (uint i = lane; i < NUM_SG; i += SUBGROUP_SIZE) {
      const vec4 st = s_stat[i];
      const float dm = st.y - mean;
      t3.x += st.z + st.x * dm * dm;
    }
    for (uint rr = lane; rr < CPG; rr += SUBGROUP_SIZE) t3.yz += s_w[rr] * row_total(rr, J, KQ, mean);
    const vec3 T = subgroupAdd(t3);
    const float rstd = inversesqrt(max(T.x, 0.0) / M + uintBitsToFloat(params.eps_bits));
    const float cA = T.y / M;
    const float k2 = rstd * rstd * (T.z / M);
    {
      const bool more = next < total;
      const uint nbase = GROUP_ROW(more ? next : cur) * HWV;
      uint rp = r_start, jjp = jj_start;
      VT t[SLOTS];
      [[unroll]] for (uint k = 0; k < SLOTS; ++k) t[k] = DYV(k);
      [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
        const bool ok = ((valid >> k) & 1u) != 0u;
        if (ok) dx_v[SLOT_IDX(tile_base, rp, jjp)] = rstd * (s_w[rp] * t[k] - (cA + k2 * (d[k] - mean)));
        if (more && ok) {
          d[k] = x_v[SLOT_IDX(nbase, rp, jjp)];
          dy[k] = dy_v[SLOT_IDX(nbase, rp, jjp)];
        }
        NEXT_SLOT(rp, jjp)
      }
    }
    for (uint rr = lane; rr < CPG; rr += SUBGROUP_SIZE) {
      if ((rr / SUBGROUP_SIZE) % NUM_SG != s) continue;
      const vec2 tot = row_total(rr, J, KQ, mean);
      part[group_row + rr] = vec2(rstd * tot.y, tot.x);
    }
    barrier();  // shared arrays and s_next are read before the next group writes them
    if (next >= total) break;
    cur = next;
  }
}
