#include "cli/report/run_plan.hpp"

#include <algorithm>

#include "base/format.hpp"
#include "cli/report/table_printer.hpp"

namespace gnbench {

void print_run_plan(std::ostream& out, const std::vector<PlannedEntry>& plan) {
  const size_t runs = static_cast<size_t>(
      std::count_if(plan.begin(), plan.end(), [](const auto& e) { return e.skip_reason.empty(); }));
  out << plan.size() << " entries: " << runs << " would run, " << plan.size() - runs
      << " not applicable\n";
  SummaryTable t;
  t.titles = {"problem", "NxCxHW/G", "inputs", "variant", "plan"};
  t.left_aligned.assign(t.titles.size(), true);
  for (const auto& e : plan)
    t.rows.push_back({e.problem.name, shape_label(e.problem.shape), e.problem.distribution.kind,
                      e.variant, e.skip_reason.empty() ? "run" : "skip: " + e.skip_reason});
  print_aligned(out, t);
}

}  // namespace gnbench
