// Whether a problem fits the device, checked before anything is allocated.
#pragma once

#include <cstdint>
#include <string>

#include "base/device_limits.hpp"
#include "base/problem.hpp"

namespace gnbench {

// Each tensor within maxStorageBufferRange and maxMemoryAllocationSize, all buffers within
// the largest device-local heap. `extra_bytes` is the variant's scratch memory, added to the
// total. Throws ConfigError "<source>: problem '<name>': ...".
void validate_against_device(const Problem& problem, const DeviceLimits& limits,
                             uint64_t extra_bytes, const std::string& source);

}  // namespace gnbench
