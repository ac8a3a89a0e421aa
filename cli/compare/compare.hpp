// `gnbench compare`: the judgement of a current run against a baseline, entry by entry, as pure
// logic over two RunRecords (no I/O, no printing). The rule is documented in docs/compare.md.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "base/errors.hpp"  // the exit codes
#include "cli/bench/records.hpp"
#include "cli/compare/rank_statistics.hpp"

namespace gnbench {

// Exit codes of `gnbench compare` (2 is a usage error, as everywhere).
inline constexpr int kCompareOk = kExitOk;
inline constexpr int kCompareCorrectnessRegression = kExitFailed;
inline constexpr int kCompareSlower = kExitSlower;
inline constexpr int kCompareInconclusive = kExitInconclusive;

struct CompareOptions {
  double threshold = 0.05;     // smallest relative change of the time that matters
  double alpha = 0.05;         // family-wise error rate: each of the m timed entries gets a
                               // 1 - alpha/m interval (Bonferroni)
  double error_growth = 10;    // note when the max scaled error grows by more than this
  double error_floor = 1e-7;   // scaled errors below this (float32 rounding) count as this
  bool ignore_device = false;  // different devices: compare correctness only
  std::string mode = "auto";   // timing mode compared: "cold", "hot", or "auto" (cold when
                               // both runs measured it, else hot)
};

enum class TimeVerdict { kNone, kSame, kFaster, kSlower, kNoisy };
std::string time_verdict_name(TimeVerdict v);  // "-", "SAME", "FASTER", "SLOWER", "NOISY"

struct TimeComparison {
  TimeVerdict verdict = TimeVerdict::kNone;
  std::string mode;  // "cold" or "hot": the mode both runs measured
  double base_median_ns = 0, cur_median_ns = 0;
  double base_iqr_ns = 0, cur_iqr_ns = 0;
  size_t base_samples = 0, cur_samples = 0;
  double change = 0;  // of the medians: (cur - base) / base
  // Hodges-Lehmann on log(times): the ratio cur/base - 1 and its interval at `level`
  // (-inf / +inf when unbounded); the verdict is read off the interval.
  double estimate = 0, lo = 0, hi = 0, level = 0;
  std::optional<MannWhitney> u_test;  // p of "no change"
  std::string reason;                 // why NOISY or why not compared
  // NOISY that does not rule a regression out (exit 4): the interval lies entirely above 0
  // (slower, by how much unclear), or it is unbounded (too few samples for the level: no
  // evidence of "ok" either) and the estimate itself is beyond +threshold.
  bool inconclusive = false;
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

  size_t timed = 0;           // entries whose times were compared: the m of the Bonferroni level
  double interval_level = 0;  // 1 - alpha / m
  size_t count(TimeVerdict v) const;
  size_t regressions() const;
  // exp(mean log(cur/base)) over the entries with a time comparison; 0 when there are none.
  double geometric_mean_ratio() const;
};

// Throws ConfigError for a threshold that is negative or not finite.
void validate_compare_options(const CompareOptions& options);

// Throws ConfigError when the threshold is invalid, or when the devices differ and
// !options.ignore_device.
ComparisonReport compare_runs(const RunRecords& baseline, const RunRecords& current,
                              const CompareOptions& options);

nlohmann::json comparison_to_json(const ComparisonReport& report);

}  // namespace gnbench
