#include "cli/config/device_fit.hpp"

#include <limits>

#include "base/errors.hpp"

namespace gnbench {

void validate_against_device(const Problem& problem, const DeviceLimits& limits,
                             uint64_t extra_bytes, const std::string& source) {
  const std::string where = source + ": problem '" + problem.name + "': ";
  const uint64_t bytes = problem.shape.tensor_bytes();
  // All three big tensors have the same size; each is its own buffer and binding.
  for (const char* tensor : {"x", "grad_out", "grad_input"}) {
    if (bytes > limits.max_storage_buffer_range)
      throw ConfigError(where + "tensor " + tensor + " is " + std::to_string(bytes) +
                        " bytes, over the device's maxStorageBufferRange " +
                        std::to_string(limits.max_storage_buffer_range));
    if (bytes > limits.max_memory_allocation_size)
      throw ConfigError(where + "tensor " + tensor + " is " + std::to_string(bytes) +
                        " bytes, over the device's maxMemoryAllocationSize " +
                        std::to_string(limits.max_memory_allocation_size));
  }
  const uint64_t vectors = 3 * uint64_t{problem.shape.channels} * sizeof(float);
  const uint64_t fixed = 3 * bytes + vectors;
  // Saturate: extra_bytes comes from the variant and must not wrap the sum into range.
  const uint64_t total = extra_bytes > std::numeric_limits<uint64_t>::max() - fixed
                             ? std::numeric_limits<uint64_t>::max()
                             : fixed + extra_bytes;
  if (total > limits.device_local_memory)
    throw ConfigError(where + "needs " + std::to_string(total) + " bytes in total (3 tensors of " +
                      std::to_string(bytes) + " + " + std::to_string(vectors) + " per-channel + " +
                      std::to_string(extra_bytes) +
                      " scratch), over the device's largest device-local heap " +
                      std::to_string(limits.device_local_memory));
}

}  // namespace gnbench
