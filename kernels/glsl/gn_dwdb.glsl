// grad_weight[c] = sum_n part[n*C + c].x, grad_bias[c] = sum_n part[n*C + c].y, in n order
// (deterministic). Shared by gn_apply.comp and gn_tile.comp's last-workgroup path; the
// includer declares part (read), grad_weight and grad_bias (written).
// DWDB_BATCH loads in flight per step (a plain loop would wait on each), summed in n order:
// 8 where the reduction shares a kernel with other work (registers). (The dwdb-only stage
// is gn_dwdb_split.comp since run 31.)
#ifndef DWDB_BATCH
#define DWDB_BATCH 8u
#endif
void reduce_dwdb(uint c) {
  const uint C = params.channels;
  vec2 acc = vec2(0.0);
  for (uint n0 = 0; n0 < params.batch; n0 += DWDB_BATCH) {
    vec2 v[DWDB_BATCH];
    [[unroll]] for (uint k = 0; k < DWDB_BATCH; ++k) v[k] = n0 + k < params.batch ? part[(n0 + k) * C + c] : vec2(0.0);
    [[unroll]] for (uint k = 0; k < DWDB_BATCH; ++k) acc += v[k];
  }
  grad_weight[c] = acc.x;
  grad_bias[c] = acc.y;
}
