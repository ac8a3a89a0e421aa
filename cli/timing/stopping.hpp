// When to stop sampling and what the samples' shape says. The criterion is the
// distribution-free confidence interval of the median (from order statistics): it narrows as
// 1/sqrt(n) whatever the distribution, so it converges on the bimodal cold samples on which
// nvbench's stdev/mean ("stdrel") never does. Bimodality is reported, not hidden.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gnbench {

// Why sampling stopped: the median's interval reached --max-noise (converged), it had earlier
// but --min-time or --min-samples still held (min-time), --timeout passed first (timeout), or
// --samples asked for an exact count (fixed).
enum class StopReason { kConverged, kMinTime, kTimeout, kFixed };
std::string stop_reason_name(StopReason r);
std::optional<StopReason> stop_reason_from_name(const std::string& name);

// Half-width of the 95 % confidence interval of the median, relative to the median:
// (x_(k) - x_(j)) / (2 * median), ranks j, k = n/2 -+ 1.96 sqrt(n)/2 (the binomial's normal
// approximation). Infinite below 6 samples, where no such interval exists.
double median_ci_rel_halfwidth(std::vector<double> values);
// The interval itself, [x_(j), x_(k)]; {-inf, inf} below 6 samples.
struct Interval {
  double lo, hi;
};
Interval median_interval(std::vector<double> values);

// Two clusters split by a gap: the widest gap between consecutive sorted samples with at
// least 10 % of them on each side, when it is wider than 5 % of the median and than 3 times
// the spread (IQR) of either side. Long tails and single outliers are not modes.
struct Modes {
  bool bimodal = false;
  double low_ns = 0, high_ns = 0;  // medians of the two sides (when bimodal)
  double low_fraction = 0;         // share of samples in the lower cluster
  double coefficient = 0;          // Sarle's bimodality coefficient, for information (> 5/9 hints)
};
Modes find_modes(std::vector<double> values);

}  // namespace gnbench
