// Random problem shapes inside a variant's own `when`, for the tests that check every build of a
// family (or every build with some property) wherever its manifest band lies. Header-only; used
// by test_family_shapes and test_stage_when.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>

#include "kernels/runtime/manifest.hpp"

namespace gnbench::testing {

// Log-uniform ranges of a drawn shape (any alignment of C, HW or the group).
struct ShapeRange {
  uint32_t batch_lo = 1, batch_hi = 3;
  uint32_t hw_max = 8192;
  uint32_t groups_max = 3;
  uint32_t cpg_max = 256;
  uint64_t max_elements = 600000;
};

// A whole number log-uniform in [lo, hi].
inline uint32_t log_uniform(std::mt19937& rng, double lo, double hi) {
  const double v =
      std::exp(std::uniform_real_distribution<double>(std::log(lo), std::log(hi + 1))(rng));
  return std::clamp(static_cast<uint32_t>(v), static_cast<uint32_t>(lo), static_cast<uint32_t>(hi));
}

// A shape drawn in `range` that `v`'s `when` admits at subgroup size `sg`, or nothing after
// `tries` draws.
inline std::optional<Shape> shape_inside_when(const VariantSpec& v, uint32_t sg,
                                              const ShapeRange& range, std::mt19937& rng,
                                              int tries = 200000) {
  for (int t = 0; t < tries; ++t) {
    Shape s{log_uniform(rng, range.batch_lo, range.batch_hi), 0, log_uniform(rng, 1, range.hw_max),
            log_uniform(rng, 1, range.groups_max)};
    s.channels = s.groups * log_uniform(rng, 1, range.cpg_max);
    if (s.elements() > range.max_elements) continue;
    if (!v.when || v.when->evaluate(problem_variables(s, sg)) != 0) return s;
  }
  return std::nullopt;
}

}  // namespace gnbench::testing
