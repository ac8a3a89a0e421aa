// A shape -> variant dispatch table: what `gnbench tune` measures and writes (the format),
// what a framework embeds and what `run --variant best --table FILE` runs (dispatch_rule.hpp
// chooses from it). Format and lookup rule in docs/performance.md ("Dispatch tables").
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/problem.hpp"
#include "cli/bench/records.hpp"

namespace gnbench {

struct DispatchEntry {
  std::string problem;  // where the shape came from
  Shape shape;
  std::string variant;
  double median_us = 0;
  std::string runner_up;  // empty when only one variant was timed
  double runner_up_us = 0;
  // Every verified variant's median on this shape, us (version 2; a version-1 table gives
  // the variant and its runner-up only). What the nearest-shapes rule ranks variants by.
  std::map<std::string, double> times_us;
  // The device that timed this shape when it is not the table's (tune --fill-from); else empty.
  std::string device;
};

struct DispatchTable {
  std::string device;
  uint32_t subgroup_size = 0;
  // "hot" or "cold", then what changed those samples: "+stage-times", "+hot-batchK" (hot),
  // "+fill-flush" (cold), as the source results file recorded them.
  std::string timing_mode;
  std::string gnbench_revision;
  bool complete = true;                // false: from an interrupted run (tune, or a --from source)
  std::vector<DispatchEntry> entries;  // one per shape
};

// The fastest verified variant per shape (a shape measured twice keeps its faster entry).
// `mode` "hot" or "cold"; throws ConfigError when the records have no timed passing entry.
DispatchTable table_from_records(const RunRecords& records, const std::string& mode,
                                 const std::string& source);
// `later`'s entries into `table`: a shape in both takes later's entry (tune --from A --from B:
// the later file's measurement of a shape). Throws ConfigError naming `source` when the two
// were measured on different devices, subgroup sizes or timing modes.
void merge_tables(DispatchTable& table, DispatchTable later, const std::string& source);
// `other`'s entries for the shapes `table` has none of, appended (tune --fill-from: another
// device's measurements where this device has none; each names `other`'s device when it differs
// from the table's). Throws ConfigError naming `source` when the subgroup sizes or timing modes
// differ. Returns how many entries it added.
size_t fill_table(DispatchTable& table, DispatchTable other, const std::string& source);
// Drops from every entry the variants `known` refuses (builds this gnbench no longer has), and
// the entries left with none. Returns the names dropped.
std::vector<std::string> keep_known_variants(DispatchTable& table,
                                             const std::function<bool(const std::string&)>& known);
// keep_known_variants with the variants the manifests in `kernel_folders` build; throws
// ConfigError naming `source` when no entry is left.
std::vector<std::string> keep_built_variants(
    DispatchTable& table, const std::vector<std::filesystem::path>& kernel_folders,
    const std::string& source);
nlohmann::json table_to_json(const DispatchTable& table);
// Throws ConfigError naming the file, the field and the value on anything malformed.
DispatchTable read_dispatch_table(const std::filesystem::path& path);

}  // namespace gnbench
