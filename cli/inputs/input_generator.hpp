// Draws the float32 inputs of a problem from its distribution, reproducibly from a seed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/problem.hpp"
#include "base/tensors.hpp"

namespace gnbench {

// Every distribution a config may name, with a one-line description for `--help` and errors.
struct DistributionInfo {
  std::string kind;
  std::string description;
  double default_param;
};
const std::vector<DistributionInfo>& distribution_kinds();
bool is_distribution_kind(const std::string& kind);

// Throws std::invalid_argument when generate_inputs() would reject the distribution: an
// unknown kind, a non-finite or negative param, a param for a kind that takes none, or one out
// of the kind's range (weight_zeros: a zero fraction < 1). Config loaders call it at load time.
void validate_distribution(const Distribution& distribution);

// Same (shape, distribution, seed) -> bit-identical inputs on every machine.
Inputs generate_inputs(const Shape& shape, const Distribution& distribution, uint64_t seed);

// Seed of trial `trial` (0-based) of a problem: trial 0 uses the problem's own seed.
uint64_t trial_seed(uint64_t problem_seed, uint32_t trial);

}  // namespace gnbench
