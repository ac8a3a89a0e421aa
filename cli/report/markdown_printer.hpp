// --md FILE: the summary table as GitHub-flavoured Markdown, for READMEs and CI summaries.
#pragma once

#include <string>

#include "cli/bench/records.hpp"
#include "cli/report/summary_rows.hpp"

namespace gnbench {

std::string markdown_report(const RunRecords& records, const TableOptions& options = {});

}  // namespace gnbench
