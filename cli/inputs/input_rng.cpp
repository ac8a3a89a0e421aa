#include "cli/inputs/input_rng.hpp"

#include <array>
#include <cmath>

// After every other include: it turns contraction off for this file's own code only.
#include "cli/inputs/exact_float.hpp"

namespace gnbench {
namespace {

constexpr double kLn2 = 0.69314718055994530942;
constexpr double kLog2e = 1.44269504088896340736;
constexpr double kSqrtHalf = 0.70710678118654752440;

// Series coefficients, computed at compile time (so identical on every target).
constexpr std::array<double, 13> kAtanhCoeffs = [] {
  std::array<double, 13> c{};  // c[k] = 1 / (2k + 1)
  for (int k = 0; k < 13; ++k) c[static_cast<size_t>(k)] = 1.0 / (2 * k + 1);
  return c;
}();
constexpr std::array<double, 15> kExpCoeffs = [] {
  std::array<double, 15> c{};  // c[i] = 1 / i!
  c[0] = 1.0;
  for (int i = 1; i < 15; ++i) c[static_cast<size_t>(i)] = c[static_cast<size_t>(i - 1)] / i;
  return c;
}();

}  // namespace

// Natural log for finite x > 0: x = m * 2^e with m in [sqrt(1/2), sqrt(2)), then
// log(m) = 2 atanh(s), s = (m-1)/(m+1), |s| < 0.172, as an odd series (error < 1e-17).
double det_log(double x) {
  int e = 0;
  double m = std::frexp(x, &e);
  if (m < kSqrtHalf) {
    m *= 2.0;
    --e;
  }
  const double s = (m - 1.0) / (m + 1.0);
  const double s2 = s * s;
  double series = 0.0;
  for (size_t k = kAtanhCoeffs.size(); k-- > 0;) series = series * s2 + kAtanhCoeffs[k];
  return e * kLn2 + 2.0 * s * series;
}

// e^x: x = k ln2 + r with |r| <= ln2/2, Taylor series of e^r (error < 1e-17), scaled by 2^k.
double det_exp(double x) {
  if (x > 709.0) return HUGE_VAL;
  if (x < -745.0) return 0.0;
  const double k = std::floor(x * kLog2e + 0.5);
  const double r = x - k * kLn2;
  double p = 0.0;
  for (size_t i = kExpCoeffs.size(); i-- > 0;) p = p * r + kExpCoeffs[i];
  return std::ldexp(p, static_cast<int>(k));
}

uint64_t stream_seed(uint64_t seed, Stream stream) {
  return mix64(mix64(seed) + static_cast<uint64_t>(stream) * kGolden);
}

double Rng::uniform(double lo, double hi) { return lo + (hi - lo) * uniform01(); }
double Rng::symmetric() { return 2.0 * uniform01() - 1.0; }
bool Rng::coin() { return (bits() >> 63) != 0; }

double Rng::normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  for (;;) {
    const double u = symmetric(), v = symmetric();
    const double w = u * u + v * v;
    if (w >= 1.0 || w == 0.0) continue;
    const double f = std::sqrt(-2.0 * det_log(w) / w);
    spare_ = v * f;
    has_spare_ = true;
    return u * f;
  }
}

double Rng::student_t(double dof, double limit) {
  for (;;) {
    const double u = symmetric(), v = symmetric();
    const double w = u * u + v * v;
    if (w >= 1.0 || w == 0.0) continue;
    const double t = u * std::sqrt(dof * (det_exp(-2.0 / dof * det_log(w)) - 1.0) / w);
    if (std::abs(t) <= limit) return t;  // also rejects NaN and inf
  }
}

}  // namespace gnbench
