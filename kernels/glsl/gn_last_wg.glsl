// The counter of the stages whose last workgroup of a group finishes it in the same dispatch
// (gn_tile.comp's partials with LAST_WG, gn_rowpiece.comp with LAST_WG). No workgroup waits on
// another; the runtime zero-fills the counter and the last workgroup resets it. The includer
// declares `coherent` counter[], its records `coherent`, and `shared bool s_last`.

// Publishes this workgroup's records and counts it; true in every invocation of the
// workgroup that counted last (of `total`), which then sees all records.
bool arrive_last(uint slot, uint total) {
  memoryBarrierBuffer();  // this invocation's records before the count
  barrier();
  if (gl_LocalInvocationID.x == 0u) {
    const bool last = atomicAdd(counter[slot], 1u) == total - 1u;
    if (last) counter[slot] = 0u;  // ready for the next run
    s_last = last;
  }
  barrier();
  memoryBarrierBuffer();  // the others' records after the count
  return s_last;
}
