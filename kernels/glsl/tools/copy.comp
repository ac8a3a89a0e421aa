#version 450
// gnbench's copy-bandwidth probe: dst = src with vec4 loads and stores, grid-stride loop.
// Bytes read plus bytes written are counted, as for the kernels it is the ceiling of.
layout(local_size_x = WG_SIZE) in;
layout(std430, binding = 0) readonly buffer Src { vec4 src[]; };
layout(std430, binding = 1) writeonly buffer Dst { vec4 dst[]; };

void main() {
  uint count = uint(src.length());
  uint stride = gl_NumWorkGroups.x * WG_SIZE;
  for (uint i = gl_GlobalInvocationID.x; i < count; i += stride) dst[i] = src[i];
}
