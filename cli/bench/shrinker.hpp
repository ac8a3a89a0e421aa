// Shrinking a failure, as QuickCheck and Hypothesis do: rerun the failing variant on ever
// smaller versions of the problem (fewer batch items, groups, channels per group, spatial
// elements; groups always divide channels; eps, distribution and seed unchanged) and keep
// the smallest that still fails the same way, within a bounded number of runs.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/bench/bench_runner.hpp"

namespace gnbench {

// "FAIL grad_input", "ERROR": the verdict and what failed first, which a smaller problem must
// reproduce to count as the same failure.
std::string failure_signature(const EntryRecord& e);

// Smaller shapes to try next, most aggressive first: each of N, HW, channels per group and
// groups set to 1, halved, cut by a quarter, by an eighth, by one (the others unchanged).
std::vector<Shape> shrink_candidates(const Shape& shape);

struct ShrinkOutcome {
  Problem smallest;       // the original problem when nothing smaller failed
  std::string message;    // its failure message
  uint32_t attempts = 0;  // problems run
  uint32_t steps = 0;     // accepted shrinks
};

// `runner` must select exactly the failing entry's variant. Runs at most `max_attempts`
// problems; stops early when `stop` becomes true.
ShrinkOutcome shrink_failure(BenchRunner& runner, const EntryRecord& failing, uint32_t max_attempts,
                             const std::atomic<bool>* stop);

}  // namespace gnbench
