// `gnbench compare`: the judgement of a current run against a baseline, entry by entry, as pure
// logic over two RunRecords (no I/O, no printing). The rule is documented in docs/compare.md.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "report/records.hpp"

namespace gnbench {

// Exit codes of `gnbench compare` (2 is a usage error, as everywhere).
inline constexpr int kCompareOk = 0;
inline constexpr int kCompareCorrectnessRegression = 1;
inline constexpr int kCompareSlower = 3;
inline constexpr int kCompareInconclusive = 4;

struct CompareOptions {
  double threshold = 0.05;        // smallest relative change of the median that matters
  double noise_k = 2.0;           // |delta median| must exceed noise_k * (IQR_base + IQR_cur) / 2
  double alpha = 0.05;            // Mann-Whitney U two-sided significance level
  size_t min_u_samples = 5;       // both runs need this many samples for the U test
  size_t min_spread_samples = 3;  // fewer samples in either run: the spread is unknown
  double error_growth = 10;       // note when the max scaled error grows by more than this
  double error_floor = 1e-7;      // scaled errors below this (float32 rounding) count as this
  bool ignore_device = false;     // different devices: compare correctness only
  std::string mode = "auto";      // timing mode compared: "cold", "hot", or "auto" (cold when
                                  // both runs measured it, else hot)
};

enum class TimeVerdict { kNone, kSame, kFaster, kSlower, kNoisy };
std::string time_verdict_name(TimeVerdict v);  // "-", "SAME", "FASTER", "SLOWER", "NOISY"

struct MannWhitney {
  double u = 0;        // U of the baseline sample
  double z = 0;        // normal approximation, tie- and continuity-corrected
  double p_value = 1;  // two-sided
};
// Two-sided Mann-Whitney U test by the normal approximation (average ranks for ties).
MannWhitney mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b);

struct TimeComparison {
  TimeVerdict verdict = TimeVerdict::kNone;
  std::string mode;  // "cold" or "hot": the mode both runs measured
  double base_median_ns = 0, cur_median_ns = 0;
  double base_iqr_ns = 0, cur_iqr_ns = 0;
  size_t base_samples = 0, cur_samples = 0;
  double change = 0;    // (cur - base) / base
  double noise_ns = 0;  // the noise band |delta| had to exceed
  std::optional<MannWhitney> u_test;
  std::string reason;  // why NOISY or why not compared
};

struct EntryComparison {
  std::string name;  // problem/variant
  Verdict base_verdict = Verdict::kSkipped, cur_verdict = Verdict::kSkipped;
  bool correctness_regression = false;
  double base_error = 0, cur_error = 0;  // worst max scaled error
  std::vector<std::string> notes;        // verdict changes, error growth
  TimeComparison time;
};

struct ComparisonReport {
  CompareOptions options;
  bool timing_compared = true;  // false when devices differ (--ignore-device)
  std::string base_device, cur_device;
  std::vector<EntryComparison> entries;  // in the current run's order
  std::vector<std::string> only_in_baseline, only_in_current;
  std::vector<std::string> warnings;  // run-level: incomplete runs, validation layers, ...
  int exit_code = kCompareOk;

  size_t count(TimeVerdict v) const;
  size_t regressions() const;
};

// Throws ConfigError for a threshold that is negative or not finite.
void validate_compare_options(const CompareOptions& options);

// Throws ConfigError when the threshold is invalid, or when the devices differ and
// !options.ignore_device.
ComparisonReport compare_runs(const RunRecords& baseline, const RunRecords& current,
                              const CompareOptions& options);

nlohmann::json comparison_to_json(const ComparisonReport& report);

}  // namespace gnbench
