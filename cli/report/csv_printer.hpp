// --csv FILE: one row per problem x variant x timing mode measured (cold, then hot; one row
// without timing for untimed entries) with raw numbers (full precision, ns, bytes), for
// spreadsheets and scripts.
#pragma once

#include <string>

#include "cli/bench/records.hpp"

namespace gnbench {

std::string csv_report(const RunRecords& records);

}  // namespace gnbench
