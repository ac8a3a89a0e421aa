// --csv FILE: one row per problem x variant with raw numbers (full precision, ns, bytes),
// for spreadsheets and scripts. Timing columns are the headline mode (cold if measured).
#pragma once

#include <string>

#include "report/records.hpp"

namespace gnbench {

std::string csv_report(const RunRecords& records);

}  // namespace gnbench
