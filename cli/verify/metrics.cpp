#include "cli/verify/metrics.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "base/format.hpp"
#include "base/parallel_for.hpp"

namespace gnbench {
namespace {

constexpr double kRelFloorFraction = 1e-3;

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

// One block's share of pass 2 (measure_tensor): counts, maxima and the sum of squares.
struct BlockErrors {
  uint64_t unwritten = 0, nonfinite = 0;
  int64_t first_unwritten = -1, first_nonfinite = -1, worst = 0;
  double max_abs = 0, max_rel = 0, diff_sq = 0, max_scaled = 0;
};

BlockErrors block_errors(const float* gpu, const double* ref, Eigen::Index size, double rel_floor,
                         double rms) {
  BlockErrors e;
  Eigen::Map<const Eigen::ArrayXf> g(gpu, size);
  Eigen::Map<const Eigen::ArrayXd> r(ref, size);
  const Eigen::Array<bool, Eigen::Dynamic, 1> poison =
      g.unaryExpr([](float v) { return std::bit_cast<uint32_t>(v) == kPoisonBits; });
  const Eigen::Array<bool, Eigen::Dynamic, 1> ref_finite = r.isFinite();
  const Eigen::Array<bool, Eigen::Dynamic, 1> bad = !g.isFinite() && !poison && ref_finite;
  const Eigen::Array<bool, Eigen::Dynamic, 1> valid = g.isFinite() && ref_finite;
  e.unwritten = static_cast<uint64_t>(poison.count());
  if (e.unwritten) e.first_unwritten = first_true(poison);
  e.nonfinite = static_cast<uint64_t>(bad.count());
  if (e.nonfinite) e.first_nonfinite = first_true(bad);

  const Eigen::ArrayXd ref_safe = ref_finite.select(r, 0.0);
  const Eigen::ArrayXd diff = valid.select((g.cast<double>() - ref_safe).abs(), 0.0);
  e.max_abs = diff.maxCoeff();
  e.max_rel = (diff / ref_safe.abs().max(rel_floor)).maxCoeff();
  e.diff_sq = diff.matrix().squaredNorm();
  Eigen::Index idx;
  e.max_scaled = (diff / std::max(rms, kScaleFloor)).maxCoeff(&idx);
  e.worst = idx;
  return e;
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
                             const TensorTolerance& tolerance, const Eigen::ArrayXd& block_scale) {
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
  // Per-block floor under rms(ref): the conditioning scale where given (a NaN scale floors at 0).
  const Eigen::ArrayXd floor = block_scale.size() == blocks
                                   ? block_scale.isFinite().select(block_scale, 0.0).eval()
                                   : Eigen::ArrayXd::Zero(blocks).eval();

  // Both passes run their blocks on the thread pool, each block writing only its own slot;
  // the slots are then combined in block order, so sums and first-found locations are those
  // of a sequential loop.
  const uint64_t work = static_cast<uint64_t>(ref.size());

  // Pass 1: the reference's scale, per block and over the tensor.
  Eigen::ArrayXd block_rms(blocks), block_sq(blocks);
  std::vector<uint64_t> block_ref_nonfinite(static_cast<size_t>(blocks));
  parallel_for(blocks, work, [&](int64_t b) {
    Eigen::Map<const Eigen::ArrayXd> r(ref.data() + b * block, block);
    const auto finite = r.isFinite();
    block_ref_nonfinite[static_cast<size_t>(b)] = static_cast<uint64_t>(block - finite.count());
    block_sq(b) = finite.select(r, 0.0).matrix().squaredNorm();
    block_rms(b) = std::max(std::sqrt(block_sq(b) / block), floor(b));
  });
  // The l2 denominator gets the same floor: the norm of the blocks' scales.
  const double scale_sq = floor.square().sum() * static_cast<double>(block);
  double ref_sq = 0;
  uint64_t ref_nonfinite = 0;
  for (Eigen::Index b = 0; b < blocks; ++b) {
    ref_nonfinite += block_ref_nonfinite[static_cast<size_t>(b)];
    ref_sq += block_sq(b);
  }
  const double rel_floor =
      std::max(kRelFloorFraction * std::sqrt(ref_sq / ref.size()), kScaleFloor);

  // Pass 2: errors over elements where both sides are finite; the rest are counted, not summed,
  // so one NaN cannot turn every norm into NaN.
  std::vector<BlockErrors> errors(static_cast<size_t>(blocks));
  parallel_for(blocks, work, [&](int64_t b) {
    errors[static_cast<size_t>(b)] = block_errors(gpu.data() + b * block, ref.data() + b * block,
                                                  block, rel_floor, block_rms(b));
  });
  double diff_sq = 0;
  int64_t worst_index = 0, first_unwritten = -1, first_nonfinite = -1;
  m.max_scaled = -1;
  for (Eigen::Index b = 0; b < blocks; ++b) {
    const BlockErrors& e = errors[static_cast<size_t>(b)];
    const Eigen::Index offset = b * block;
    if (e.unwritten > 0 && m.unwritten == 0) first_unwritten = offset + e.first_unwritten;
    if (e.nonfinite > 0 && m.nonfinite == 0) first_nonfinite = offset + e.first_nonfinite;
    m.unwritten += e.unwritten;
    m.nonfinite += e.nonfinite;
    m.max_abs = std::max(m.max_abs, e.max_abs);
    m.max_rel = std::max(m.max_rel, e.max_rel);
    diff_sq += e.diff_sq;
    if (e.max_scaled > m.max_scaled) {
      m.max_scaled = e.max_scaled;
      worst_index = offset + e.worst;
    }
  }

  const double diff_norm = std::sqrt(diff_sq);
  const double l2_scale_sq = std::max(ref_sq, scale_sq);
  m.l2_rel = l2_scale_sq > 0 ? diff_norm / std::sqrt(l2_scale_sq) : diff_norm;

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
  result.tensors.push_back(measure_tensor("grad_input", shape, gpu.grad_input, ref.grad_input,
                                          tolerances.grad_input, ref.grad_input_scale));
  // The [C] tensors are one block, floored at the rms of their channels' term norms.
  result.tensors.push_back(measure_tensor("grad_weight", shape, gpu.grad_weight, ref.grad_weight,
                                          tolerances.grad_weight,
                                          Eigen::ArrayXd::Constant(1, ref.grad_weight_scale)));
  result.tensors.push_back(measure_tensor("grad_bias", shape, gpu.grad_bias, ref.grad_bias,
                                          tolerances.grad_bias,
                                          Eigen::ArrayXd::Constant(1, ref.grad_bias_scale)));
  result.pass = std::all_of(result.tensors.begin(), result.tensors.end(),
                            [](const TensorMetrics& t) { return t.pass; });
  return result;
}

}  // namespace gnbench
