// gn_flatap's second stage, included by gn_dwdb_split.comp under APPLY (with REREAD): part[]
// holds gn_flat.comp's STATS_ONLY records (K, m^), (rstd, cA), (k2, 0) per (n, g); each row of
// x and grad_out read here yields that element's grad_input, written as gn_flat.comp forms it,
// and its (rstd * dy * e, dy), which gn_dwdb_split.comp sums over n into grad_weight /
// grad_bias. Bindings 8-9; the includer declares part[] (0) and x, grad_out (6, 7).
layout(std430, set = 0, binding = 8) readonly restrict buffer WBuf { float w_s[]; };
layout(std430, set = 0, binding = 9) writeonly restrict buffer DxBuf { float dx_s[]; };

// A chunk's records, for the (at most two: M > CB) groups its channel block touches; a row's
// x and grad_out are loaded BATCH at a time before any of them is used, so that no grad_input
// store sits between two loads (the driver does not move loads above stores). APPLY_ROWS is the
// manifest's chunk size (params 0), the most rows a chunk has.
#ifndef APPLY_ROWS
#error "define APPLY_ROWS (rows per chunk)"
#endif
shared vec4 s_rec[2][APPLY_ROWS];  // (K, m^, rstd, cA)
shared float s_k2[2][APPLY_ROWS];

void load_records(uint n0, uint n1, uint g0, uint G) {
  const uint rows = n1 - n0;
  for (uint i = gl_LocalInvocationID.x; i < 2u * rows; i += WG_SIZE) {
    const uint gi = i / rows, row = i % rows, g = min(g0 + gi, G - 1u);
    const uint st = 4u * ((n0 + row) * G + g);
    s_rec[gi][row] = vec4(part[st], part[st + 1u]);
    s_k2[gi][row] = part[st + 2u].x;
  }
  barrier();
}

// Sum over lane r's rows of (rstd * dy * e, dy), writing each row's grad_input on the way.
vec2 apply_rows(uint n0, uint n1, uint lanes, uint r, uint c, uint C, uint gi, float w) {
  vec2 acc = vec2(0.0);
  for (uint n = n0 + r; n < n1; n += BATCH * lanes) {
    float xv[BATCH], dyv[BATCH];
    [[unroll]] for (uint k = 0; k < BATCH; ++k) {
      const uint m = n + k * lanes;
      xv[k] = m < n1 ? x_s[m * C + c] : 0.0;
      dyv[k] = m < n1 ? dy_s[m * C + c] : 0.0;
    }
    [[unroll]] for (uint k = 0; k < BATCH; ++k) {
      const uint m = n + k * lanes;
      if (m < n1) {
        const vec4 rec = s_rec[gi][m - n0];
        const float e = (xv[k] - rec.x) - rec.y;
        dx_s[m * C + c] = rec.z * (weighted(w, dyv[k]) - (rec.w + s_k2[gi][m - n0] * e));
        acc += vec2(rec.z * (dyv[k] * e), dyv[k]);
      }
    }
  }
  return acc;
}
