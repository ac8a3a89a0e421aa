// Coverage: the regimes GroupNorm-backward kernels branch on (channels per group, group count,
// spatial sizes against the subgroup and vector width, the dispatch fold, eps decades, weight
// patterns), and for each variant which of them a run verified it in. A regime the variant's
// `when` (or the device) rules out is "not applicable"; one it could run but no passing entry
// covered is a gap.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/problem.hpp"
#include "cli/bench/records.hpp"
#include "kernels/runtime/device_info.hpp"
#include "kernels/runtime/manifest.hpp"

namespace gnbench {

struct Regime {
  std::string id;           // short column label, e.g. "cpg64-1023"
  std::string description;  // one line
  bool shape_only;          // decided by the shape alone (else by eps or the inputs)
  bool (*holds)(const Problem& problem, const DeviceLimits& limits);
  // Where it also depends on the variant (the fold: the variant's own dispatch), the test for
  // one variant; null where `holds` decides alone.
  bool (*holds_for)(const Problem& problem, const VariantSpec& variant,
                    const DeviceLimits& limits) = nullptr;

  bool holds_for_variant(const Problem& problem, const VariantSpec& variant,
                         const DeviceLimits& limits) const {
    return holds_for ? holds_for(problem, variant, limits) : holds(problem, limits);
  }
};

// Every regime, in report order. Subgroup size and fold limit come from `limits`.
const std::vector<Regime>& regimes();

enum class CoverageCell {
  kVerified,       // a PASS (or XPASS) entry in this regime
  kFailed,         // run there, never passed
  kNotApplicable,  // no shape in the regime satisfies the variant's `when` on this device
  kGap,            // the variant could run there, nothing verified it
};

struct VariantCoverage {
  std::string variant;
  std::vector<CoverageCell> cells;              // one per regime
  std::vector<std::optional<Problem>> example;  // for gaps: a problem that would cover it
};

struct CoverageReport {
  std::vector<VariantCoverage> variants;
  size_t count(CoverageCell cell) const;
};

CoverageReport compute_coverage(const RunRecords& records,
                                const std::vector<const VariantSpec*>& variants,
                                const DeviceInfo& device);

// A problem in regime `r` that `spec` can run on `device` (small where possible), if any.
std::optional<Problem> find_example(const Regime& r, const VariantSpec& spec,
                                    const DeviceInfo& device);

}  // namespace gnbench
