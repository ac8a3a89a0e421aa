#include "verify/metrics.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>

namespace gnbench {
namespace {

// Scales are floored so an exactly-zero reference divides to a huge (failing) error, not NaN.
constexpr double kScaleFloor = 1e-30;
constexpr double kRelFloorFraction = 1e-3;

std::string format(const char* fmt, double a, double b = 0.0) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, a, b);
  return buf;
}

ElementLocation locate(const std::string& tensor, const Shape& shape, int64_t index) {
  ElementLocation loc;
  if (tensor == "grad_input" && shape.spatial > 0 && shape.channels > 0) {
    loc.hw = index % shape.spatial;
    const int64_t nc = index / shape.spatial;
    loc.c = nc % shape.channels;
    loc.n = nc / shape.channels;
  } else {
    loc.c = index;
  }
  return loc;
}

// Index of the first true element; the mask is known to hold one.
int64_t first_true(const Eigen::Array<bool, Eigen::Dynamic, 1>& mask) {
  return std::find(mask.begin(), mask.end(), true) - mask.begin();
}

}  // namespace

std::string ElementLocation::str() const {
  if (n >= 0 && hw >= 0)
    return "(n=" + std::to_string(n) + ", c=" + std::to_string(c) + ", hw=" + std::to_string(hw) +
           ")";
  if (c >= 0) return "(c=" + std::to_string(c) + ")";
  return "(none)";
}

std::string VerificationResult::summary() const {
  if (pass) return "ok";
  for (const auto& t : tensors)
    if (!t.pass) return t.failure;
  return "failed";
}

TensorMetrics measure_tensor(const std::string& tensor, const Shape& shape,
                             const Eigen::ArrayXf& gpu, const Eigen::ArrayXd& ref,
                             const TensorTolerance& tolerance) {
  TensorMetrics m;
  m.tensor = tensor;
  m.elements = static_cast<uint64_t>(gpu.size());

  if (gpu.size() != ref.size()) {
    m.failure = tensor + ": " + std::to_string(gpu.size()) + " elements, reference has " +
                std::to_string(ref.size());
    return m;
  }
  // grad_input is judged per (n, group) block, which are contiguous; the [C] tensors as one block.
  const bool grouped = tensor == "grad_input";
  if (grouped && (static_cast<uint64_t>(ref.size()) != shape.elements() || shape.groups == 0)) {
    m.failure = tensor + ": " + std::to_string(ref.size()) + " elements, shape has " +
                std::to_string(shape.elements());
    return m;
  }
  if (ref.size() == 0) {
    m.pass = true;
    return m;
  }
  const Eigen::Index block = grouped ? static_cast<Eigen::Index>(shape.group_size()) : ref.size();
  const Eigen::Index blocks = ref.size() / block;

  // Pass 1: the reference's scale, per block and over the tensor.
  Eigen::ArrayXd block_rms(blocks);
  double ref_sq = 0;
  uint64_t ref_nonfinite = 0;
  for (Eigen::Index b = 0; b < blocks; ++b) {
    Eigen::Map<const Eigen::ArrayXd> r(ref.data() + b * block, block);
    const auto finite = r.isFinite();
    ref_nonfinite += block - finite.count();
    const double sq = finite.select(r, 0.0).matrix().squaredNorm();
    block_rms(b) = std::sqrt(sq / block);
    ref_sq += sq;
  }
  const double rel_floor =
      std::max(kRelFloorFraction * std::sqrt(ref_sq / ref.size()), kScaleFloor);

  // Pass 2: errors over elements where both sides are finite; the rest are counted, not summed,
  // so one NaN cannot turn every norm into NaN.
  double diff_sq = 0;
  int64_t worst_index = 0, first_unwritten = -1, first_nonfinite = -1;
  m.max_scaled = -1;
  for (Eigen::Index b = 0; b < blocks; ++b) {
    const Eigen::Index offset = b * block;
    Eigen::Map<const Eigen::ArrayXf> g(gpu.data() + offset, block);
    Eigen::Map<const Eigen::ArrayXd> r(ref.data() + offset, block);

    const Eigen::Array<bool, Eigen::Dynamic, 1> poison =
        g.unaryExpr([](float v) { return std::bit_cast<uint32_t>(v) == kPoisonBits; });
    const Eigen::Array<bool, Eigen::Dynamic, 1> ref_finite = r.isFinite();
    const Eigen::Array<bool, Eigen::Dynamic, 1> bad = !g.isFinite() && !poison && ref_finite;
    const Eigen::Array<bool, Eigen::Dynamic, 1> valid = g.isFinite() && ref_finite;

    if (const auto count = poison.count(); count > 0) {
      if (m.unwritten == 0) first_unwritten = offset + first_true(poison);
      m.unwritten += count;
    }
    if (const auto count = bad.count(); count > 0) {
      if (m.nonfinite == 0) first_nonfinite = offset + first_true(bad);
      m.nonfinite += count;
    }

    const Eigen::ArrayXd ref_safe = ref_finite.select(r, 0.0);
    const Eigen::ArrayXd diff = valid.select((g.cast<double>() - ref_safe).abs(), 0.0);
    m.max_abs = std::max(m.max_abs, diff.maxCoeff());
    m.max_rel = std::max(m.max_rel, (diff / ref_safe.abs().max(rel_floor)).maxCoeff());
    diff_sq += diff.matrix().squaredNorm();

    Eigen::Index idx;
    const double scaled = (diff / std::max(block_rms(b), kScaleFloor)).maxCoeff(&idx);
    if (scaled > m.max_scaled) {
      m.max_scaled = scaled;
      worst_index = offset + idx;
    }
  }

  const double diff_norm = std::sqrt(diff_sq);
  m.l2_rel = ref_sq > 0 ? diff_norm / std::sqrt(ref_sq) : diff_norm;

  if (first_unwritten >= 0)
    worst_index = first_unwritten;
  else if (first_nonfinite >= 0)
    worst_index = first_nonfinite;
  m.worst = locate(tensor, shape, worst_index);
  m.worst_gpu = gpu(worst_index);
  m.worst_ref = ref(worst_index);

  const std::string at = m.worst.str();
  if (m.unwritten > 0) {
    m.failure = tensor + ": " + std::to_string(m.unwritten) + " elements unwritten, first at " + at;
  } else if (m.nonfinite > 0) {
    m.failure = tensor + ": " + std::to_string(m.nonfinite) + " elements NaN/Inf, first at " + at +
                ": gpu " + format("%.7g", m.worst_gpu) + " ref " + format("%.7g", m.worst_ref);
  } else if (ref_nonfinite > 0) {
    // The reference itself is broken: never let that pass silently.
    m.failure = tensor + ": reference has " + std::to_string(ref_nonfinite) + " NaN/Inf elements";
  } else if (m.max_scaled > tolerance.max_scaled) {
    m.failure = tensor + ": max scaled error " +
                format("%.1e > %.1e", m.max_scaled, tolerance.max_scaled) + " at " + at + ": gpu " +
                format("%.7g", m.worst_gpu) + " ref " + format("%.7g", m.worst_ref);
  } else if (m.l2_rel > tolerance.l2_rel) {
    m.failure = tensor + ": l2 relative error " + format("%.1e > %.1e", m.l2_rel, tolerance.l2_rel);
  } else {
    m.pass = true;
  }
  return m;
}

VerificationResult verify(const Shape& shape, const GpuOutputs& gpu, const ReferenceOutputs& ref,
                          const Tolerances& tolerances) {
  VerificationResult result;
  result.tensors.push_back(
      measure_tensor("grad_input", shape, gpu.grad_input, ref.grad_input, tolerances.grad_input));
  result.tensors.push_back(measure_tensor("grad_weight", shape, gpu.grad_weight, ref.grad_weight,
                                          tolerances.grad_weight));
  result.tensors.push_back(
      measure_tensor("grad_bias", shape, gpu.grad_bias, ref.grad_bias, tolerances.grad_bias));
  result.pass = std::all_of(result.tensors.begin(), result.tensors.end(),
                            [](const TensorMetrics& t) { return t.pass; });
  return result;
}

}  // namespace gnbench
