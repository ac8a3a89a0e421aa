// The per-(n, group) merge of the gn_fused tile records. merge_group() is shared by
// gn_combine.comp (its own dispatch, through combine_group), gn_tile.comp (ENTRY_PARTIALS
// with LAST_WG: run by the last tile of each group to finish) and gn_apply.comp
// (ENTRY_APPLY_MERGE: every grad_input workgroup merges its own group). One workgroup
// merges one group, reading the records in a fixed order, so every caller gets bitwise
// the same mean, rstd, cA, k2 with
//     grad_input = rstd * (w*dy - (cA + k2 * ((x - K) - mean))),
// and, when asked, writes part[n*C + c] = (rstd * sum dy*(x-mean), sum dy), which
// gn_dwdb.glsl reduces over n. combine_group() also writes the coefficients per (n, c):
//   coef[2*(n*C + c) + 0, 1] = (w, rstd, cA, k2), (K, mean, -, -).
// x - K is formed first (exact for large-mean data), so the absolute mean, which float32
// cannot hold to the precision needed, never appears; and w*dy - cA is exactly 0 for
// one-element groups, whose reference gradient is exactly 0.
// The includer declares tilerec, rowrec, weight (read) and part (written), coef too if it
// calls combine_group, and uses the VEC and SUBGROUP_SIZE of the tile stage: the tile sizes
// follow from them.

DEFINE_WG_SUM(cb_sum_mean, float, 0.0)
DEFINE_WG_SUM(cb_sum_m2, float, 0.0)
DEFINE_WG_SUM(cb_sum_w, vec2, vec2(0.0))

struct GroupCoef {
  float mean, rstd, cA, k2;
};

// Called by the whole workgroup in uniform control flow; every invocation gets the result.
GroupCoef merge_group(uint ng, bool write_part) {
  const uint C = params.channels, HW = params.spatial, G = params.num_groups;
  const uint CPG = C / G;
  const uint HWV = HW / VEC;
  const uint cpr = (HWV + SUBGROUP_SIZE - 1) / SUBGROUP_SIZE;
  const uint R = params.aux_lo.x, P = params.aux_lo.y, JP = params.aux_lo.z, TPG = params.aux_lo.w;

  const uint n = ng / G, g = ng % G;
  const uint group_row = n * C + g * CPG;
  const float M = float(CPG * HW);
  const uint tid = gl_LocalInvocationID.x;

  // Exact group mean of d from the tile means, then M2 = sum(M2_t + n_t (mean_t - mean)^2):
  // the parallel form of the two-pass variance.
  float acc = 0.0;
  for (uint t = tid; t < TPG; t += WG_SIZE) {
    const uint rb = t / P, p = t % P;
    const uint rows = min(R, CPG - rb * R), j0 = p * JP, J = min(JP, cpr - j0);
    const float nt = float(rows * (min((j0 + J) * SUBGROUP_SIZE, HWV) - j0 * SUBGROUP_SIZE) * VEC);
    acc += nt * tilerec[ng * TPG + t].x;
  }
  const float mean = cb_sum_mean(acc) / M;
  acc = 0.0;
  for (uint t = tid; t < TPG; t += WG_SIZE) {
    const uint rb = t / P, p = t % P;
    const uint rows = min(R, CPG - rb * R), j0 = p * JP, J = min(JP, cpr - j0);
    const float nt = float(rows * (min((j0 + J) * SUBGROUP_SIZE, HWV) - j0 * SUBGROUP_SIZE) * VEC);
    const vec2 rec = tilerec[ng * TPG + t];
    const float dm = rec.x - mean;
    acc += rec.y + nt * dm * dm;
  }
  const float m2 = cb_sum_m2(acc);
  const float rstd = inversesqrt(m2 / M + uintBitsToFloat(params.eps_bits));

  // Per channel: A = sum dy, B = sum dy*(d - mean), re-centred from each tile's mean.
  vec2 wsum = vec2(0.0);
  for (uint rr = tid; rr < CPG; rr += WG_SIZE) {
    const uint row = group_row + rr;
    const uint tbase = ng * TPG + (rr / R) * P;
    float A = 0.0, B = 0.0;
    for (uint p = 0; p < P; ++p) {
      const vec2 rec = rowrec[row * P + p];
      A += rec.x;
      B += rec.y + (tilerec[tbase + p].x - mean) * rec.x;
    }
    wsum += weight[g * CPG + rr] * vec2(A, B);
    if (write_part) part[row] = vec2(rstd * B, A);
  }
  const vec2 W = cb_sum_w(wsum);
  return GroupCoef(mean, rstd, W.x / M, rstd * rstd * (W.y / M));
}

#if defined(COMBINE_WRITES_COEF)
void combine_group(uint ng, float K) {
  const GroupCoef gc = merge_group(ng, true);
  const uint CPG = params.channels / params.num_groups;
  const uint g = ng % params.num_groups;
  const uint group_row = (ng / params.num_groups) * params.channels + g * CPG;
  for (uint rr = gl_LocalInvocationID.x; rr < CPG; rr += WG_SIZE) {
    coef[2u * (group_row + rr)] = vec4(weight[g * CPG + rr], gc.rstd, gc.cA, gc.k2);
    coef[2u * (group_row + rr) + 1u] = vec4(K, gc.mean, 0.0, 0.0);
  }
}
#endif
