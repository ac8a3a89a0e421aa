// The few lines that end a run: how many entries got each verdict, and per problem the
// fastest variant that verified, with its time, GB/s and % of copy.
// Built in two steps so that other sources of a "best" (e.g. a tuning pass) can add to the
// struct and the printer without touching the run loop.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "cli/bench/records.hpp"

namespace gnbench {

struct ProblemBest {
  std::string problem;
  const EntryRecord* entry = nullptr;  // fastest PASS/XPASS by headline median; null: none timed
};

struct RunSummary {
  std::map<Verdict, size_t> counts;  // every entry, shown or not
  std::vector<ProblemBest> best;     // one per problem, in run order; empty when nothing timed
  std::string timing;                // the headline mode of the times ("cold", "hot")
};

RunSummary summarize_run(const RunRecords& records);

// "summary: 20 PASS, 0 FAIL, 2 XFAIL, 6 SKIP" (XPASS and ERROR when there are any), then the
// best-variant table.
void print_run_summary(std::ostream& out, const RunSummary& summary);

}  // namespace gnbench
