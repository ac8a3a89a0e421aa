// FOLD (the gn_onchip2 builds whose name ends in `f`): grad_weight / grad_bias in the same
// dispatch as grad_input, without gn_dwdb_split.comp's second dispatch and the barrier before
// it (3-4 us hot on the H200, more cold: gpu-log run 24).
//
// Workgroups take the (n, g) pairs g-major, ng = g * N + n, so the N workgroups of a group run
// close together in the dispatch and each group's last one (a counter per group) comes as soon
// as its group is done, not all of them at the end of the dispatch as n-major order would
// have it. That workgroup sums the group's per-(n, c) partials over n with all its subgroups:
// each channel's n range spread over P = max(1, NUM_SG / CPG) subgroups, subgroupAdd per
// subgroup, then the P totals in subgroup order (a fixed order: bitwise reproducible).
// gn_onchip_* and gn_regx_* sum over n with one invocation per channel, serial in N (their
// `when` has N < 24).
//
// The includer includes gn_part.glsl first (with FOLD defined, part[] is coherent and
// readable), then this; the counter is binding 8 (after the params at 7), zero-filled by the
// runtime and reset by each group's last workgroup.
layout(std430, set = 0, binding = 8) coherent restrict buffer CountBuf { uint counter[]; };  // [G]
shared bool s_last;
shared vec2 s_fold[NUM_SG];

// ng -> (n, g), g-major.
uvec2 fold_ng(uint ng) { return uvec2(ng % params.batch, ng / params.batch); }

// Counts this workgroup's part[] rows (written by every invocation before the call, from
// uniform control flow) towards group g; the count's result, in invocation 0 only, goes to
// fold_finish after grad_input is stored, so the atomic's latency hides behind the stores.
uint fold_arrive(uint g) {
  memoryBarrierBuffer();  // this invocation's records before the count
  barrier();
  uint arrived = 0u;
  if (gl_LocalInvocationID.x == 0u && params.batch > 1u) arrived = atomicAdd(counter[g], 1u);
  return arrived;
}

// In the group's last workgroup: grad_weight / grad_bias of its channels c0 .. c0 + cpg - 1.
void fold_finish(uint g, uint c0, uint cpg, uint arrived) {
  if (params.batch == 1u) return;  // store_part wrote them
  if (gl_LocalInvocationID.x == 0u) {
    s_last = arrived == params.batch - 1u;
    if (s_last) counter[g] = 0u;  // ready for the next run
  }
  barrier();
  if (!s_last) return;  // uniform
  memoryBarrierBuffer();  // the others' records after the count
  const uint C = params.channels, N = params.batch;
  const uint P = max(1u, NUM_SG / cpg);  // subgroups per channel
  const uint per = NUM_SG / P;           // channels per round
  const uint stride = P * SUBGROUP_SIZE;
  const uint s = gl_SubgroupID, lane = gl_SubgroupInvocationID;
  for (uint r0 = 0u; r0 < cpg; r0 += per) {
    const uint c = r0 + s / P;
    vec2 acc = vec2(0.0);
    if (s < per * P && c < cpg) {
      // Four loads in flight per step, summed in order.
      for (uint n0 = (s % P) * SUBGROUP_SIZE + lane; n0 < N; n0 += 4u * stride) {
        vec2 v[4];
        [[unroll]] for (uint k = 0; k < 4u; ++k) {
          const uint n = n0 + k * stride;
          v[k] = n < N ? part[n * C + c0 + c] : vec2(0.0);
        }
        acc += (v[0] + v[1]) + (v[2] + v[3]);
      }
    }
    acc = subgroupAdd(acc);
    if (subgroupElect()) s_fold[s] = acc;
    barrier();
    const uint t = gl_LocalInvocationID.x;
    if (t < per && r0 + t < cpg) {
      vec2 tot = vec2(0.0);
      for (uint i = 0u; i < P; ++i) tot += s_fold[t * P + i];
      grad_weight[c0 + r0 + t] = tot.x;
      grad_bias[c0 + r0 + t] = tot.y;
    }
    barrier();
  }
}
