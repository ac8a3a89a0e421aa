// Error metrics of one GPU output tensor against the float64 reference, and the verdict.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

#include "base/problem.hpp"
#include "base/tensors.hpp"

namespace gnbench {

// Error and invariant scales are floored so an exactly-zero reference divides to a huge
// (failing) error, not NaN.
inline constexpr double kScaleFloor = 1e-30;

// Where an element sits: grad_input elements have all three; grad_weight/bias only c.
struct ElementLocation {
  int64_t n = -1, c = -1, hw = -1;
  std::string str() const;  // "(n=1, c=7, hw=33)" or "(c=7)"
};

struct TensorMetrics {
  std::string tensor;  // "grad_input", "grad_weight", "grad_bias"
  uint64_t elements = 0;
  double max_abs = 0;      // max |gpu - ref|
  double max_rel = 0;      // max |gpu - ref| / max(|ref|, rel_floor), rel_floor = 1e-3 * rms(ref)
  double l2_rel = 0;       // ||gpu - ref|| / max(||ref||, ||block scales||), or ||gpu - ref||
                           // when both are zero
  double max_scaled = 0;   // max |gpu - ref| / scale; scale = rms(ref) over the element's
                           // (n, group) for grad_input, raised to the block's conditioning
                           // scale when given (ReferenceOutputs::grad_input_scale), over the
                           // tensor for grad_weight/bias, raised to grad_weight_scale /
                           // grad_bias_scale; floored at 1e-30 so an exactly-zero
                           // reference still judges
  uint64_t nonfinite = 0;  // NaN/Inf written where the reference is finite (poison excluded)
  uint64_t unwritten = 0;  // elements still holding kPoisonBits
  ElementLocation worst;   // the element with the largest scaled error (or first bad one)
  double worst_gpu = 0, worst_ref = 0;
  bool pass = false;  // all of: nonfinite == 0, unwritten == 0, l2_rel <= tol, max_scaled <= tol
  std::string
      failure;  // empty when pass; else one line naming what failed, the value and the tolerance
};

struct VerificationResult {
  std::vector<TensorMetrics> tensors;  // grad_input, grad_weight, grad_bias in that order
  bool pass = false;
  std::string summary() const;  // first failing tensor's failure line, or "ok"
};

// `block_scale` (one value per block: per (n, group) for grad_input, one for the [C] tensors;
// may be empty): a floor under each block's rms(ref), for blocks whose exact result is a
// cancellation residual.
TensorMetrics measure_tensor(const std::string& tensor, const Shape& shape,
                             const Eigen::ArrayXf& gpu, const Eigen::ArrayXd& ref,
                             const TensorTolerance& tolerance,
                             const Eigen::ArrayXd& block_scale = Eigen::ArrayXd());

VerificationResult verify(const Shape& shape, const GpuOutputs& gpu, const ReferenceOutputs& ref,
                          const Tolerances& tolerances);

}  // namespace gnbench
