#version 450
// gn_split: the on-chip kernel of gn_onchip2_sg.comp with each group split over SPLIT
// workgroups of CPG / SPLIT channels each, so that several workgroups share an SM and one's
// statistics overlap another's loads. The workgroups of a group exchange one record each,
// (mean_w, M2_w, sum w*dy, sum w*dy*(d - mean_w)), through global memory.
//
// Vulkan does not promise that the workgroups of a group run at the same time, so a
// workgroup waits for its partners for at most SPIN_POLLS polls and then computes their
// records itself from x and grad_out (the same loop body, so the same bits: a record does
// not depend on which workgroup computed it), and its own again. Results are bitwise
// reproducible whichever path runs.
#define PARAMS_BINDING 7
#include "../../kernels/glsl/gn_common.glsl"
#ifndef DY_SHARED
#define DY_SHARED 0
#endif
#ifndef GHOST
#define GHOST 0
#endif
#ifndef SPIN_POLLS
#define SPIN_POLLS 4096
#endif
#define QCAP (NUM_SG * SLOTS)
layout(std430, set = 0, binding = 0) readonly buffer DyBuf { VT dy_v[]; };
layout(std430, set = 0, binding = 1) readonly buffer XBuf { VT x_v[]; };
layout(std430, set = 0, binding = 2) readonly buffer WBuf { float weight[]; };
layout(std430, set = 0, binding = 3) writeonly buffer DxBuf { VT dx_v[]; };
layout(std430, set = 0, binding = 4) writeonly buffer PartBuf { vec2 part[]; };
layout(std430, set = 0, binding = 5) coherent buffer RecBuf { vec4 rec[]; };
// Per group: arrivals, departures. Zero before the first dispatch; the last workgroup of a
// group to leave sets both back to zero.
layout(std430, set = 0, binding = 6) coherent buffer CntBuf { uint cnt[]; };
shared vec2 s_seg[QCAP];
shared vec4 s_stat[NUM_SG];
shared vec4 s_rec[SPLIT];  // (mean_w, M2_w, sum w*dy, sum w*dy*(d - mean_w)) of each part
shared uint s_ready;
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

void part_kernel(const uint id) {
  const uint C = params.channels, HW = params.spatial, G = params.num_groups;
  const uint CPG = C / G;
  const uint R = CPG / SPLIT;  // rows per part
  const uint HWV = HW / VEC;
  const uint J = (HWV + SUBGROUP_SIZE - 1) / SUBGROUP_SIZE;
  const uint ng = id / SPLIT, p = id % SPLIT;
  const uint n = ng / G, g = ng % G;
  const uint Q = R * J;
  const float Mw = float(R * HW);
  const uint group_row = n * C + g * CPG;
#if VEC == 4
  const float K = x_v[group_row * HWV].x;
#else
  const float K = x_v[group_row * HWV];
#endif
  const uint s = gl_SubgroupID, lane = gl_SubgroupInvocationID;
  const uint KQ = (Q + NUM_SG - 1) / NUM_SG;
  const uint q0 = s * KQ;
  const uint nk = q0 < Q ? min(KQ, Q - q0) : 0u;
  const uint r_start = q0 / J, jj_start = q0 - r_start * J;
#define SLOT_IDX(r, jj) (tile_base + (r) * HWV + (jj) * SUBGROUP_SIZE + lane)
#define NEXT_SLOT(r, jj) if (++(jj) == J) { (jj) = 0u; ++(r); }

  uint valid = 0u;
  VT d[SLOTS];
  VT dy[SLOTS];
  uint h = p;  // the part whose record this pass computes
  bool first = true;
#if GHOST == 2 || GHOST == 3
  do {
#else
  [[dont_unroll]] for (;;) {
#endif
    const uint tile_base = (group_row + h * R) * HWV;
    const uint wrow = g * CPG + h * R;
    const float w_pre = gl_LocalInvocationID.x < R ? weight[wrow + gl_LocalInvocationID.x] : 0.0;
    valid = 0u;
    {
      uint r = r_start, jj = jj_start;
      [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
        const bool ok = k < nk && jj * SUBGROUP_SIZE + lane < HWV;
        if (ok) valid |= 1u << k;
        d[k] = ok ? x_v[SLOT_IDX(r, jj)] - K : VZERO;
        dy[k] = ok ? dy_v[SLOT_IDX(r, jj)] : VZERO;
        NEXT_SLOT(r, jj)
      }
    }
#if DY_SHARED > 0
    [[unroll]] for (uint k = 0; k < DY_SHARED; ++k) s_dy[k * WG_SIZE + gl_LocalInvocationID.x] = dy[k];
#endif
    if (gl_LocalInvocationID.x < R) s_w[gl_LocalInvocationID.x] = w_pre;
    for (uint rr = gl_LocalInvocationID.x + WG_SIZE; rr < R; rr += WG_SIZE) s_w[rr] = weight[wrow + rr];

    VT acc = VZERO;
    float cnt_s = 0.0;
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      acc += d[k];
      if (((valid >> k) & 1u) != 0u) cnt_s += float(VEC);
    }
    const vec2 sc = subgroupAdd(vec2(hsum(acc), cnt_s));
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

    // This part's record, the same in every subgroup.
    float tm = 0.0;
    for (uint i = lane; i < NUM_SG; i += SUBGROUP_SIZE) tm += s_stat[i].x * s_stat[i].y;
    const float mean_w = subgroupAdd(tm) / Mw;
    vec3 t3 = vec3(0.0);
    for (uint i = lane; i < NUM_SG; i += SUBGROUP_SIZE) {
      const vec4 st = s_stat[i];
      const float dm = st.y - mean_w;
      t3.x += st.z + st.x * dm * dm;
    }
    for (uint rr = lane; rr < R; rr += SUBGROUP_SIZE) t3.yz += s_w[rr] * row_total(rr, J, KQ, mean_w);
    const vec3 T = subgroupAdd(t3);
    const vec4 rec_h = vec4(mean_w, T);

    if (h != p) {  // a partner's record, computed here because the partner was late
      if (gl_LocalInvocationIndex == 0u) s_rec[h] = rec_h;
      barrier();  // this pass's shared arrays are read before the next pass writes them
      h = (h + 1u) % SPLIT;
      continue;
    }
    if (!first) break;  // own part again, after the partners'
    first = false;
#if GHOST == 1 || GHOST == 2
    if (gl_LocalInvocationIndex == 0u) {
      for (uint q = 0u; q < SPLIT; ++q) s_rec[q] = rec_h;
      s_ready = 1u;
    }
    if (false) {
#else
    if (gl_LocalInvocationIndex == 0u) {
#endif
      s_rec[p] = rec_h;
      rec[ng * SPLIT + p] = rec_h;
      memoryBarrierBuffer();
      atomicAdd(cnt[2u * ng], 1u);
      uint arrived = 0u;
      for (uint i = 0u; i < SPIN_POLLS; ++i) {
        arrived = atomicAdd(cnt[2u * ng], 0u);
        if (arrived >= SPLIT) break;
      }
      const bool ready = arrived >= SPLIT;
      if (ready) {
        memoryBarrierBuffer();
        for (uint q = 0u; q < SPLIT; ++q)
          if (q != p) s_rec[q] = rec[ng * SPLIT + q];
      }
      if (atomicAdd(cnt[2u * ng + 1u], 1u) == SPLIT - 1u) {
        atomicExchange(cnt[2u * ng], 0u);
        atomicExchange(cnt[2u * ng + 1u], 0u);
      }
      s_ready = ready ? 1u : 0u;
    }
    barrier();
    if (s_ready != 0u) break;
    h = (p + 1u) % SPLIT;
#if GHOST == 2 || GHOST == 3
  } while (false);
#else
  }
#endif
  barrier();  // s_rec complete (the fallback's last pass wrote none)

  // The group's statistics from the SPLIT records, in part order (Chan, equal counts).
  float msum = 0.0;
  [[unroll]] for (uint q = 0; q < SPLIT; ++q) msum += s_rec[q].x;
  const float mean = msum / float(SPLIT);
  float m2 = 0.0, sa = 0.0, sb = 0.0;
  [[unroll]] for (uint q = 0; q < SPLIT; ++q) {
    const vec4 r4 = s_rec[q];
    const float dm = r4.x - mean;
    m2 += r4.y + Mw * dm * dm;
    sa += r4.z;
    sb += r4.w + dm * r4.z;
  }
  const float M = Mw * float(SPLIT);
  const float rstd = inversesqrt(max(m2, 0.0) / M + uintBitsToFloat(params.eps_bits));
  const float cA = sa / M;
  const float k2 = rstd * rstd * (sb / M);
  const uint tile_base = (group_row + p * R) * HWV;
  {
    uint rp = r_start, jjp = jj_start;
    VT t[SLOTS];
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) t[k] = DYV(k);
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      if (((valid >> k) & 1u) != 0u)
        dx_v[SLOT_IDX(rp, jjp)] = rstd * (s_w[rp] * t[k] - (cA + k2 * (d[k] - mean)));
      NEXT_SLOT(rp, jjp)
    }
  }
  for (uint rr = lane; rr < R; rr += SUBGROUP_SIZE) {
    if ((rr / SUBGROUP_SIZE) % NUM_SG != s) continue;
    const vec2 tot = row_total(rr, J, KQ, mean);
    part[group_row + p * R + rr] = vec2(rstd * tot.y, tot.x);
  }
}

void main() {
  const uint total = params.batch * params.num_groups * SPLIT;
  const uint nwg = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
  [[dont_unroll]] for (uint id = linear_workgroup_id(); id < total; id += nwg) part_kernel(id);
}
