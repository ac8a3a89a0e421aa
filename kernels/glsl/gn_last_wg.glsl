// The counter of the stages whose last workgroup of a group finishes it in the same dispatch
// (gn_tile.comp's partials with LAST_WG, gn_rowpiece.comp with LAST_WG). No workgroup waits on
// another; the runtime zero-fills the counter and the last workgroup resets it. The includer
// declares `coherent` counter[], its records `coherent`, and `shared bool s_last`.

// Publishes this workgroup's records and counts `amount` of the slot's `total` (one per
// workgroup, or the workgroup's tiles of the slot); true in every invocation of the workgroup
// whose count completed it, which then sees all records.
bool arrive_last_n(uint slot, uint amount, uint total) {
  memoryBarrierBuffer();  // this invocation's records before the count
  barrier();
  if (gl_LocalInvocationID.x == 0u) {
    const bool last = atomicAdd(counter[slot], amount) + amount == total;
    if (last) counter[slot] = 0u;  // ready for the next run
    s_last = last;
  }
  barrier();
  memoryBarrierBuffer();  // the others' records after the count
  return s_last;
}

bool arrive_last(uint slot, uint total) { return arrive_last_n(slot, 1u, total); }
