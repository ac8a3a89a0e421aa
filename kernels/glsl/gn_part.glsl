// The per-(n, c) partials (rstd * sum dy*(x - mean), sum dy) that gn_dwdb_split.comp sums over
// n into grad_weight / grad_bias. At batch 1 those sums are the partials themselves, so
// store_part writes grad_weight / grad_bias directly and the manifests run the dwdb stage only
// where N > 1: one dispatch and barrier fewer, whose fixed cost (3-4 us on the H200, gpu-log
// run 24) is most of a small problem's time. Bindings 4-6; the including shader sets
// PARAMS_BINDING 7 and includes this after gn_common.glsl.
layout(std430, set = 0, binding = 4) writeonly restrict buffer PartBuf { vec2 part[]; };  // [N*C]
layout(std430, set = 0, binding = 5) writeonly restrict buffer GwBuf { float grad_weight[]; };
layout(std430, set = 0, binding = 6) writeonly restrict buffer GbBuf { float grad_bias[]; };

// row = n * C + c; v = (rstd * B, A).
void store_part(uint row, vec2 v) {
  if (params.batch == 1u) {  // row == c
    grad_weight[row] = v.x;
    grad_bias[row] = v.y;
  } else {
    part[row] = v;
  }
}

// The same for a part[] of `rows` rows, each summing several samples (gn_flat.comp's SAMPLES):
// row = r * C + c, and one row is grad_weight / grad_bias itself. Kept apart from store_part so
// that the builds above compile to the SPIR-V they were timed with.
void store_row(uint rows, uint row, vec2 v) {
  if (rows == 1u) {
    grad_weight[row] = v.x;
    grad_bias[row] = v.y;
  } else {
    part[row] = v;
  }
}
