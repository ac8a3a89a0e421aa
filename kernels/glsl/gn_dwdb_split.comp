#version 450
// grad_weight / grad_bias for any batch size in one dispatch: workgroup (x, y) sums the
// per-(n, c) partials of channel block x over the rows n of chunk y (NB rows, params 0) into
// part2[y][c]; the last chunk of each channel block to finish sums the NCH (params 1) chunks
// in order. gn_apply.comp's ENTRY_DWDB gives each channel one invocation that walks all N
// rows, which is slow when N is large and C small (65536 x 128: one workgroup reads 64 MiB).
// Both sums run in a fixed order (n within a chunk, then chunk by chunk), so the result does
// not depend on which workgroup is last: bitwise reproducible. The counters are zero-filled
// by the runtime and reset by the last workgroup.
#define PARAMS_BINDING 5
#include "gn_common.glsl"

layout(std430, set = 0, binding = 0) readonly restrict buffer PartBuf { vec2 part[]; };  // [N*C]
layout(std430, set = 0, binding = 1) coherent restrict buffer Part2Buf { vec2 part2[]; };  // [NCH*C]
layout(std430, set = 0, binding = 2) coherent restrict buffer CountBuf { uint counter[]; };  // [ceil(C/WG)]
layout(std430, set = 0, binding = 3) writeonly restrict buffer GwBuf { float grad_weight[]; };
layout(std430, set = 0, binding = 4) writeonly restrict buffer GbBuf { float grad_bias[]; };

#define BATCH 8u
shared bool s_last;

void main() {
  const uint C = params.channels, N = params.batch;
  const uint NB = params.aux_lo.x, NCH = params.aux_lo.y;
  const uint cb = gl_WorkGroupID.x, chunk = gl_WorkGroupID.y;
  const uint c = cb * WG_SIZE + gl_LocalInvocationID.x;
  const uint n0 = chunk * NB, n1 = min(N, n0 + NB);
  vec2 acc = vec2(0.0);
  if (c < C) {
    for (uint n = n0; n < n1; n += BATCH) {
      vec2 v[BATCH];  // loads in flight together, summed in n order
      [[unroll]] for (uint k = 0; k < BATCH; ++k) v[k] = n + k < n1 ? part[(n + k) * C + c] : vec2(0.0);
      [[unroll]] for (uint k = 0; k < BATCH; ++k) acc += v[k];
    }
  }
  if (NCH == 1u) {  // uniform: one chunk is the whole sum
    if (c < C) {
      grad_weight[c] = acc.x;
      grad_bias[c] = acc.y;
    }
    return;
  }
  if (c < C) part2[chunk * C + c] = acc;
  memoryBarrierBuffer();  // this invocation's record before the count
  barrier();
  if (gl_LocalInvocationID.x == 0u) {
    const bool last = atomicAdd(counter[cb], 1u) == NCH - 1u;
    if (last) counter[cb] = 0u;  // ready for the next run
    s_last = last;
  }
  barrier();
  memoryBarrierBuffer();  // the other chunks' records after the count
  if (!s_last || c >= C) return;
  vec2 tot = vec2(0.0);
  for (uint k = 0; k < NCH; ++k) tot += part2[k * C + c];
  grad_weight[c] = tot.x;
  grad_bias[c] = tot.y;
}
