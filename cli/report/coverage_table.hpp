// `run --coverage`: one row per variant, one column per regime (verify/coverage.hpp), then
// every gap with a one-off command that would cover it, then a one-line summary.
#pragma once

#include <ostream>

#include "cli/report/coverage.hpp"
#include "cli/report/repro_command.hpp"

namespace gnbench {

void print_coverage(std::ostream& out, const CoverageReport& report, const ReproContext& repro);

}  // namespace gnbench
