#include "cli/report/run_plan.hpp"

#include <algorithm>

#include "base/format.hpp"
#include "cli/report/table_printer.hpp"

namespace gnbench {

PlanCounts count_plan(const std::vector<PlannedEntry>& plan) {
  PlanCounts n;
  for (const auto& e : plan)
    ++(e.skip_reason.empty()         ? n.runs
       : e.skip_reason == kNotChosen ? n.not_chosen
                                     : n.not_applicable);
  return n;
}

void print_run_plan(std::ostream& out, const std::vector<PlannedEntry>& plan) {
  const PlanCounts n = count_plan(plan);
  out << plan.size() << " entries: " << n.runs << " would run, " << n.not_applicable
      << " not applicable";
  if (n.not_chosen) out << ", " << n.not_chosen << " not chosen (--variant best)";
  out << "\n";
  SummaryTable t;
  t.titles = {"problem", "NxCxHW/G", "inputs", "variant", "plan"};
  t.left_aligned.assign(t.titles.size(), true);
  for (const auto& e : plan)
    t.rows.push_back({e.problem.name, shape_label(e.problem.shape), e.problem.distribution.kind,
                      e.variant, e.skip_reason.empty() ? "run" : "skip: " + e.skip_reason});
  print_aligned(out, t);
}

}  // namespace gnbench
