// The human-facing summary of a run: one row of formatted cells per problem x variant (with
// a "cold us" and a "hot us" column when both modes were timed).
// The terminal table and the Markdown table print these same cells.
#pragma once

#include <string>
#include <vector>

#include "cli/bench/records.hpp"

namespace gnbench {

struct SummaryTable {
  std::vector<std::string> titles;
  std::vector<bool> left_aligned;
  std::vector<std::vector<std::string>> rows;
};

struct TableOptions {
  bool show_skipped = false;  // SKIP rows (and their reasons) are otherwise only counted
};

// With --stage-times, "stage 1 us", "stage 2 us"... columns at the end ("<stage> <median>").
SummaryTable summary_table(const RunRecords& records, const TableOptions& options = {});

// The run's one-line header: gnbench version, device, copy bandwidth, timing mode.
std::string summary_header(const RunContext& context);

// The notes under the table: non-PASS entries with their messages, then legends and warnings.
// Hidden SKIP entries are one line: how many, and how to list them.
std::vector<std::string> summary_notes(const RunRecords& records, const TableOptions& options = {});

}  // namespace gnbench
