// Masked vec4 access for rows that do not start on a 16-byte boundary (HW % 4 != 0): a row
// [lo, lo + len) of a float tensor is read as the aligned vec4 that cover it, the elements of
// the neighbouring rows selected out (never multiplied: their values never reach a sum), and
// its end vec4 written per element (the neighbours' owners write theirs). Included after
// gn_common.glsl by the MASKED builds.
#if VEC != 4
#error "MASKED reads vec4"
#endif

// Elements of vec4 number v that belong to the row [lo, lo + len).
bvec4 in_row(uint v, uint lo, uint len) {
  const uvec4 f = uvec4(4u * v) + uvec4(0u, 1u, 2u, 3u);
  return bvec4(uvec4(greaterThanEqual(f, uvec4(lo))) & uvec4(lessThan(f, uvec4(lo + len))));
}

// The vec4 touching the row [lo, lo + len): one more than len / 4 when it straddles.
uint row_vec4s(uint lo, uint len) { return ((lo & 3u) + len + 3u) >> 2u; }

// 4-bit masks of several slots packed in one uint (slot k in bits 4k..4k+3).
uint pack_mask(bvec4 m, uint k) {
  return (uint(m.x) | (uint(m.y) << 1u) | (uint(m.z) << 2u) | (uint(m.w) << 3u)) << (4u * k);
}
bvec4 slot_mask(uint masks, uint k) {
  return notEqual(uvec4(masks >> (4u * k)) & uvec4(1u, 2u, 4u, 8u), uvec4(0u));
}

// The slot masks of an invocation's SLOTS slots (k a constant of an unrolled loop):
// MASKS_DECLARE declares them zeroed, MASKS_ADD(m, k) records slot k's, MASKS_OF(k) reads it
// back, MASKS_BITS() counts the elements recorded. One uint `masks` up to 8 slots (the
// expansion the measured builds were timed with), one uint per 8 slots above.
#if !defined(SLOTS) || SLOTS <= 8
#define MASKS_DECLARE uint masks = 0u
#define MASKS_ADD(m, k) masks |= pack_mask(m, k)
#define MASKS_OF(k) slot_mask(masks, k)
#define MASKS_BITS() bitCount(masks)
#else
#define MASK_WORDS ((SLOTS + 7) / 8)
#define MASKS_DECLARE             \
  uint masks[MASK_WORDS];         \
  [[unroll]] for (uint w_ = 0u; w_ < MASK_WORDS; ++w_) masks[w_] = 0u
#define MASKS_ADD(m, k) masks[(k) >> 3u] |= pack_mask(m, (k) & 7u)
#define MASKS_OF(k) slot_mask(masks[(k) >> 3u], (k) & 7u)
int masks_bits(uint masks[MASK_WORDS]) {
  int n = 0;
  [[unroll]] for (uint w = 0u; w < MASK_WORDS; ++w) n += bitCount(masks[w]);
  return n;
}
#define MASKS_BITS() masks_bits(masks)
#endif

// dst = buf[v], except that components at or past element E (the tensor's last vec4 may be
// partial) are not read and stay 0.
#define LOAD_VEC4_BOUNDED(dst, buf, v, E)                              \
  if (4u * (v) + 3u < (E)) {                                           \
    dst = buf[v];                                                      \
  } else {                                                             \
    dst = vec4(0.0);                                                   \
    for (uint c_ = 0u; c_ < 4u; ++c_)                                  \
      if (4u * (v) + c_ < (E)) dst[c_] = buf[v][c_];                   \
  }

// dst_x = bx[v], dst_dy = bdy[v] under one bounds test for both (components at or past element
// E, in the tensor's partial last vec4, are not read and stay as they were). gn_team.comp's
// masked loads; with LOAD_VEC4_BOUNDED twice, store included, its short-row builds ran 2-3x
// slower (H200 run 32e).
#define LOAD_PAIR_BOUNDED(dst_x, dst_dy, bx, bdy, v, E)                \
  if (4u * (v) + 3u < (E)) {                                           \
    dst_x = bx[v];                                                     \
    dst_dy = bdy[v];                                                   \
  } else {                                                             \
    for (uint c = 0u; c < 4u; ++c)                                     \
      if (4u * (v) + c < (E)) {                                        \
        dst_x[c] = bx[v][c];                                           \
        dst_dy[c] = bdy[v][c];                                         \
      }                                                                \
  }

// MASK_LOADS: how the on-chip builds issue their slots' masked loads. 0: two bounds tests per
// load (run 32's form). 1: LOAD_PAIR_BOUNDED. 2: every slot's full vec4 loads first under one
// predicate (`vs[k]` its vec4, `valid` its bit), then MASKED_SLOTS_FINISH: the tensor's partial
// last vec4, then the masks (x less K, the neighbours' elements zero). Run 41a (H100): 2 is
// 1.06-1.41x faster for the 128-, 192- and 512-invocation builds (gn_onchip2.json sets it there)
// and 3-6x slower for the 1024 one (more live registers); 1 is within 1 %.
#ifndef MASK_LOADS
#define MASK_LOADS 0
#endif
#define MASKED_SLOTS_FINISH(d, dy, vs, valid, bx, bdy, E, K)           \
  [[unroll]] for (uint k_ = 0; k_ < SLOTS; ++k_) {                     \
    if (((valid) >> k_ & 1u) != 0u && 4u * vs[k_] + 3u >= (E)) {       \
      LOAD_PAIR_BOUNDED(d[k_], dy[k_], bx, bdy, vs[k_], E) /* still 0 */ \
    }                                                                  \
    const bvec4 in_k_ = MASKS_OF(k_);                                  \
    d[k_] = mix(VZERO, d[k_] - (K), in_k_);                            \
    dy[k_] = mix(VZERO, dy[k_], in_k_);                                \
  }

// buf[v] = val for the components `m` selects: one vec4 store when it selects all four.
#if defined(MASK_STORE) && MASK_STORE == 1
#define STORE_VEC4_MASKED(buf, v, val, m)                              \
  if (all(m)) {                                                        \
    buf[v] = val;                                                      \
  } else {                                                             \
    if ((m).x) buf[v].x = (val).x;                                     \
    if ((m).y) buf[v].y = (val).y;                                     \
    if ((m).z) buf[v].z = (val).z;                                     \
    if ((m).w) buf[v].w = (val).w;                                     \
  }
#else
#define STORE_VEC4_MASKED(buf, v, val, m)                              \
  if (all(m)) {                                                        \
    buf[v] = val;                                                      \
  } else {                                                             \
    for (uint c_ = 0u; c_ < 4u; ++c_)                                  \
      if ((m)[c_]) buf[v][c_] = (val)[c_];                             \
  }
#endif
