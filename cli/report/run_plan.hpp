// `run --list`: what a run would do, problem x variant, without running anything.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "cli/bench/bench_runner.hpp"  // PlannedEntry

namespace gnbench {

// A header line with the counts, then one row per entry: "run" or "skip: <reason>".
void print_run_plan(std::ostream& out, const std::vector<PlannedEntry>& plan);

}  // namespace gnbench
