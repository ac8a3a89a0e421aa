#version 450
// EXPERIMENT (run 17): on-chip group kernel with per-subgroup statistics and one barrier.
// Each subgroup takes the corrected two-pass statistics of its own chunks (count, mean,
// M2) and its segments' (sum dy, sum dy*(d - mhat_s)) with subgroup operations only; one
// barrier publishes them; every subgroup then merges the records itself (Chan for M2,
// segments re-centred by (mhat_s - mean) * sum dy), in a fixed order.
// KEEP_DY 1: x and grad_out on chip (DY_SHARED slots of grad_out in shared memory).
// KEEP_DY 0: only d on chip (XS slots in shared memory), grad_out streamed twice.
#define PARAMS_BINDING 5
#include "../../kernels/glsl/gn_common.glsl"
#ifndef KEEP_DY
#define KEEP_DY 1
#endif
#ifndef XS
#define XS 0
#endif
#ifndef DY_SHARED
#define DY_SHARED 0
#endif
#ifndef DY_BATCH
#define DY_BATCH 4
#endif
#define QCAP (NUM_SG * SLOTS)
#define RS (SLOTS - XS)
layout(std430, set = 0, binding = 0) readonly buffer DyBuf { VT dy_v[]; };
layout(std430, set = 0, binding = 1) readonly buffer XBuf { VT x_v[]; };
layout(std430, set = 0, binding = 2) readonly buffer WBuf { float weight[]; };
layout(std430, set = 0, binding = 3) writeonly buffer DxBuf { VT dx_v[]; };
layout(std430, set = 0, binding = 4) writeonly buffer PartBuf { vec2 part[]; };
#ifndef LOOP
#define LOOP 1
#endif
#define NB (LOOP > 1 ? 2 : 1)
shared vec2 s_seg[NB][QCAP];
shared vec4 s_stat[NB][NUM_SG];  // (count, mean, M2, mhat) of each subgroup's chunks
#define W_CAP (QCAP < 1024 ? QCAP : 1024)
shared float s_w[NB][W_CAP];
#if XS > 0 && defined(FAST_DX)
#error "FAST_DX keeps e in registers: XS 0 only"
#endif
#if XS > 0
shared VT s_x[XS * WG_SIZE];
#define XV(k) ((k) < XS ? s_x[(k) * WG_SIZE + gl_LocalInvocationID.x] : d[(k) < XS ? 0 : (k) - XS])
#else
#define XV(k) d[k]
#endif
#if KEEP_DY && DY_SHARED > 0
shared VT s_dy[DY_SHARED * WG_SIZE];
#define DYV(k) ((k) < DY_SHARED ? s_dy[(k) * WG_SIZE + gl_LocalInvocationID.x] : dy[k])
#else
#define DYV(k) dy[k]
#endif

void group_kernel(const uint ng, const uint pb) {
  const uint C = params.channels, HW = params.spatial, G = params.num_groups;
  const uint CPG = C / G;
  const uint HWV = HW / VEC;
  const uint J = (HWV + SUBGROUP_SIZE - 1) / SUBGROUP_SIZE;  // chunks per row
  const uint n = ng / G, g = ng % G;
  const uint Q = CPG * J;
  const float M = float(CPG * HW);
  const uint group_row = n * C + g * CPG;
  const uint tile_base = group_row * HWV;
  const float w_pre = gl_LocalInvocationID.x < CPG ? weight[g * CPG + gl_LocalInvocationID.x] : 0.0;
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
  VT d[RS > 0 ? RS : 1];
#if KEEP_DY
  VT dy[SLOTS];
#endif
  {
    uint r = r_start, jj = jj_start;
    [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
      const bool ok = k < nk && jj * SUBGROUP_SIZE + lane < HWV;
      if (ok) valid |= 1u << k;
      if (k >= XS) d[k < XS ? 0 : k - XS] = ok ? x_v[SLOT_IDX(r, jj)] - K : VZERO;
#if KEEP_DY
      dy[k] = ok ? dy_v[SLOT_IDX(r, jj)] : VZERO;
#endif
      NEXT_SLOT(r, jj)
    }
#if XS > 0
    r = r_start; jj = jj_start;
    [[unroll]] for (uint k = 0; k < XS; ++k) {
      s_x[k * WG_SIZE + gl_LocalInvocationID.x] = ((valid >> k) & 1u) != 0u ? x_v[SLOT_IDX(r, jj)] - K : VZERO;
      NEXT_SLOT(r, jj)
    }
#endif
  }
#if KEEP_DY && DY_SHARED > 0
  [[unroll]] for (uint k = 0; k < DY_SHARED; ++k) s_dy[k * WG_SIZE + gl_LocalInvocationID.x] = dy[k];
#endif
  if (gl_LocalInvocationID.x < CPG) s_w[pb][gl_LocalInvocationID.x] = w_pre;
  for (uint rr = gl_LocalInvocationID.x + WG_SIZE; rr < CPG; rr += WG_SIZE) s_w[pb][rr] = weight[g * CPG + rr];

  // This subgroup's statistics: provisional mean, then centred sums.
  VT acc = VZERO;
  float cnt = 0.0;
  [[unroll]] for (uint k = 0; k < SLOTS; ++k) {
    acc += XV(k);
    if (((valid >> k) & 1u) != 0u) cnt += float(VEC);
  }
  const vec2 sc = subgroupAdd(vec2(hsum(acc), cnt));
  const float n_s = sc.y;
  const float mhat = n_s > 0.0 ? sc.x / n_s : 0.0;
  {
    VT se = VZERO, se2 = VZERO;
#ifdef SEGV4
    VT sga = VZERO, sgb = VZERO;
#endif
    vec2 seg = vec2(0.0);
    uint r = r_start, jj = jj_start, jjp = jj_start, seg_start = q0;
    [[unroll]] for (uint kb = 0; kb < SLOTS; kb += DY_BATCH) {
      VT t[DY_BATCH];
      [[unroll]] for (uint i = 0; i < DY_BATCH; ++i) {
        const uint k = kb + i;
#if KEEP_DY
        t[i] = k < SLOTS ? DYV(k) : VZERO;
#else
        t[i] = VZERO;
        if (k < SLOTS && ((valid >> k) & 1u) != 0u) t[i] = dy_v[SLOT_IDX(r, jj)];
        NEXT_SLOT(r, jj)
#endif
      }
      [[unroll]] for (uint i = 0; i < DY_BATCH; ++i) {
        const uint k = kb + i;
        if (k < SLOTS && k < nk) {  // uniform in the subgroup
          const VT e = ((valid >> k) & 1u) != 0u ? XV(k) - mhat : VZERO;
#ifdef FAST_DX
          d[k] = e;  // grad_input needs d only as e
#endif
          se += e;
          se2 += e * e;
#ifdef SEGV4
          sga += t[i];
          sgb += t[i] * e;
#else
          seg += vec2(hsum(t[i]), hsum(t[i] * e));
#endif
          ++jjp;
          if (jjp == J || k + 1 == nk) {
#ifdef SEGV4
            seg = vec2(hsum(sga), hsum(sgb));
            sga = VZERO;
            sgb = VZERO;
#endif
            const vec2 tot = subgroupAdd(seg);
            if (subgroupElect()) s_seg[pb][seg_start] = tot;
            seg = vec2(0.0);
            seg_start = q0 + k + 1;
            if (jjp == J) jjp = 0u;
          }
        }
      }
    }
    const vec2 E = subgroupAdd(vec2(hsum(se), hsum(se2)));
    if (subgroupElect()) {
      const float c = n_s > 0.0 ? E.x / n_s : 0.0;
      s_stat[pb][s] = vec4(n_s, mhat + c, max(E.y - E.x * c, 0.0), mhat);
    }
  }
  barrier();

  // Merge, in every subgroup, in a fixed order.
  float tm = 0.0;
  for (uint i = lane; i < NUM_SG; i += SUBGROUP_SIZE) tm += s_stat[pb][i].x * s_stat[pb][i].y;
  const float mean = subgroupAdd(tm) / M;
  vec3 t3 = vec3(0.0);
  for (uint i = lane; i < NUM_SG; i += SUBGROUP_SIZE) {
    const vec4 st = s_stat[pb][i];
    const float dm = st.y - mean;
    t3.x += st.z + st.x * dm * dm;
  }
  for (uint rr = lane; rr < CPG; rr += SUBGROUP_SIZE) {
    const uint s1 = (rr * J) / KQ;
    vec2 a = s_seg[pb][rr * J];
    vec2 tot = vec2(a.x, a.y + (s_stat[pb][s1].w - mean) * a.x);
    for (uint s2 = s1 + 1u; s2 < NUM_SG && s2 * KQ < (rr + 1u) * J; ++s2) {
      a = s_seg[pb][s2 * KQ];
      tot += vec2(a.x, a.y + (s_stat[pb][s2].w - mean) * a.x);
    }
    t3.yz += s_w[pb][rr] * tot;
  }
  const vec3 T = subgroupAdd(t3);
  const float rstd = inversesqrt(max(T.x, 0.0) / M + uintBitsToFloat(params.eps_bits));
  const float cA = T.y / M;
  const float k2 = rstd * rstd * (T.z / M);
#ifdef FAST_DX
  // grad_input = rstd*w*dy + b*e + c_s with e = d - mhat (this subgroup's provisional mean).
  const float fb = -rstd * k2;
  const float fc = -rstd * (cA + k2 * (mhat - mean));
#endif
  {
    uint r = r_start, jj = jj_start, rp = r_start, jjp = jj_start;
    [[unroll]] for (uint kb = 0; kb < SLOTS; kb += DY_BATCH) {
      VT t[DY_BATCH];
      [[unroll]] for (uint i = 0; i < DY_BATCH; ++i) {
        const uint k = kb + i;
#if KEEP_DY
        t[i] = k < SLOTS ? DYV(k) : VZERO;
#else
        t[i] = VZERO;
        if (k < SLOTS && ((valid >> k) & 1u) != 0u) t[i] = dy_v[SLOT_IDX(r, jj)];  // L2
        NEXT_SLOT(r, jj)
#endif
      }
      [[unroll]] for (uint i = 0; i < DY_BATCH; ++i) {
        const uint k = kb + i;
        if (k < SLOTS && ((valid >> k) & 1u) != 0u)
#ifdef FAST_DX
          dx_v[SLOT_IDX(rp, jjp)] = fma(VT(rstd * s_w[pb][rp]), t[i], fma(VT(fb), d[k], VT(fc)));
#else
          dx_v[SLOT_IDX(rp, jjp)] = rstd * (s_w[pb][rp] * t[i] - (cA + k2 * (XV(k) - mean)));
#endif
        if (k < SLOTS) { NEXT_SLOT(rp, jjp) }
      }
    }
  }
  // After grad_input's stores: nothing waits on part[].
  // part[] rows: lane-strided blocks of SUBGROUP_SIZE rows, block b by subgroup b % NUM_SG.
  for (uint rr = lane; rr < CPG; rr += SUBGROUP_SIZE) {
    if ((rr / SUBGROUP_SIZE) % NUM_SG != s) continue;
    const uint s1 = (rr * J) / KQ;
    vec2 a = s_seg[pb][rr * J];
    vec2 tot = vec2(a.x, a.y + (s_stat[pb][s1].w - mean) * a.x);
    for (uint s2 = s1 + 1u; s2 < NUM_SG && s2 * KQ < (rr + 1u) * J; ++s2) {
      a = s_seg[pb][s2 * KQ];
      tot += vec2(a.x, a.y + (s_stat[pb][s2].w - mean) * a.x);
    }
    part[group_row + rr] = vec2(rstd * tot.y, tot.x);
  }
}

void main() {
  const uint total = params.batch * params.num_groups;
  const uint nwg = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
  uint ng = linear_workgroup_id();
#ifdef STAGGER
  // Desynchronise the first wave: odd workgroups of it start later.
  if ((ng & 1u) == 1u && ng < STAGGER_WGS) {
    float v = float(gl_LocalInvocationID.x);
    for (uint i = 0u; i < STAGGER; ++i) v = v * 0.999 + 1.0;
    if (v == uintBitsToFloat(params._pad0) - 1e30) part[0] = vec2(v);
  }
#endif
  [[dont_unroll]] for (uint it = 0u; ng < total; ++it, ng += nwg) group_kernel(ng, NB > 1 ? (it & 1u) : 0u);
}
