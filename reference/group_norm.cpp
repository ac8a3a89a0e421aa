// Float64 GroupNorm from the definition. Every (n, group) block is contiguous in NCHW
// (its channels are adjacent and each channel's HW values are adjacent), so it is mapped
// without copies as an HW x channels_per_group array: one column per channel.
#include "reference/group_norm.hpp"

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

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

ReferenceOutputs backward(const Shape& shape, const Eigen::ArrayXd& grad_out,
                          const Eigen::ArrayXd& x, const Eigen::ArrayXd& weight, double eps) {
  check_shape(shape);
  check_size("grad_out", grad_out.size(), shape.elements());
  check_size("weight", weight.size(), shape.channels);
  const GroupStats stats = group_stats(shape, x, eps);
  const Eigen::Index hw = shape.spatial, cpg = shape.channels_per_group();
  const double m = static_cast<double>(shape.group_size());

  ReferenceOutputs out;
  out.grad_input.resize(x.size());
  out.grad_weight = Eigen::ArrayXd::Zero(shape.channels);
  out.grad_bias = Eigen::ArrayXd::Zero(shape.channels);
  for (uint32_t n = 0; n < shape.batch; ++n) {
    for (uint32_t g = 0; g < shape.groups; ++g) {
      const Eigen::Index off = block_offset(shape, n, g);
      const Eigen::Index k = Eigen::Index{n} * shape.groups + g;
      const Eigen::Index c0 = Eigen::Index{g} * cpg;
      const Block xb(x.data() + off, hw, cpg);
      const Block dy(grad_out.data() + off, hw, cpg);
      MutableBlock gi(out.grad_input.data() + off, hw, cpg);
      const RowArray w = weight.segment(c0, cpg).transpose();
      const double mean = stats.mean[k], inv_std = stats.inv_std[k];

      // Lazy expression: xhat is recomputed where used instead of stored, so no M-sized
      // temporary per block.
      const auto xhat = (xb - mean) * inv_std;
      const RowArray sum_dy = dy.colwise().sum();
      const RowArray sum_dy_xhat = (dy * xhat).colwise().sum();
      out.grad_bias.segment(c0, cpg) += sum_dy.transpose();
      out.grad_weight.segment(c0, cpg) += sum_dy_xhat.transpose();

      // With wdy = weight[c] * dy, per-channel sums give the group means directly.
      const double mean_wdy = (sum_dy * w).sum() / m;
      const double mean_wdy_xhat = (sum_dy_xhat * w).sum() / m;
      gi = inv_std * ((dy.rowwise() * w) - mean_wdy - xhat * mean_wdy_xhat);
    }
  }
  return out;
}

ReferenceOutputs backward(const Shape& shape, const Inputs& inputs, float eps) {
  // float -> double is exact, so the reference sees precisely what the kernels see.
  return backward(shape, inputs.grad_out.cast<double>(), inputs.x.cast<double>(),
                  inputs.weight.cast<double>(), static_cast<double>(eps));
}

}  // namespace gnbench::reference
