// Distribution-free two-sample statistics for `gnbench compare`: the Mann-Whitney U test and
// the Hodges-Lehmann estimate of a shift with its confidence interval (the inversion of that
// test). Applied to log(times), the shift is a log ratio: the factor by which the current
// run is slower or faster. Pure functions, no I/O; the rule that uses them: docs/compare.md.
#pragma once

#include <vector>

namespace gnbench {

struct MannWhitney {
  double u = 0;        // U of the first sample
  double z = 0;        // normal approximation, tie- and continuity-corrected
  double p_value = 1;  // two-sided
};
// Two-sided Mann-Whitney U test by the normal approximation (average ranks for ties).
MannWhitney mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b);

// z such that P(Z > z) = upper_tail for a standard normal Z (0 < upper_tail < 1).
double normal_quantile_upper(double upper_tail);

struct ShiftInterval {
  double estimate = 0;    // Hodges-Lehmann: the median of all n1 x n2 differences b_j - a_i
  double lo = 0, hi = 0;  // the interval; -inf / +inf when the samples are too few for `level`
  double level = 0;       // its confidence level
  MannWhitney test;       // of "no shift": its p_value
};
// The shift of b against a and its distribution-free interval at `level` (two-sided): the
// C-th smallest and C-th largest of the differences, C = floor(n1 n2 / 2 - z sqrt(var U)),
// var U tie-corrected. Empty input: estimate 0 and an unbounded interval.
ShiftInterval hodges_lehmann(const std::vector<double>& a, const std::vector<double>& b,
                             double level);

}  // namespace gnbench
