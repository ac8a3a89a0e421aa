// Random problems drawn from ranges (a config's "random" block or `run --random N`): shapes
// the shipped lists never thought of, reproducible from one seed. Each problem's name encodes
// its shape, eps, distribution and input seed, so a failure reruns exactly as a one-off.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "base/problem.hpp"

namespace gnbench {

// The names of every input distribution kind (cli/inputs/input_generator.hpp).
std::vector<std::string> all_distribution_kinds();

struct RandomSpec {
  uint32_t count = 20;
  uint64_t seed = 1;
  std::string prefix = "rnd";
  // Inclusive ranges; sizes are drawn log-uniformly (small sizes as likely as large ones,
  // per binary order of magnitude). groups: a uniformly chosen divisor of channels.
  uint32_t batch[2] = {1, 64};
  uint32_t channels[2] = {1, 2048};
  uint32_t spatial[2] = {1, 4096};
  double eps[2] = {1e-12, 1e-1};  // log-uniform, rounded to 3 significant digits
  // Kinds at their default param; by default every kind (the hard ones find what normal
  // inputs hide: large means, constant groups, zero weights, heavy tails, tiny gradients).
  std::vector<std::string> distributions = all_distribution_kinds();
  uint64_t max_elements = uint64_t{1} << 20;  // N*C*HW of every problem
  // Fraction of problems drawn on the dispatch-fold path, N*G > 65535 (there the batch
  // range is ignored: N follows from G). The element cap still holds.
  double fold_fraction = 0.1;
};

// The problems, in order; the same spec gives the same problems on every machine.
// Every problem has built-in tolerances and seed_known_defects().
std::vector<Problem> generate_random_problems(const RandomSpec& spec);

// Reads a config's "random" object; throws ConfigError "<source>: field 'random.<f>' = ...".
RandomSpec parse_random_spec(const nlohmann::json& block, const std::string& source);

// Shortest decimal text that reads back as the same float32 (9 digits at most).
std::string float32_text(float value);

// "<prefix>_n2_c96_hw49_g8_eps3.16e-07_normal_s123": what a problem's name says about it.
std::string random_problem_name(const std::string& prefix, const Problem& problem);

}  // namespace gnbench
