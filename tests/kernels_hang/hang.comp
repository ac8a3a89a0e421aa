#version 450
// A kernel that "hangs": bounded busy work (about 14 CPU-seconds per run on lavapipe) so that it
// outlives --kernel-timeout 1 and then ends by itself. tests/test_robustness.cpp runs it. Its
// result is meaningless (the entry is ERROR before anyone looks at it).
layout(local_size_x = WG_SIZE) in;
layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) buffer GradInput { float grad_input[]; };
layout(std140, set = 0, binding = 2) uniform Params {
  uint batch, channels, spatial, groups, eps_bits, pad0, pad1, pad2;
  uvec4 aux0;
  uvec4 aux1;
} params;

void main() {
  uint i = gl_GlobalInvocationID.x;
  // xorshift: no closed form a compiler could use to skip the loop.
  uint h = floatBitsToUint(x[i % 16]) | 1u;
  // llvmpipe (lavapipe) ends a shader's loops after 65535 iterations in all, so the time comes
  // from LOOPS (< 65535) iterations of 16 steps each, in every invocation of many workgroups.
  for (uint k = 0u; k < LOOPS; ++k)
    for (int u = 0; u < 16; ++u) {
      h ^= h << 13;
      h ^= h >> 17;
      h ^= h << 5;
    }
  if (i < params.batch * params.channels * params.spatial) grad_input[i] = float(h & 0xffffu);
}
