// The draws of the input distributions, bit-identical on every platform: only IEEE-754
// + - * / and sqrt (correctly rounded everywhere), the exact frexp/ldexp, and log/exp as
// series of those (libm's differ between libraries). Everything is defined out of line in
// input_rng.cpp, which turns FMA contraction off. Assumes FLT_EVAL_METHOD == 0.
#pragma once

#include <cstdint>

#include "base/deterministic_random.hpp"

namespace gnbench {

double det_log(double x);  // natural log, finite x > 0, error < 1e-17
double det_exp(double x);  // e^x, error < 1e-17

// One generator per tensor, so changing how one tensor is drawn never shifts another.
enum class Stream : uint64_t { kX = 1, kGradOut = 2, kWeight = 3, kGroupParams = 4 };
uint64_t stream_seed(uint64_t seed, Stream stream);

class Rng : public PortableRandom {
 public:
  explicit Rng(uint64_t seed) : PortableRandom(seed) {}
  double uniform(double lo, double hi);
  // [-1, 1); the polar methods reject the corners and the origin.
  double symmetric();
  bool coin();
  // N(0, 1) by Marsaglia's polar method: needs log and sqrt but no sin/cos.
  double normal();
  // Student-t with `dof` degrees of freedom by Bailey's polar method:
  // t = u * sqrt(dof * (w^(-2/dof) - 1) / w). Draws beyond `limit` (or overflowing) are
  // redrawn, so float32 sums of squares in the kernels stay finite.
  double student_t(double dof, double limit);

 private:
  double spare_ = 0.0;
  bool has_spare_ = false;
};

}  // namespace gnbench
