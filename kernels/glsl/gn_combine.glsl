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

// Records per invocation in flight: the loops below load a batch, then sum it in the order of
// a plain loop (a plain loop waited on each load; H100 run 47b: gn_fused_v4's combine 11 us on
// one group of 1003 rows), so the batching leaves the bits alone. gn_apply_merge.comp, whose
// blocks hold their x and grad_out while they merge, takes 1 (H100 run 47c: batches of 4, with a
// division per record then, slowed gn_fused1; 4 without the divisions is not timed).
#ifndef CB_BATCH
#define CB_BATCH 4u
#endif

// Tile records t0 + tid + k * WG_SIZE of group ng, a batch of the workgroup's tile loops.
struct TileBatch {
  vec2 rec[CB_BATCH];
};
TileBatch load_tiles(uint ng, uint t0, uint TPG) {
  TileBatch b;
  [[unroll]] for (uint k = 0; k < CB_BATCH; ++k) {
    const uint t = t0 + gl_LocalInvocationID.x + k * WG_SIZE;
    b.rec[k] = t < TPG ? tilerec[ng * TPG + t] : vec2(0.0);
  }
  return b;
}

// A batch of an invocation's row pieces: item i is piece i % P of its (i / P)-th row,
// rr = tid + (i / P) * WG_SIZE. The row and piece advance by counting: one division a batch (a
// division per item cost gn_fused 4 us on 2286 rows of one piece, H100 run 47c).
struct RowBatch {
  vec2 rec[CB_BATCH];
  float tmean[CB_BATCH];
  float w[CB_BATCH];
  uint row[CB_BATCH];  // rr, with ROW_DONE set on a row's last piece
};
#define ROW_DONE 0x80000000u
RowBatch load_rows(uint i0, uint items, uint ng, uint group_row, uint g, uint CPG, uint R, uint P,
                   uint TPG) {
  RowBatch b;
  uint j = i0 / P, p = i0 - j * P;
  [[unroll]] for (uint k = 0; k < CB_BATCH; ++k) {
    const uint rr = gl_LocalInvocationID.x + j * WG_SIZE;
    b.rec[k] = vec2(0.0);
    b.tmean[k] = 0.0;
    b.w[k] = 0.0;
    b.row[k] = rr | (p + 1u == P ? ROW_DONE : 0u);
    if (i0 + k < items) {
      b.rec[k] = rowrec[(group_row + rr) * P + p];
      b.tmean[k] = tilerec[ng * TPG + (rr / R) * P + p].x;
      b.w[k] = weight[g * CPG + rr];
    }
    if (++p == P) {
      p = 0u;
      ++j;
    }
  }
  return b;
}

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
  const uint TB = CB_BATCH * WG_SIZE;  // tiles per batch of the workgroup
  const uint rows = tid < CPG ? (CPG - tid + WG_SIZE - 1u) / WG_SIZE : 0u;
  const uint items = rows * P;  // this invocation's row pieces

  // The first batch of every loop is issued before any reduction, so in the common case
  // (TPG <= TB, CPG * P <= CB_BATCH * WG_SIZE) all records arrive in one round trip.
  const TileBatch tb0 = load_tiles(ng, 0u, TPG);
  RowBatch rb = load_rows(0u, items, ng, group_row, g, CPG, R, P, TPG);

  // Exact group mean of d from the tile means, then M2 = sum(M2_t + n_t (mean_t - mean)^2):
  // the parallel form of the two-pass variance.
  float acc = 0.0;
  for (uint t0 = 0; t0 < TPG; t0 += TB) {
    TileBatch tb = tb0;
    if (t0 > 0u) tb = load_tiles(ng, t0, TPG);
    [[unroll]] for (uint k = 0; k < CB_BATCH; ++k) {
      const uint t = t0 + tid + k * WG_SIZE;
      if (t < TPG) acc += tile_count(t, R, P, JP, CPG, cpr, HWV) * tb.rec[k].x;
    }
  }
  const float mean = cb_sum_mean(acc) / M;
  acc = 0.0;
  for (uint t0 = 0; t0 < TPG; t0 += TB) {
    TileBatch tb = tb0;
    if (t0 > 0u) tb = load_tiles(ng, t0, TPG);
    [[unroll]] for (uint k = 0; k < CB_BATCH; ++k) {
      const uint t = t0 + tid + k * WG_SIZE;
      if (t < TPG) {
        const float dm = tb.rec[k].x - mean;
        acc += tb.rec[k].y + tile_count(t, R, P, JP, CPG, cpr, HWV) * dm * dm;
      }
    }
  }
  const float m2 = cb_sum_m2(acc);
  const float rstd = inversesqrt(m2 / M + uintBitsToFloat(params.eps_bits));

  // Per channel: A = sum dy, B = sum dy*(d - mean), re-centred from each tile's mean, the
  // pieces of a row in order.
  vec2 wsum = vec2(0.0);
  float A = 0.0, B = 0.0;
  for (uint i0 = 0; i0 < items; i0 += CB_BATCH) {
    if (i0 > 0u) rb = load_rows(i0, items, ng, group_row, g, CPG, R, P, TPG);
    [[unroll]] for (uint k = 0; k < CB_BATCH; ++k) {
      const uint i = i0 + k;
      if (i < items) {
        A += rb.rec[k].x;
        B += rb.rec[k].y + (rb.tmean[k] - mean) * rb.rec[k].x;
        if ((rb.row[k] & ROW_DONE) != 0u) {
          wsum += rb.w[k] * vec2(A, B);
          MERGE_STORE_ROW(group_row + (rb.row[k] & ~ROW_DONE), rstd * B, A);
          A = 0.0;
          B = 0.0;
        }
      }
    }
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
