// The lookup rule of dispatch tables: which variant a shape runs (exact entry, else the
// variants' standing on the nearest shapes), and `run --variant best` wired to it.
// docs/performance.md ("Dispatch tables") gives the rule's measurements.
#pragma once

#include <functional>
#include <ostream>
#include <string>

#include "base/problem.hpp"
#include "cli/bench/bench_options.hpp"
#include "cli/bench/records.hpp"
#include "cli/dispatch/dispatch_table.hpp"

namespace gnbench {

// The rule in words, as tune writes it into every table (`rule`).
inline constexpr const char* kDispatchRule =
    "exact (batch, channels, spatial, groups) match: its fastest variant whose `when` admits "
    "the shape on the device; otherwise each admitted variant's weighted mean of log(time / "
    "that entry's fastest) over the 8 entries nearest in d = |log2 M - log2 M'| + |log2 NG - "
    "log2 NG'| + (|log2 HW - log2 HW'| + |log2 CPG - log2 CPG'|) / 2 + 4 * (HW % 4 == 0 "
    "differs) that timed it, weight exp(-d / 2), among the 24 nearest entries (all entries when "
    "those timed no admitted variant); the lowest mean wins; ties: timed on more entries, then "
    "nearer evidence, then the earlier entry";

struct DispatchChoice {
  std::string variant;  // empty: no entry's variant admits the shape
  // "exact", or "nearest <problem> (NxCxHW/G); 1.02x the fastest over 3 near shapes"; either
  // names the device that timed the entry when it is not the table's (tune --fill-from).
  std::string how;
};
// Exact shape first: its fastest variant that `admits` the shape (the variant's `when` on this
// device). Otherwise the variants the shape admits are ranked by how they did on the nearest
// shapes: each one's mean of log(its time / that shape's fastest time), weighted by
// exp(-distance / kDistanceScale), over the (up to) kNeighbours entries nearest in regime
// distance that timed it, looked for among the kWindow nearest entries (among all entries
// when none of those timed an admitted variant).
// The lowest mean wins; ties go to the variant timed on more of them, then to the one with the
// nearer evidence, then the earlier entry. docs/performance.md, "Dispatch tables", gives the
// distance and what the rule measured on shapes a table was not tuned on.
DispatchChoice choose_variant(const DispatchTable& table, const Shape& shape,
                              const std::function<bool(const std::string&)>& admits);
// Regime distance: |log2 M - log2 M'| + |log2 NG - log2 NG'| + (|log2 HW - log2 HW'| +
// |log2 CPG - log2 CPG'|) / 2 + 4 when one has HW % 4 == 0 and the other not (M = C/G*HW,
// NG = N*G, CPG = C/G).
double regime_distance(const Shape& a, const Shape& b);
// Chosen by leave-one-set-out regret over the stored H100 and H200 sets (docs/performance.md,
// "Dispatch tables"; scripts/dispatch_eval.py mirrors the rule).
constexpr size_t kNeighbours = 8;
constexpr size_t kWindow = 3 * kNeighbours;
constexpr double kDistanceScale = 2.0;

// run --variant best: the table's variants become the selection and its choice the chooser.
void use_dispatch_table(BenchOptions& bench, DispatchTable table);
// One line per problem: the variant the table chose and how (exact shape or nearest entry).
// In the run's problem order.
void print_dispatch_choices(std::ostream& out, const RunRecords& records);

}  // namespace gnbench
