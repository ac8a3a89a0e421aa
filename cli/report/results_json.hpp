// gnbench's results file, in Google Benchmark's JSON layout so that its tools/compare.py
// reads two gnbench files as they are: a "context" object and a "benchmarks" array with, per
// problem x variant, one "iteration" entry per timed sample and the mean/median/stddev/cv
// aggregates. The "_median" aggregate carries gnbench's own record under "gnbench" (problem,
// verdict, error metrics, invariants, determinism, per-stage statistics, byte counts), which
// is what `gnbench compare` and `gnbench merge` read back. Layout: docs/results.md.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "report/records.hpp"

namespace gnbench {

inline constexpr int kResultsSchemaVersion = 1;

nlohmann::json results_to_json(const RunRecords& records);

// Throws ConfigError naming `source` when the document is not a gnbench results file.
RunRecords results_from_json(const nlohmann::json& doc, const std::string& source);
RunRecords read_results_file(const std::filesystem::path& path);

}  // namespace gnbench
