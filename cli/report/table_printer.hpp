// The terminal table: one row per problem x variant, readable at a glance, then the
// failure and expected-failure notes, then the warnings that make times untrustworthy.
#pragma once

#include <ostream>

#include "report/records.hpp"

namespace gnbench {

void print_table(std::ostream& out, const RunRecords& records);

}  // namespace gnbench
