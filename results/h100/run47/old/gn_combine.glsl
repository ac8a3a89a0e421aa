// The per-(n, group) merge of the gn_fused tile records, shared by gn_combine.comp (its own
// dispatch) and gn_tile.comp (ENTRY_PARTIALS with LAST_WG: run by the last tile of each
// group to finish). One workgroup merges one group, reading the records in a fixed order;
// merge_group() returns mean, rstd, cA, k2 with
//     grad_input = rstd * (w*dy - (cA + k2 * ((x - K) - mean)))
// and writes part[n*C + c] = (rstd * sum dy*(x-mean), sum dy), reduced over n by
// gn_dwdb.glsl; combine_group() also writes the coefficients per (n, c):
//   coef[2*(n*C + c) + 0, 1] = (w, rstd, cA, k2), (K, mean, -, -).
// x - K is formed first in gn_apply (exact for large-mean data), so the absolute mean,
// which float32 cannot hold to the precision needed, never appears; and w*dy - cA is
// exactly 0 for one-element groups, whose reference gradient is exactly 0.
// The includer declares tilerec, rowrec, weight (read), part and coef (written), and uses
// the VEC and SUBGROUP_SIZE of the tile stage: the tile sizes follow from them. An includer
// that stores a row's (rstd * sum dy*(x-mean), sum dy) elsewhere defines MERGE_STORE_ROW, and
// one without coef[] defines MERGE_ONLY (no combine_group()).
#ifndef MERGE_STORE_ROW
#define MERGE_STORE_ROW(row, dw, db) part[row] = vec2(dw, db)
#endif

DEFINE_WG_SUM(cb_sum_mean, float, 0.0)
DEFINE_WG_SUM(cb_sum_m2, float, 0.0)
DEFINE_WG_SUM(cb_sum_w, vec2, vec2(0.0))

// Elements in tile t of a group (the tile geometry of gn_tile.comp ENTRY_PARTIALS).
float tile_count(uint t, uint R, uint P, uint JP, uint CPG, uint cpr, uint HWV) {
  const uint rb = t / P, p = t % P;
  const uint rows = min(R, CPG - rb * R), j0 = p * JP, J = min(JP, cpr - j0);
  return float(rows * (min((j0 + J) * SUBGROUP_SIZE, HWV) - j0 * SUBGROUP_SIZE) * VEC);
}

struct GroupCoef {
  float mean, rstd, cA, k2;
};

// Called by the whole workgroup in uniform control flow; every invocation gets the result.
GroupCoef merge_group(uint ng) {
  const uint C = params.channels, HW = params.spatial, G = params.num_groups;
  const uint CPG = C / G;
  const uint HWV = HW / VEC;
  const uint cpr = (HWV + SUBGROUP_SIZE - 1) / SUBGROUP_SIZE;
  const uint R = params.aux_lo.x, P = params.aux_lo.y, JP = params.aux_lo.z, TPG = params.aux_lo.w;

  const uint n = ng / G, g = ng % G;
  const uint group_row = n * C + g * CPG;
  const float M = float(CPG * HW);
  const uint tid = gl_LocalInvocationID.x;

  // The first record of every loop below is issued before any reduction, so in the common
  // case (TPG, CPG <= WG_SIZE, P == 1) all records arrive in one round trip instead of one
  // per loop. The sums keep their order, so results are bitwise those of plain loops.
  const bool has_row = tid < CPG;
  const vec2 trec0 = tid < TPG ? tilerec[ng * TPG + tid] : vec2(0.0);
  const vec2 rrec0 = has_row ? rowrec[(group_row + tid) * P] : vec2(0.0);
  const float tmean0 = has_row ? tilerec[ng * TPG + (tid / R) * P].x : 0.0;
  const float w0 = has_row ? weight[g * CPG + tid] : 0.0;

  // Exact group mean of d from the tile means, then M2 = sum(M2_t + n_t (mean_t - mean)^2):
  // the parallel form of the two-pass variance.
  float acc = 0.0;
  for (uint t = tid; t < TPG; t += WG_SIZE) {
    const vec2 rec = t == tid ? trec0 : tilerec[ng * TPG + t];
    acc += tile_count(t, R, P, JP, CPG, cpr, HWV) * rec.x;
  }
  const float mean = cb_sum_mean(acc) / M;
  acc = 0.0;
  for (uint t = tid; t < TPG; t += WG_SIZE) {
    const vec2 rec = t == tid ? trec0 : tilerec[ng * TPG + t];
    const float dm = rec.x - mean;
    acc += rec.y + tile_count(t, R, P, JP, CPG, cpr, HWV) * dm * dm;
  }
  const float m2 = cb_sum_m2(acc);
  const float rstd = inversesqrt(m2 / M + uintBitsToFloat(params.eps_bits));

  // Per channel: A = sum dy, B = sum dy*(d - mean), re-centred from each tile's mean.
  vec2 wsum = vec2(0.0);
  for (uint rr = tid; rr < CPG; rr += WG_SIZE) {
    const uint row = group_row + rr;
    const uint tbase = ng * TPG + (rr / R) * P;
    const bool first = rr == tid;
    float A = 0.0, B = 0.0;
    for (uint p = 0; p < P; ++p) {
      const vec2 rec = first && p == 0u ? rrec0 : rowrec[row * P + p];
      const float tmean = first && p == 0u ? tmean0 : tilerec[tbase + p].x;
      A += rec.x;
      B += rec.y + (tmean - mean) * rec.x;
    }
    wsum += (first ? w0 : weight[g * CPG + rr]) * vec2(A, B);
    MERGE_STORE_ROW(row, rstd * B, A);
  }
  const vec2 W = cb_sum_w(wsum);
  return GroupCoef(mean, rstd, W.x / M, rstd * rstd * (W.y / M));
}

#ifndef MERGE_ONLY  // the includer has no coef[]
void combine_group(uint ng, float K) {
  const GroupCoef gc = merge_group(ng);
  const uint CPG = params.channels / params.num_groups;
  const uint g = ng % params.num_groups;
  const uint group_row = (ng / params.num_groups) * params.channels + g * CPG;
  for (uint rr = gl_LocalInvocationID.x; rr < CPG; rr += WG_SIZE) {
    coef[2u * (group_row + rr)] = vec4(weight[g * CPG + rr], gc.rstd, gc.cA, gc.k2);
    coef[2u * (group_row + rr) + 1u] = vec4(K, gc.mean, 0.0, 0.0);
  }
}
#endif
