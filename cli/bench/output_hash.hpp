// A 64-bit hash of a variant's outputs, so that the determinism check and the check after
// timing compare runs without keeping a second full copy of them.
#pragma once

#include <cstdint>

#include "base/tensors.hpp"

namespace gnbench {

// Equal outputs hash equal; different ones collide with probability ~2^-64.
uint64_t output_hash(const GpuOutputs& out);

}  // namespace gnbench
