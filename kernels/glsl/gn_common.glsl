// Shared pieces of the gn_* GroupNorm-backward variants (fused and onchip families).
//
// Conventions every includer follows:
//  - PARAMS_BINDING is defined before the include: the binding of the uniform, which holds
//    the seed's 8 u32 (N, C, HW, G, eps bits, 3 pads) then the manifest's aux params.
//  - VEC is 1 (scalar), 4 (vec4 loads/stores; the manifest guarantees the alignment, e.g.
//    HW % 4 == 0) or 2 (vec2: gn_sgroup's builds for groups of M % 4 == 2 elements).
//  - SUBGROUP_SIZE and WG_SIZE come from the runtime; reductions assume full subgroups
//    (WG_SIZE a multiple of SUBGROUP_SIZE), true on NVIDIA (32) and lavapipe (8).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_EXT_control_flow_attributes : require

#ifndef VEC
#define VEC 1
#endif
#if VEC == 4
#define VT vec4
#define VZERO vec4(0.0)
// Fixed pairing so the result does not depend on the compiler's choice of order.
float hsum(vec4 v) { return (v.x + v.y) + (v.z + v.w); }
#define K_OF(v) (v).x  // the first element of a VT (the shift K of a group starting there)
#elif VEC == 2
#define VT vec2
#define VZERO vec2(0.0)
float hsum(vec2 v) { return v.x + v.y; }
#define K_OF(v) (v).x
#elif VEC == 1
#define VT float
#define VZERO 0.0
float hsum(float v) { return v; }
#define K_OF(v) (v)
#else
#error "VEC must be 1, 2 or 4"
#endif

// w*dy rounded on its own ('precise' is SPIR-V NoContraction). grad_input subtracts
// mean(w*dy) from it; fused into one FMA, the product's rounding error (times rstd) would
// be left where the answer is 0, as in one-element groups (the H200 driver fuses).
VT weighted(float w, VT dy) {
  precise VT p = w * dy;
  return p;
}
#if VEC > 1
// The same per component, each element with its own weight (a vector spanning channels).
VT weighted(VT w, VT dy) {
  precise VT p = w * dy;
  return p;
}
#endif

#if (WG_SIZE % SUBGROUP_SIZE) != 0
#error "WG_SIZE must be a multiple of SUBGROUP_SIZE"
#endif
#define NUM_SG (WG_SIZE / SUBGROUP_SIZE)

layout(local_size_x = WG_SIZE) in;

layout(std140, set = 0, binding = PARAMS_BINDING) uniform ParamsBlock {
  uint batch;
  uint channels;
  uint spatial;
  uint num_groups;
  uint eps_bits;
  uint _pad0;
  uint _pad1;
  uint _pad2;
  uvec4 aux_lo;  // manifest params 0..3
  uvec4 aux_hi;  // manifest params 4..7
} params;

// Dispatches may be folded into y when x exceeds maxComputeWorkGroupCount[0].
uint linear_workgroup_id() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }

// Workgroup sum in two subgroup levels; every invocation gets the total. The order is
// fixed (subgroupAdd's tree, then the partials in subgroup order), so results are
// bitwise reproducible. Each use needs its own shared array (no trailing barrier), and
// all invocations must call it from uniform control flow.
#define DEFINE_WG_SUM(NAME, T, ZERO)                                                   \
  shared T NAME##_partials[NUM_SG];                                                   \
  T NAME(T v) {                                                                        \
    v = subgroupAdd(v);                                                                \
    if (subgroupElect()) NAME##_partials[gl_SubgroupID] = v;                           \
    barrier();                                                                         \
    T t = ZERO;                                                                        \
    for (uint i = gl_SubgroupInvocationID; i < NUM_SG; i += SUBGROUP_SIZE)             \
      t += NAME##_partials[i];                                                         \
    return subgroupAdd(t);                                                             \
  }
