// `run --list`: what a run would do, problem x variant, without running anything.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "cli/bench/bench_runner.hpp"  // PlannedEntry

namespace gnbench {

struct PlanCounts {
  size_t runs = 0, not_applicable = 0, not_chosen = 0;
};
PlanCounts count_plan(const std::vector<PlannedEntry>& plan);

// A header line with the counts, then one row per entry: "run" or "skip: <reason>".
void print_run_plan(std::ostream& out, const std::vector<PlannedEntry>& plan);

}  // namespace gnbench
