// Every manifest expression of a variant evaluated on a problem before the run starts, so
// that a bad expression is a configuration error up front, not lost work mid-run.
#pragma once

#include "base/problem.hpp"
#include "kernels/runtime/device_info.hpp"
#include "kernels/runtime/manifest.hpp"

namespace gnbench {

// Where the variant applies (features, `when`): every dispatch in [1, 2^32-1], every param a
// u32, traffic_bytes >= 0, scratch sizes >= 0 and their sum within 2^64. Throws ConfigError
// naming the manifest, the variant, the field and the value.
void check_variant_expressions(const VariantSpec& spec, const Shape& shape,
                               const DeviceInfo& device);

}  // namespace gnbench
