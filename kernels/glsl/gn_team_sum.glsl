// Sums over a team of TEAM consecutive lanes of one subgroup (gn_team.comp's row teams,
// gn_rowpiece.comp's TEAM tiles): an xor butterfly of subgroupShuffleXor. Both partners of a
// step add the same two values, so every lane of a team ends with the same bits, in a fixed
// order (bitwise reproducible). The includer defines TEAM and enables
// GL_KHR_shader_subgroup_shuffle; DEFINE_TEAM_SUM(T) defines team_sum for the type T.
#if TEAM < 1 || (TEAM & (TEAM - 1)) != 0 || (SUBGROUP_SIZE % TEAM) != 0
#error "TEAM must be a power of two dividing SUBGROUP_SIZE (the xor butterfly)"
#endif
#define DEFINE_TEAM_SUM(T)                                                                      \
  T team_sum(T v) {                                                                             \
    [[unroll]] for (uint off = TEAM / 2; off > 0u; off >>= 1) v += subgroupShuffleXor(v, off); \
    return v;                                                                                   \
  }
