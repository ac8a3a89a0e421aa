// The join of gn_onchip2.comp's SPLIT builds: a group too large for one workgroup's registers
// is cut into S parts of whole rows (channels), one workgroup each, so the group still stays on
// chip (3T) and a group's parts run on several SMs at once. Each part publishes its local
// statistics and row sums, the parts meet, and each finishes its own rows from the combined
// statistics: one dispatch, grad_weight / grad_bias included (the last part of a g over every n
// sums the per-(n, c) partials).
//
// Vulkan promises no progress to a workgroup that waits for another one, and a device may run
// fewer workgroups at once than a group has parts (lavapipe on 2 cores runs 2). So no wait is
// unbounded: a part that has waited SPLIT_SPINS polls gives its rows up (a claim flag), and the
// part that arrives last finishes every given-up part, loading its rows into the same register
// slots and running the same grad_input loop (gn_onchip2.comp). Given-up or not, every value is
// computed by the same instructions from the same published numbers, so the outputs are bitwise
// the same whichever part finishes which rows.
//
// Bindings 4-9; the includer sets PARAMS_BINDING 10 and includes this after gn_common.glsl.
// sync[] is zero-filled by the runtime and left zero: the last part of an (n, g) to leave resets
// its counters and claims, the part that completes a g resets that g's count.
#ifndef SPLIT_SPINS
#define SPLIT_SPINS 16384
#endif
layout(std430, set = 0, binding = 4) writeonly restrict buffer GwBuf { float grad_weight[]; };
layout(std430, set = 0, binding = 5) writeonly restrict buffer GbBuf { float grad_bias[]; };
// Per (n, c): the finished partials (rstd * sum dy*(x - mean), sum dy), summed over n at the end.
layout(std430, set = 0, binding = 6) coherent restrict buffer PartBuf { vec2 part[]; };
// Per (n, c): (sum dy, sum dy*(d - m_k)) about the row's part's own mean m_k.
layout(std430, set = 0, binding = 7) coherent restrict buffer RowBuf { vec2 row_sums[]; };
// Per (n, g, part): (m_k, M2_k, sum_rows w*A, sum_rows w*B) of d = x - K.
layout(std430, set = 0, binding = 8) coherent restrict buffer RecBuf { vec4 rec[]; };
// [N*G arrivals][N*G departures][G parts done over n][N*G*S claims]
layout(std430, set = 0, binding = 9) coherent restrict buffer SyncBuf { uint sync_w[]; };

#define ROLE_OWNER 0u     // finishes its own rows
#define ROLE_LAST 1u      // arrived last: its own rows, then every given-up part
#define ROLE_GAVE_UP 2u   // waited SPLIT_SPINS polls: its rows are the last part's
#define CLAIM_GIVEN_UP 1u
#define CLAIM_KEPT 2u

struct SplitStats {
  float mean;  // of d over the group
  float rstd;
  float cA;    // mean(w*dy)
  float k2;    // rstd^2 * mean(w*dy*(d - mean))
};
shared uint s_role;

// Polls with an atomic: a `volatile` sync buffer read with plain loads left claims set after a
// run on lavapipe under load (its atomics on that buffer went wrong, about 1 run in 10).
uint split_poll(uint i) { return atomicAdd(sync_w[i], 0u); }
#define SPLIT_POLL_4(x) x x x x
#define SPLIT_POLL_256(x) SPLIT_POLL_4(SPLIT_POLL_4(SPLIT_POLL_4(SPLIT_POLL_4(x))))
// sync_w indices: (n, g)'s arrivals and departures, g's finished rows, part k's claim.
uint sync_arrived(uint ng) { return ng; }
uint sync_left(uint ng) { return params.batch * params.num_groups + ng; }
uint sync_g_rows(uint g) { return 2u * params.batch * params.num_groups + g; }
uint sync_claim(uint ng, uint S, uint k) {
  return 2u * params.batch * params.num_groups + params.num_groups + ng * S + k;
}

// Rows of part k of a group of cpg rows cut into parts of rp rows.
uint split_rows(uint k, uint rp, uint cpg) { return min(rp, cpg - k * rp); }

// The (n, g)'s statistics from its S records (Chan's merge of (count, mean, M2)): every
// invocation loads its records at once, summed in a fixed order (parts merged one by one by a
// single invocation cost a global round trip each). Uniform control flow.
DEFINE_WG_SUM(split_sum1, float, 0.0)
DEFINE_WG_SUM(split_sum3, vec3, vec3(0.0))
SplitStats split_merge(uint ng, uint S, uint rp, uint cpg, uint hw, float eps) {
  const float M = float(cpg * hw);
  float s1 = 0.0;
  for (uint k = gl_LocalInvocationID.x; k < S; k += WG_SIZE)
    s1 += float(split_rows(k, rp, cpg) * hw) * rec[ng * S + k].x;
  const float mean = split_sum1(s1) / M;
  vec3 s3 = vec3(0.0);  // (M2, sum w*A, sum w*B about the group mean)
  for (uint k = gl_LocalInvocationID.x; k < S; k += WG_SIZE) {
    const vec4 r = rec[ng * S + k];
    const float dm = r.x - mean;
    s3 += vec3(r.y + float(split_rows(k, rp, cpg) * hw) * dm * dm, r.z, r.w + dm * r.z);
  }
  const vec3 t = split_sum3(s3);
  SplitStats st;
  st.mean = mean;
  st.rstd = inversesqrt(t.x / M + eps);
  st.cA = t.y / M;
  st.k2 = st.rstd * st.rstd * (t.z / M);
  return st;
}

// Rows [first, first + nr) of part[], about the group mean, from their row sums about their
// part's mean m_k; `precise` so that a part and the last part write them bitwise alike.
void split_store_parts(uint first, uint nr, float m_k, SplitStats st) {
  for (uint rr = gl_LocalInvocationID.x; rr < nr; rr += WG_SIZE) {
    const vec2 ab = row_sums[first + rr];
    precise float b = ab.y + (m_k - st.mean) * ab.x;
    precise float rb = st.rstd * b;
    part[first + rr] = vec2(rb, ab.x);
  }
}

// grad_input, for a part's own rows and given-up parts' alike (one loop in gn_onchip2.comp calls
// it); `precise`: no contraction that a compiler may or may not choose.
VT split_grad_in(float w, VT dy, VT d, SplitStats st) {
  precise VT gi = st.rstd * (weighted(w, dy) - (st.cA + st.k2 * (d - st.mean)));
  return gi;
}

// Publishes part k's record (row sums are already written), meets the (n, g)'s other parts and
// returns this workgroup's role. Uniform control flow.
uint split_join(uint ng, uint k, uint S, vec4 record) {
  if (gl_LocalInvocationID.x == 0u) rec[ng * S + k] = record;
  memoryBarrierBuffer();  // records and row sums before the arrival
  barrier();
  if (gl_LocalInvocationID.x == 0u) {
    uint role = ROLE_OWNER;
    uint got = atomicAdd(sync_w[sync_arrived(ng)], 1u) + 1u;
    if (got == S) {
      role = ROLE_LAST;
    } else {
      // Rounds of 256 polls in straight-line code: lavapipe counts every loop iteration of an
      // invocation against one budget of 65535 and cuts loops short past it, the loops after
      // the wait too (a wait of 4M polls in single-poll iterations left the last part's reset
      // of the claims undone: 'sync' not zero after about 1 run in 30 under load). Each poll
      // leaves the wait as soon as every part has arrived: a round that went on polling made
      // the split build 3.5-4.2x slower (H100 run 47b, sd15_unet_640x64x64_b8 137 -> 531 us).
      for (uint o = 0u; o < (uint(SPLIT_SPINS) + 255u) / 256u; ++o) {
        SPLIT_POLL_256(got = split_poll(sync_arrived(ng)); if (got >= S) break;)
      }
      if (got < S) {
        if (atomicCompSwap(sync_w[sync_claim(ng, S, k)], 0u, CLAIM_GIVEN_UP) == 0u) {
          role = ROLE_GAVE_UP;
        } else {
          // The last part kept these rows for us after its arrival: that count will show.
          while (split_poll(sync_arrived(ng)) < S) {}
        }
      }
    }
    s_role = role;
  }
  barrier();
  memoryBarrierBuffer();  // the others' records after their arrivals
  return s_role;
}

// The last part claims every other part's rows at once, a compare-and-swap per invocation (not
// a round trip and two barriers per part, in series); split_gave_up(k) then says whose rows it
// must finish. A bit per part: S <= CPG <= 1024. Uniform control flow.
shared uint s_gave_up[32];
void split_take_all(uint ng, uint k_self, uint S) {
  for (uint i = gl_LocalInvocationID.x; i < 32u; i += WG_SIZE) s_gave_up[i] = 0u;
  barrier();
  for (uint k = gl_LocalInvocationID.x; k < S; k += WG_SIZE)
    if (k != k_self &&
        atomicCompSwap(sync_w[sync_claim(ng, S, k)], 0u, CLAIM_KEPT) == CLAIM_GIVEN_UP)
      atomicOr(s_gave_up[k >> 5u], 1u << (k & 31u));
  barrier();
}
bool split_gave_up(uint k) { return ((s_gave_up[k >> 5u] >> (k & 31u)) & 1u) != 0u; }

// Leaves the join (after the last use of this (n, g)'s counters and claims) and counts `rows`
// finished partials of g; true in the workgroup that completes g over every n, which then sees
// every part[] row of g. Uniform control flow.
shared bool s_g_done;
bool split_leave(uint ng, uint g, uint S, uint rows) {
  const uint CPG = params.channels / params.num_groups;
  memoryBarrierBuffer();  // part[] rows before the count
  barrier();
  if (gl_LocalInvocationID.x == 0u) {
    if (atomicAdd(sync_w[sync_left(ng)], 1u) == S - 1u) {  // all have left: ready for the next run
      sync_w[sync_arrived(ng)] = 0u;
      sync_w[sync_left(ng)] = 0u;
      for (uint k = 0u; k < S; ++k) sync_w[sync_claim(ng, S, k)] = 0u;
    }
    bool done = false;
    if (rows > 0u) {
      const uint total = params.batch * CPG;
      done = atomicAdd(sync_w[sync_g_rows(g)], rows) + rows == total;
      if (done) sync_w[sync_g_rows(g)] = 0u;
    }
    s_g_done = done;
  }
  barrier();
  memoryBarrierBuffer();  // the others' part[] rows after the count
  return s_g_done;
}
