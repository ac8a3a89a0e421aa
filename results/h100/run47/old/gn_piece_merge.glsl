// The merge of one group from gn_rowpiece.comp's records (a tile is one piece of one row:
// t = rr * P + p, its row record at the group's first row record + t), one record per tile and
// all tiles in parallel, no per-row pass:
//   mean = sum n_t m_t / M,  M2 = sum (M2_t + n_t (m_t - mean)^2),
//   W = sum_t w (A_t, B_t + (m_t - mean) A_t),
// giving grad_input = rstd * (w*dy - (cA + k2 * ((x - K) - mean))), cA = W.x / M,
// k2 = rstd^2 W.y / M (gn_apply.comp's formula). Used by gn_apply_rpmerge.comp (every block
// merges its own group) and gn_rowpiece.comp's LAST_WG (the group's last tile merges it once).
// The includer declares tilerec, rowrec and weight (read) and defines MREC, the records per
// invocation loaded at once.
#ifndef MREC
#error "define MREC (tile records per invocation loaded at once)"
#endif

DEFINE_WG_SUM(pm_sum_mean, float, 0.0)
DEFINE_WG_SUM(pm_sum_rest, vec3, vec3(0.0))

// Elements in tile t of a group: piece p = t % P, scalar columns [p * JP * SG, ...) of its row.
float piece_count(uint t) {
  const uint span = params.aux_lo.z * SUBGROUP_SIZE;
  const uint c0 = (t % params.aux_lo.y) * span;
  return float(min(c0 + span, params.spatial) - c0);
}

// A tile's share of the group's M2 about the group mean: M2_t + n_t (m_t - mean)^2.
float piece_m2(uint t, vec2 rec, float mean) {
  const float dm = rec.x - mean;
  return rec.y + piece_count(t) * dm * dm;
}

struct GroupCoef {
  float mean, rstd, cA, k2;
};

// Called by the whole workgroup in uniform control flow. The first MREC records of each
// invocation are loaded at once and kept for the second pass; a group of more tiles than
// MREC * WG_SIZE reads the rest again there.
GroupCoef merge_tiles(uint ng) {
  const uint C = params.channels, G = params.num_groups, CPG = C / G;
  const uint P = params.aux_lo.y, TPG = params.aux_lo.w;
  const uint g = ng % G;
  const uint rec0 = (ng / G * C + g * CPG) * P;  // the group's first row record
  const float M = float(CPG * params.spatial);
  const uint tid = gl_LocalInvocationID.x;

  vec2 tr[MREC], rw[MREC];
  float w[MREC];
  [[unroll]] for (uint k = 0; k < MREC; ++k) {
    const uint t = tid + k * WG_SIZE;
    tr[k] = vec2(0.0);
    rw[k] = vec2(0.0);
    w[k] = 0.0;
    if (t < TPG) {
      tr[k] = tilerec[ng * TPG + t];
      rw[k] = rowrec[rec0 + t];
      w[k] = weight[g * CPG + t / P];
    }
  }
  float acc = 0.0;
  [[unroll]] for (uint k = 0; k < MREC; ++k) {
    const uint t = tid + k * WG_SIZE;
    if (t < TPG) acc += piece_count(t) * tr[k].x;
  }
  for (uint t = tid + MREC * WG_SIZE; t < TPG; t += WG_SIZE) acc += piece_count(t) * tilerec[ng * TPG + t].x;
  const float mean = pm_sum_mean(acc) / M;

  vec3 v = vec3(0.0);
  [[unroll]] for (uint k = 0; k < MREC; ++k) {
    const uint t = tid + k * WG_SIZE;
    if (t < TPG) {
      const float dm = tr[k].x - mean;
      v += vec3(piece_m2(t, tr[k], mean), w[k] * rw[k].x, w[k] * (rw[k].y + dm * rw[k].x));
    }
  }
  for (uint t = tid + MREC * WG_SIZE; t < TPG; t += WG_SIZE) {
    const vec2 r = tilerec[ng * TPG + t], a = rowrec[rec0 + t];
    const float wt = weight[g * CPG + t / P], dm = r.x - mean;
    v += vec3(piece_m2(t, r, mean), wt * a.x, wt * (a.y + dm * a.x));
  }
  const vec3 S = pm_sum_rest(v);
  const float rstd = inversesqrt(S.x / M + uintBitsToFloat(params.eps_bits));
  return GroupCoef(mean, rstd, S.y / M, rstd * rstd * (S.z / M));
}
