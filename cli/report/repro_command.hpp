// The command line that reruns one problem x variant exactly: a one-off
// (`gnbench run --batch ... --eps ... --seed ...`) where the problem's fields all have
// one-off flags, else the config file with --problem.
#pragma once

#include <string>
#include <vector>

#include "base/problem.hpp"

namespace gnbench {

struct ReproContext {
  std::vector<std::string> configs;      // where config problems came from
  std::vector<std::string> kernel_dirs;  // --kernels folders beyond the built-in one
  std::string device;                    // --device, empty = default
  uint32_t trials = 1;
  bool no_timing = true;  // false for failures only the timed runs showed
};

// True when the one-off flags can express every field of `p` (a distribution at its default
// param, built-in tolerances, no expectation).
bool one_off_expressible(const Problem& p);

std::string one_off_command(const Problem& p, const std::string& variant, const ReproContext& ctx);

// The one-off command where one_off_expressible(p), else the config form.
std::string repro_command(const Problem& p, const std::string& variant, const ReproContext& ctx);

}  // namespace gnbench
