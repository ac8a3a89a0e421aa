// --md FILE: the summary table as GitHub-flavoured Markdown, for READMEs and CI summaries.
#pragma once

#include <string>

#include "report/records.hpp"

namespace gnbench {

std::string markdown_report(const RunRecords& records);

}  // namespace gnbench
