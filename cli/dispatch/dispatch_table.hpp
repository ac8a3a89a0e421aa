// A shape -> variant dispatch table: what `gnbench tune` measures and writes, what a framework
// embeds, and what `run --variant best --table FILE` runs. Format and lookup rule in
// docs/performance.md ("Dispatch tables").
#pragma once

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "base/problem.hpp"
#include "cli/bench/bench_options.hpp"
#include "cli/bench/records.hpp"

namespace gnbench {

struct DispatchEntry {
  std::string problem;  // where the shape came from
  Shape shape;
  std::string variant;
  double median_us = 0;
  std::string runner_up;  // empty when only one variant was timed
  double runner_up_us = 0;
};

struct DispatchTable {
  std::string device;
  uint32_t subgroup_size = 0;
  std::string timing_mode;  // "hot" or "cold"
  std::string gnbench_revision;
  std::vector<DispatchEntry> entries;  // one per shape
};

// The fastest verified variant per shape (a shape measured twice keeps its faster entry).
// `mode` "hot" or "cold"; throws ConfigError when the records have no timed passing entry.
DispatchTable table_from_records(const RunRecords& records, const std::string& mode,
                                 const std::string& source);
nlohmann::json table_to_json(const DispatchTable& table);
// Throws ConfigError naming the file, the field and the value on anything malformed.
DispatchTable read_dispatch_table(const std::filesystem::path& path);

struct DispatchChoice {
  std::string variant;  // empty: no entry's variant admits the shape
  std::string how;      // "exact" or "nearest <problem> (NxCxHW/G)"
};
// Exact shape first; otherwise the nearest entry by regime whose variant `admits` the shape
// (the variant's `when` on this device): distance |log2 M - log2 M'| + |log2 NG - log2 NG'|
// + 4 when one has HW % 4 == 0 and the other not; ties go to the earlier entry.
DispatchChoice choose_variant(const DispatchTable& table, const Shape& shape,
                              const std::function<bool(const std::string&)>& admits);

// run --variant best: the table's variants become the selection and its choice the chooser.
void use_dispatch_table(BenchOptions& bench, DispatchTable table);
// One line per problem: the variant the table chose and how (exact shape or nearest entry).
// In the run's problem order.
void print_dispatch_choices(std::ostream& out, const RunRecords& records);

}  // namespace gnbench
