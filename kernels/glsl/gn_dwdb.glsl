// grad_weight[c] = sum_n part[n*C + c].x, grad_bias[c] = sum_n part[n*C + c].y, in n order
// (deterministic). Shared by gn_apply.comp and gn_tile.comp's last-workgroup path; the
// includer declares part (read), grad_weight and grad_bias (written).
void reduce_dwdb(uint c) {
  const uint C = params.channels;
  // Eight loads in flight per step (a plain loop would wait on each), summed in n order.
  vec2 acc = vec2(0.0);
  for (uint n0 = 0; n0 < params.batch; n0 += 8u) {
    vec2 v[8];
    [[unroll]] for (uint k = 0; k < 8u; ++k) v[k] = n0 + k < params.batch ? part[(n0 + k) * C + c] : vec2(0.0);
    [[unroll]] for (uint k = 0; k < 8u; ++k) acc += v[k];
  }
  grad_weight[c] = acc.x;
  grad_bias[c] = acc.y;
}
