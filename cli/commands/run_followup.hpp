// What `run` prints after its table when entries failed: the command that reruns each failing
// entry exactly, and for failing random problems the smallest failing problem the shrinker
// found (bench/shrinker.hpp), with its command.
#pragma once

#include <atomic>
#include <ostream>

#include "cli/bench/bench_options.hpp"
#include "cli/bench/records.hpp"
#include "cli/report/repro_command.hpp"

namespace gnbench {

struct FollowUpLimits {
  size_t commands = 10;    // reproduce lines printed
  size_t shrinks = 3;      // failing random entries shrunk (distinct variants first)
  uint32_t attempts = 48;  // problems run per shrink
};

void follow_up_failures(std::ostream& out, const RunRecords& records, const BenchOptions& bench,
                        const ReproContext& repro, const FollowUpLimits& limits,
                        const std::atomic<bool>* stop);

}  // namespace gnbench
