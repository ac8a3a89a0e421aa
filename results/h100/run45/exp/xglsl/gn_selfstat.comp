#version 450
// EXPERIMENT (run 45b, not kept): slower than gn_fused_rp2* on every few-group shape but the
// two with groups of 14-24 thousand elements (results/h100/run45/45b_*.txt).
// gn_selfstat: one dispatch for a few small groups, with no wait and no second dispatch. Each
// (n, g) is cut into S parts of whole rows, one workgroup each; every part reads the WHOLE group
// once to compute the group's statistics itself (phase 1), then finishes its own rows from them
// (phase 2). Where a group is small (tens of thousands of elements) and there are few of them,
// reading it S times from L2 costs less than the alternatives' fixed costs: a second dispatch
// (gn_fused_rp2*) or parts that publish records and wait for each other (the split builds).
// Every part runs the same instructions over the same elements in the same order, so all parts
// of a group get bitwise the same statistics.
//
// Phase 1: invocation t takes the aligned vec4 v0 + t + j * WG_SIZE that cover the group's flat
// range (elements outside it masked), BV of them per batch; per batch two-pass sums of d = x - K
// (K the group's first element) about the batch mean, merged into a running record by Chan's
// formulas; then the workgroup merges the records (mean first, then M2 and the weighted sums
// about it). Phase 2: one subgroup per own row: grad_input, and the row's (sum dy,
// sum dy * (d - mean)); at batch 1 those are grad_bias / grad_weight, otherwise the last of
// the N parts k of a g (a counter, no wait) sums them over n in order.
//
// Bindings: grad_out, x, weight, grad_input, part, grad_weight, grad_bias, counter, params.
// params aux: (S, RP) parts per group, rows per part.
#define PARAMS_BINDING 8
#define VEC 4
#include "gn_common.glsl"

#ifndef BV
#error "define BV (vec4 of each tensor per invocation per phase-1 batch)"
#endif
#define W_CAP 4096  // channels per group the shared weight copy holds (the manifest's `when`)

layout(std430, set = 0, binding = 0) readonly restrict buffer DyBuf { vec4 dy_v[]; };
layout(std430, set = 0, binding = 1) readonly restrict buffer XBuf { vec4 x_v[]; };
layout(std430, set = 0, binding = 2) readonly restrict buffer WBuf { float weight[]; };
layout(std430, set = 0, binding = 3) writeonly restrict buffer DxBuf { float dx[]; };
layout(std430, set = 0, binding = 4) coherent restrict buffer PartBuf { vec2 part[]; };  // [N*C]
layout(std430, set = 0, binding = 5) writeonly restrict buffer GwBuf { float grad_weight[]; };
layout(std430, set = 0, binding = 6) writeonly restrict buffer GbBuf { float grad_bias[]; };
layout(std430, set = 0, binding = 7) coherent restrict buffer CountBuf { uint counter[]; };  // [G*S]

shared float s_w[W_CAP];
shared bool s_last;
#include "gn_last_wg.glsl"
DEFINE_WG_SUM(ss_sum_mean, float, 0.0)
DEFINE_WG_SUM(ss_sum_rest, vec3, vec3(0.0))

float xs(uint f) { return x_v[f >> 2u][f & 3u]; }
float dys(uint f) { return dy_v[f >> 2u][f & 3u]; }

void main() {
  const uint N = params.batch, C = params.channels, HW = params.spatial, G = params.num_groups;
  const uint CPG = C / G, S = params.aux_lo.x, RP = params.aux_lo.y;
  const uint id = linear_workgroup_id();
  if (id >= N * G * S) return;  // idle workgroups of a folded dispatch (whole workgroups)
  const uint ng = id / S, k = id % S;
  const uint n = ng / G, g = ng % G;
  const uint gb = (n * C + g * CPG) * HW;  // the group's first flat element
  const uint M = CPG * HW;
  const uint E = N * C * HW;
  const uint tid = gl_LocalInvocationID.x;

  for (uint c = tid; c < CPG; c += WG_SIZE) s_w[c] = weight[g * CPG + c];
  const float K = xs(gb);
  barrier();

  // Phase 1: the whole group. Element f's row is (f - gb) / HW, from a float reciprocal and one
  // correction (exact for M <= 2^20, the manifest's bound); HW >= 4, so a vec4 spans <= 2 rows.
  const float inv_hw = 1.0 / float(HW);
  const uint v0 = gb >> 2u, v_end = (gb + M + 3u) >> 2u;
  float run_n = 0.0, run_m = 0.0, run_m2 = 0.0, run_a = 0.0, run_b = 0.0;
  for (uint vb = v0 + tid; vb < v_end; vb += WG_SIZE * BV) {
    vec4 d[BV], dy[BV], w[BV];
    bvec4 in_g[BV];
    [[unroll]] for (uint j = 0; j < BV; ++j) {
      const uint v = vb + j * WG_SIZE;
      const uvec4 f = uvec4(4u * v) + uvec4(0u, 1u, 2u, 3u);
      in_g[j] = bvec4(uvec4(greaterThanEqual(f, uvec4(gb))) & uvec4(lessThan(f, uvec4(gb + M))));
      d[j] = vec4(0.0);
      dy[j] = vec4(0.0);
      if (v < v_end) {
        if (4u * v + 3u < E) {
          d[j] = x_v[v];
          dy[j] = dy_v[v];
        } else {  // the tensor's last vec4 is partial: no load past its end
          for (uint c = 0; c < 4u; ++c)
            if (4u * v + c < E) {
              d[j][c] = x_v[v][c];
              dy[j][c] = dy_v[v][c];
            }
        }
      }
    }
    float sd = 0.0, cnt = 0.0;
    [[unroll]] for (uint j = 0; j < BV; ++j) {
      const uint v = vb + j * WG_SIZE;
      const int i0 = int(4u * v) - int(gb);  // may be < 0 for the first vec4 (masked)
      uint r0 = uint(max(i0, 0));
      uint c0 = uint(float(r0) * inv_hw);
      if (c0 * HW > r0) c0 -= 1u;
      if ((c0 + 1u) * HW <= r0) c0 += 1u;
      const uint rem = r0 - c0 * HW;  // first element's column; the others may be next row
      vec4 wv;
      [[unroll]] for (uint e = 0; e < 4u; ++e) {
        const int ie = i0 + int(e);
        // ie < 0 only before the group (masked); rows past CPG - 1 only after it (masked).
        const uint ce = ie < 0 ? 0u : min(c0 + uint(rem + uint(ie - int(r0)) >= HW), CPG - 1u);
        wv[e] = s_w[ce];
      }
      w[j] = wv;
      d[j] = mix(vec4(0.0), d[j] - K, in_g[j]);
      dy[j] = mix(vec4(0.0), dy[j], in_g[j]);
      sd += hsum(d[j]);
      cnt += hsum(vec4(in_g[j]));
    }
    if (cnt == 0.0) continue;
    const float mb = sd / cnt;
    float m2 = 0.0, a = 0.0, b = 0.0;
    [[unroll]] for (uint j = 0; j < BV; ++j) {
      const vec4 e = mix(vec4(0.0), d[j] - mb, in_g[j]);
      const vec4 wdy = weighted(w[j], dy[j]);
      m2 += hsum(e * e);
      a += hsum(wdy);
      b += hsum(wdy * e);
    }
    // Chan: merge (cnt, mb, m2, a, b about mb) into the running record (about run_m).
    const float n2 = run_n + cnt;
    const float delta = mb - run_m;
    const float m_new = run_m + delta * (cnt / n2);
    run_m2 += m2 + delta * delta * (run_n * cnt / n2);
    run_b += b + (mb - m_new) * a + (run_m - m_new) * run_a;
    run_a += a;
    run_m = m_new;
    run_n = n2;
  }
  const float Mf = float(M);
  const float mean = ss_sum_mean(run_n * run_m) / Mf;
  const float dm = run_m - mean;
  const vec3 tot = ss_sum_rest(vec3(run_m2 + run_n * dm * dm, run_a, run_b + dm * run_a));
  const float rstd = inversesqrt(tot.x / Mf + uintBitsToFloat(params.eps_bits));
  const float cA = tot.y / Mf, k2 = rstd * rstd * (tot.z / Mf);

  // Phase 2: own rows, one subgroup each.
  const uint lane = gl_SubgroupInvocationID;
  const uint r_lo = k * RP, r_hi = min(CPG, r_lo + RP);
  for (uint rr = r_lo + gl_SubgroupID; rr < r_hi; rr += NUM_SG) {
    const uint f0 = gb + rr * HW;
    const float wr = s_w[rr];
    vec2 acc = vec2(0.0);
    for (uint j0 = 0; j0 < HW; j0 += SUBGROUP_SIZE * 4u) {
      float xv[4], yv[4];
      [[unroll]] for (uint u = 0; u < 4u; ++u) {
        const uint j = j0 + u * SUBGROUP_SIZE + lane;
        xv[u] = j < HW ? xs(f0 + j) : K;
        yv[u] = j < HW ? dys(f0 + j) : 0.0;
      }
      [[unroll]] for (uint u = 0; u < 4u; ++u) {
        const uint j = j0 + u * SUBGROUP_SIZE + lane;
        if (j < HW) {
          const float dd = (xv[u] - K) - mean;
          precise float wdy = wr * yv[u];  // rounded on its own, as weighted()
          precise float gi = rstd * (wdy - (cA + k2 * dd));
          dx[f0 + j] = gi;
          acc += vec2(yv[u], yv[u] * dd);
        }
      }
    }
    acc = subgroupAdd(acc);
    if (subgroupElect()) {
      if (N == 1u) {
        grad_weight[g * CPG + rr] = rstd * acc.y;
        grad_bias[g * CPG + rr] = acc.x;
      } else {
        part[n * C + g * CPG + rr] = vec2(rstd * acc.y, acc.x);
      }
    }
  }
  if (N == 1u) return;
  // The last of the N parts k of this g sums their rows over n, in n order.
  if (arrive_last(g * S + k, N)) {
    for (uint rr = r_lo + tid; rr < r_hi; rr += WG_SIZE) {
      vec2 s = vec2(0.0);
      for (uint nn = 0; nn < N; ++nn) s += part[nn * C + g * CPG + rr];
      grad_weight[g * CPG + rr] = s.x;
      grad_bias[g * CPG + rr] = s.y;
    }
  }
}
