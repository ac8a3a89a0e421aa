// Float64 GroupNorm from the definition. Every (n, group) block is contiguous in NCHW
// (its channels are adjacent and each channel's HW values are adjacent), so it is mapped
// without copies as an HW x channels_per_group array: one column per channel.
#include "reference/group_norm.hpp"

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "base/parallel_for.hpp"

namespace gnbench::reference {
namespace {

using Block = Eigen::Map<const Eigen::ArrayXXd>;
using MutableBlock = Eigen::Map<Eigen::ArrayXXd>;
using RowArray = Eigen::Array<double, 1, Eigen::Dynamic>;

void check_shape(const Shape& shape) {
  if (shape.spatial == 0) throw std::invalid_argument("GroupNorm reference: spatial size is 0");
  if (shape.channels == 0 || shape.groups == 0 || shape.channels % shape.groups != 0)
    throw std::invalid_argument("GroupNorm reference: channels (" + std::to_string(shape.channels) +
                                ") must be a positive multiple of groups (" +
                                std::to_string(shape.groups) + ")");
}

void check_size(const char* what, Eigen::Index actual, uint64_t expected) {
  if (static_cast<uint64_t>(actual) != expected)
    throw std::invalid_argument(std::string("GroupNorm reference: ") + what + " has " +
                                std::to_string(actual) + " elements, the shape needs " +
                                std::to_string(expected));
}

// Offset of the (n, g) block; the block itself is HW x cpg, column-major.
Eigen::Index block_offset(const Shape& shape, uint32_t n, uint32_t g) {
  const uint64_t c0 = uint64_t{n} * shape.channels + uint64_t{g} * shape.channels_per_group();
  return static_cast<Eigen::Index>(c0 * shape.spatial);
}

}  // namespace

GroupStats group_stats(const Shape& shape, const Eigen::ArrayXd& x, double eps) {
  check_shape(shape);
  check_size("x", x.size(), shape.elements());
  const Eigen::Index hw = shape.spatial, cpg = shape.channels_per_group();
  const double m = static_cast<double>(shape.group_size());

  GroupStats stats;
  stats.mean.resize(Eigen::Index{shape.batch} * shape.groups);
  stats.inv_std.resize(stats.mean.size());
  for (uint32_t n = 0; n < shape.batch; ++n) {
    for (uint32_t g = 0; g < shape.groups; ++g) {
      const Block blk(x.data() + block_offset(shape, n, g), hw, cpg);
      double mean = blk.sum() / m;
      double var = (blk - mean).square().sum() / m;
      // sum/M of M equal doubles can be an ulp off (not for float-valued inputs, whose sums
      // are exact), which would make xhat of a constant group tiny but nonzero; by definition
      // it is 0. all() stops at the first differing value: free on ordinary groups.
      if ((blk == blk(0, 0)).all()) {
        mean = blk(0, 0);
        var = 0.0;
      }
      const Eigen::Index k = Eigen::Index{n} * shape.groups + g;
      stats.mean[k] = mean;
      stats.inv_std[k] = 1.0 / std::sqrt(var + eps);
    }
  }
  return stats;
}

Eigen::ArrayXd forward(const Shape& shape, const Eigen::ArrayXd& x, const Eigen::ArrayXd& weight,
                       const Eigen::ArrayXd& bias, double eps) {
  check_shape(shape);
  check_size("weight", weight.size(), shape.channels);
  check_size("bias", bias.size(), shape.channels);
  const GroupStats stats = group_stats(shape, x, eps);
  const Eigen::Index hw = shape.spatial, cpg = shape.channels_per_group();

  Eigen::ArrayXd y(x.size());
  for (uint32_t n = 0; n < shape.batch; ++n) {
    for (uint32_t g = 0; g < shape.groups; ++g) {
      const Eigen::Index off = block_offset(shape, n, g);
      const Eigen::Index k = Eigen::Index{n} * shape.groups + g;
      const Block xb(x.data() + off, hw, cpg);
      MutableBlock yb(y.data() + off, hw, cpg);
      const RowArray w = weight.segment(Eigen::Index{g} * cpg, cpg).transpose();
      const RowArray b = bias.segment(Eigen::Index{g} * cpg, cpg).transpose();
      yb = (((xb - stats.mean[k]) * stats.inv_std[k]).rowwise() * w).rowwise() + b;
    }
  }
  return y;
}

namespace {

// One (n, group) block's backward: writes its grad_input and its per-channel sums (sum dy,
// sum dy * xhat), which the caller adds over n in order.
void backward_block(const Shape& shape, const Block& xb, const Block& dy, const RowArray& w,
                    double eps, MutableBlock& gi, double* sum_dy_out, double* sum_dy_xhat_out,
                    double* scale_out, double* sq_dy_out, double* sq_dy_xhat_out) {
  const Eigen::Index cpg = shape.channels_per_group();
  const double m = static_cast<double>(shape.group_size());
  // The statistics exactly as group_stats() forms them.
  double mean = xb.sum() / m;
  double var = (xb - mean).square().sum() / m;
  if ((xb == xb(0, 0)).all()) {
    mean = xb(0, 0);
    var = 0.0;
  }
  const double inv_std = 1.0 / std::sqrt(var + eps);

  // Lazy expression: xhat is recomputed where used instead of stored, so no M-sized
  // temporary per block.
  const auto xhat = (xb - mean) * inv_std;
  const RowArray sum_dy = dy.colwise().sum();
  const RowArray sum_dy_xhat = (dy * xhat).colwise().sum();
  Eigen::Map<RowArray>(sum_dy_out, cpg) = sum_dy;
  Eigen::Map<RowArray>(sum_dy_xhat_out, cpg) = sum_dy_xhat;
  // Squares of the same terms: the scale the [C] sums are judged against where they cancel.
  *sq_dy_out = dy.square().sum();
  *sq_dy_xhat_out = (dy * xhat).square().sum();

  // With wdy = weight[c] * dy, per-channel sums give the group means directly.
  const double mean_wdy = (sum_dy * w).sum() / m;
  const double mean_wdy_xhat = (sum_dy_xhat * w).sum() / m;
  gi = inv_std * ((dy.rowwise() * w) - mean_wdy - xhat * mean_wdy_xhat);
  *scale_out = inv_std * std::sqrt((dy.rowwise() * w).square().sum() / m);
}

// Runs every (n, group) block on the thread pool; `block_inputs(k, off)` returns the block's
// x and grad_out as float64 HW x cpg maps. grad_weight / grad_bias add the blocks' sums over n
// in order, so the result does not depend on the threads.
template <typename BlockInputs>
ReferenceOutputs backward_blocks(const Shape& shape, const Eigen::ArrayXd& weight, double eps,
                                 const BlockInputs& block_inputs) {
  const Eigen::Index hw = shape.spatial, cpg = shape.channels_per_group();
  const Eigen::Index blocks = Eigen::Index{shape.batch} * shape.groups;
  ReferenceOutputs out;
  out.grad_input.resize(static_cast<Eigen::Index>(shape.elements()));
  out.grad_weight = Eigen::ArrayXd::Zero(shape.channels);
  out.grad_bias = Eigen::ArrayXd::Zero(shape.channels);
  out.grad_input_scale.resize(blocks);
  // [N * C] per-(n, c) sums, in NC order.
  Eigen::ArrayXd sums_dy(blocks * cpg), sums_dy_xhat(blocks * cpg);
  Eigen::ArrayXd sq_dy(blocks), sq_dy_xhat(blocks);  // per (n, group), over its channels
  parallel_for(blocks, shape.elements(), [&](int64_t k) {
    const uint32_t n = static_cast<uint32_t>(k / shape.groups);
    const uint32_t g = static_cast<uint32_t>(k % shape.groups);
    const Eigen::Index off = block_offset(shape, n, g);
    const RowArray w = weight.segment(Eigen::Index{g} * cpg, cpg).transpose();
    MutableBlock gi(out.grad_input.data() + off, hw, cpg);
    block_inputs(k, off, [&](const Block& xb, const Block& dy) {
      backward_block(shape, xb, dy, w, eps, gi, &sums_dy[k * cpg], &sums_dy_xhat[k * cpg],
                     &out.grad_input_scale[k], &sq_dy[k], &sq_dy_xhat[k]);
    });
  });
  const Eigen::Index c = shape.channels;
  for (uint32_t n = 0; n < shape.batch; ++n) {
    out.grad_bias += sums_dy.segment(Eigen::Index{n} * c, c);
    out.grad_weight += sums_dy_xhat.segment(Eigen::Index{n} * c, c);
  }
  // sqrt(mean over c of sum over (n, hw) of term^2): the channels' squares summed over blocks.
  out.grad_bias_scale = std::sqrt(sq_dy.sum() / static_cast<double>(c));
  out.grad_weight_scale = std::sqrt(sq_dy_xhat.sum() / static_cast<double>(c));
  return out;
}

void check_backward_sizes(const Shape& shape, Eigen::Index x, Eigen::Index grad_out,
                          Eigen::Index weight) {
  check_shape(shape);
  check_size("x", x, shape.elements());
  check_size("grad_out", grad_out, shape.elements());
  check_size("weight", weight, shape.channels);
}

}  // namespace

ReferenceOutputs backward(const Shape& shape, const Eigen::ArrayXd& grad_out,
                          const Eigen::ArrayXd& x, const Eigen::ArrayXd& weight, double eps) {
  check_backward_sizes(shape, x.size(), grad_out.size(), weight.size());
  const Eigen::Index hw = shape.spatial, cpg = shape.channels_per_group();
  return backward_blocks(shape, weight, eps, [&](int64_t, Eigen::Index off, const auto& run) {
    run(Block(x.data() + off, hw, cpg), Block(grad_out.data() + off, hw, cpg));
  });
}

ReferenceOutputs backward(const Shape& shape, const Inputs& inputs, float eps) {
  check_backward_sizes(shape, inputs.x.size(), inputs.grad_out.size(), inputs.weight.size());
  const Eigen::Index hw = shape.spatial, cpg = shape.channels_per_group();
  const Eigen::Index m = hw * cpg;
  // float -> double is exact, so the reference sees precisely what the kernels see. Only one
  // block at a time is widened (per thread), never the whole tensors. Each widened block sits
  // at the packet alignment it would have inside a whole widened array, so Eigen's vectorised
  // sums split it the same way: bitwise the results of the float64 overload.
  constexpr Eigen::Index kPacket = EIGEN_MAX_ALIGN_BYTES / sizeof(double);
  return backward_blocks(
      shape, inputs.weight.cast<double>(), static_cast<double>(eps),
      [&](int64_t, Eigen::Index off, const auto& run) {
        thread_local Eigen::ArrayXd x64, dy64;
        if (x64.size() < m + kPacket) {
          x64.resize(m + kPacket);
          dy64.resize(m + kPacket);
        }
        const Eigen::Index shift = off % kPacket;
        Eigen::Map<Eigen::ArrayXd>(x64.data() + shift, m) = inputs.x.segment(off, m).cast<double>();
        Eigen::Map<Eigen::ArrayXd>(dy64.data() + shift, m) =
            inputs.grad_out.segment(off, m).cast<double>();
        run(Block(x64.data() + shift, hw, cpg), Block(dy64.data() + shift, hw, cpg));
      });
}

}  // namespace gnbench::reference
