// The per-(n, group) merge of the gn_fused tile records, shared by gn_combine.comp (its own
// dispatch) and gn_tile.comp (ENTRY_PARTIALS with LAST_WG_COMBINE: run by the last tile
// of each group to finish). One workgroup merges one group, reading the records in a
// fixed order, and writes
//   coef[2*(n*C + c) + 0, 1] = (w, rstd, cA, k2), (K, mean, -, -) with
//     grad_input = rstd * (w*dy - (cA + k2 * ((x - K) - mean))), and
//   part[n*C + c] = (rstd * sum dy*(x-mean), sum dy), reduced over n by gn_apply.comp.
// x - K is formed first in gn_apply (exact for large-mean data), so the absolute mean,
// which float32 cannot hold to the precision needed, never appears; and w*dy - cA is
// exactly 0 for one-element groups, whose reference gradient is exactly 0.
// The includer declares tilerec, rowrec (read), weight, part and coef (written), and
// uses the VEC and SUBGROUP_SIZE of the tile stage: the tile sizes follow from them.

DEFINE_WG_SUM(cb_sum_mean, float, 0.0)
DEFINE_WG_SUM(cb_sum_m2, float, 0.0)
DEFINE_WG_SUM(cb_sum_w, vec2, vec2(0.0))

void combine_group(uint ng, float K) {
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
    part[row] = vec2(rstd * B, A);
  }
  const vec2 W = cb_sum_w(wsum);
  const float cA = W.x / M;
  const float k2 = rstd * rstd * (W.y / M);
  for (uint rr = tid; rr < CPG; rr += WG_SIZE) {
    coef[2u * (group_row + rr)] = vec4(weight[g * CPG + rr], rstd, cA, k2);
    coef[2u * (group_row + rr) + 1u] = vec4(K, mean, 0.0, 0.0);
  }
}
