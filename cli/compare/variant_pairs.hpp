// `gnbench compare --variants A B FILE`: one run split into two, variant A as the baseline
// and variant B as the current run, so that compare_runs pairs them problem by problem (as
// Google Benchmark's compare.py does in its filters mode).
#pragma once

#include <string>
#include <utility>

#include "cli/bench/records.hpp"

namespace gnbench {

// Both halves keep the run's context; every entry's variant becomes "B vs A" so that the
// same problem pairs up. Throws ConfigError naming `source` when A or B has no entry, or
// A == B.
std::pair<RunRecords, RunRecords> split_by_variants(const RunRecords& run, const std::string& a,
                                                    const std::string& b,
                                                    const std::string& source);

}  // namespace gnbench
