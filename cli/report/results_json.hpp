// gnbench's results file, in Google Benchmark's JSON layout so that its tools/compare.py
// reads two gnbench files as they are: a "context" object and a "benchmarks" array with, per
// problem x variant, the mean/median/stddev/cv aggregates (and, only on request, one
// "iteration" entry per stored sample: the samples are in the record as one array). The "_median"
// aggregate carries gnbench's own record under "gnbench" (problem, verdict, error metrics,
// invariants, determinism, per-stage statistics, byte counts), which is what `gnbench compare` and
// `gnbench merge` read back. Layout: docs/results.md.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/bench/records.hpp"

namespace gnbench {

inline constexpr int kResultsSchemaVersion = 1;

// per_sample_rows: also one Google Benchmark "iteration" row per stored sample (run
// --per-sample-rows), for tools that want them; the record's samples_ns has them anyway.
// Per-sample times kept in a file per timing: all of them up to this many, else this many
// drawn evenly from the run (its statistics use them all).
inline constexpr size_t kMaxStoredSamples = 200;

nlohmann::json results_to_json(const RunRecords& records, bool per_sample_rows = false);

// Throws ConfigError naming `source` when the document is not a gnbench results file.
RunRecords results_from_json(const nlohmann::json& doc, const std::string& source);
// Checks types and ranges of every field gnbench reads (counts, shapes, schema version);
// throws ConfigError "<source>: not a valid gnbench results file: <field> = <value>: <rule>".
void validate_results_document(const nlohmann::json& doc, const std::string& source);
// Bounded read (never blocks on a FIFO, refuses /dev/zero), the configs' strict JSON reader,
// validate_results_document, results_from_json (report/results_reader.cpp).
RunRecords read_results_file(const std::filesystem::path& path);

}  // namespace gnbench
