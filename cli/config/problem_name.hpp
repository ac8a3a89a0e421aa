// Names of one-off problems (run --batch/--channels/...): derived from what defines them, so
// that results of several one-off runs merge and compare without clashing.
#pragma once

#include <string>

#include "base/problem.hpp"

namespace gnbench {

// "n8_c320_hw4096_g32", then what differs from the defaults (normal inputs, eps 1e-5, seed 0):
// "_large_mean" (with "_p<param>" when it has one), "_eps1e-06", "_seed7".
std::string one_off_problem_name(const Problem& problem);

}  // namespace gnbench
