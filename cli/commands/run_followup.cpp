#include "cli/commands/run_followup.hpp"

#include <set>

#include "base/format.hpp"
#include "cli/bench/shrinker.hpp"

namespace gnbench {
namespace {

// Failing random entries to shrink: one per variant first, then the rest, up to `count`.
std::vector<const EntryRecord*> to_shrink(const RunRecords& records, size_t count) {
  std::vector<const EntryRecord*> first, rest;
  std::set<std::string> variants;
  for (const auto& e : records.entries) {
    if (!is_failure(e.verdict) || !e.problem.random) continue;
    (variants.insert(e.variant).second ? first : rest).push_back(&e);
  }
  first.insert(first.end(), rest.begin(), rest.end());
  if (first.size() > count) first.resize(count);
  return first;
}

}  // namespace

void follow_up_failures(std::ostream& out, const RunRecords& records, const BenchOptions& bench,
                        const ReproContext& repro, const FollowUpLimits& limits,
                        const std::atomic<bool>* stop) {
  size_t failures = 0;
  for (const auto& e : records.entries) {
    if (!is_failure(e.verdict)) continue;
    if (failures++ == 0) out << "\nReproduce:\n";
    if (failures <= limits.commands) {
      ReproContext ctx = repro;
      ctx.no_timing = !e.failed_after_timing;
      out << "  " << e.name() << ": " << repro_command(e.problem, e.variant, ctx) << "\n";
    }
  }
  if (failures > limits.commands)
    out << "  ... and " << failures - limits.commands << " more failing entries\n";

  for (const EntryRecord* e : to_shrink(records, limits.shrinks)) {
    if (stop && *stop) return;
    BenchOptions o = bench;
    o.variants = {e->variant};
    o.timing = false;
    o.measure_copy_bandwidth = false;
    o.dump_dir.reset();
    BenchRunner runner(o);
    const ShrinkOutcome s = shrink_failure(runner, *e, limits.attempts, stop);
    out << "Shrunk " << e->name() << " (" << shape_label(e->problem.shape) << ") in " << s.attempts
        << " runs to " << shape_label(s.smallest.shape) << ": " << s.message
        << "\n  smallest failing: " << one_off_command(s.smallest, e->variant, repro) << "\n";
  }
}

}  // namespace gnbench
