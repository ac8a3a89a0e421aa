#version 450
// gnbench's cold-sample cache flush: reads a buffer of twice the last-level cache and writes
// nothing (the sink only on an impossible condition, so the loads are kept). Unlike a fill, it
// leaves the cache holding clean lines: the timed kernel after it pays no write-back of
// somebody else's dirty data.
layout(local_size_x = WG_SIZE) in;
layout(std430, binding = 0) readonly buffer Src { uvec4 src[]; };
layout(std430, binding = 1) writeonly buffer Sink { uvec4 sink[]; };

void main() {
  uint count = uint(src.length());
  uint stride = gl_NumWorkGroups.x * WG_SIZE;
  uvec4 acc = uvec4(0);
  for (uint i = gl_GlobalInvocationID.x; i < count; i += stride) acc ^= src[i];
  if (gl_GlobalInvocationID.x == 0xFFFFFFFFu && acc.x == 0x12345678u) sink[0] = acc;
}
