// The per-(n, c) partials (rstd * sum dy*(x - mean), sum dy) that gn_dwdb_split.comp sums over
// n into grad_weight / grad_bias. At batch 1 those sums are the partials themselves, so
// store_part writes grad_weight / grad_bias directly and the manifests run the dwdb stage only
// where N > 1: one dispatch and barrier fewer, whose fixed cost (3-4 us on the H200, gpu-log
// run 24) is most of a small problem's time. Bindings 4-6; the including shader sets
// PARAMS_BINDING 7 and includes this after gn_common.glsl.
#ifdef PART_LAST
layout(std430, set = 0, binding = 4) coherent restrict buffer PartBuf { vec2 part[]; };  // [N*C]
#else
layout(std430, set = 0, binding = 4) writeonly restrict buffer PartBuf { vec2 part[]; };  // [N*C]
#endif
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

#ifdef PART_LAST
// PART_LAST (one (n, g) per workgroup): grad_weight / grad_bias in the same dispatch, no dwdb
// stage. Each workgroup counts itself in g's counter after its partials (gn_last_wg.glsl; no
// workgroup waits), and the last of g's N sums them over n in n order. That one workgroup reads
// N * CPG partials, so the manifests admit these builds only where that is a few loads per
// invocation: small batches, whose time is otherwise mostly the dwdb dispatch's fixed cost.
// The counter is the binding after the uniform's.
layout(std430, set = 0, binding = PARAMS_BINDING + 1) coherent restrict buffer CountBuf { uint counter[]; };  // [G]
shared bool s_last;
#include "gn_last_wg.glsl"

// LAST_C channels x LAST_N samples of loads in flight per invocation: one L2 round trip per
// batch of them, not per load.
#define LAST_C 4u
#define LAST_N 4u
// Call once per workgroup after its partials are stored, in uniform control flow.
void part_finish(uint g) {
  const uint C = params.channels, CPG = C / params.num_groups, N = params.batch;
  if (N == 1u || !arrive_last(g, N)) return;  // uniform; at batch 1 store_part wrote them
  const uint c0 = g * CPG;
  for (uint i0 = gl_LocalInvocationID.x; i0 < CPG; i0 += LAST_C * WG_SIZE) {
    vec2 acc[LAST_C];
    [[unroll]] for (uint a = 0u; a < LAST_C; ++a) acc[a] = vec2(0.0);
    for (uint n0 = 0u; n0 < N; n0 += LAST_N) {
      vec2 v[LAST_C * LAST_N];
      [[unroll]] for (uint a = 0u; a < LAST_C; ++a) {
        [[unroll]] for (uint b = 0u; b < LAST_N; ++b) {
          const uint i = i0 + a * WG_SIZE, n = n0 + b;
          v[a * LAST_N + b] = i < CPG && n < N ? part[n * C + c0 + i] : vec2(0.0);
        }
      }
      [[unroll]] for (uint a = 0u; a < LAST_C; ++a) {
        [[unroll]] for (uint b = 0u; b < LAST_N; ++b) acc[a] += v[a * LAST_N + b];
      }
    }
    [[unroll]] for (uint a = 0u; a < LAST_C; ++a) {
      const uint i = i0 + a * WG_SIZE;
      if (i < CPG) {
        grad_weight[c0 + i] = acc[a].x;
        grad_bias[c0 + i] = acc[a].y;
      }
    }
  }
}
#endif
