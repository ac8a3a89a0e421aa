// The terminal table: one row per problem x variant, readable at a glance, then the
// failure and expected-failure notes, then the warnings that make times untrustworthy.
#pragma once

#include <ostream>

#include "cli/bench/records.hpp"
#include "cli/report/summary_rows.hpp"

namespace gnbench {

void print_table(std::ostream& out, const RunRecords& records, const TableOptions& options = {});
// Cells padded to their column's widest, two spaces apart (cells never hold two in a row).
void print_aligned(std::ostream& out, const SummaryTable& table);
// One line per variant stage with the driver's statistics of its compiled code (registers,
// spills... whatever the driver names), or a line saying the device reports none.
void print_pipeline_statistics(std::ostream& out, const RunRecords& records);

}  // namespace gnbench
