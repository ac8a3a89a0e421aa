#include "cli/verify/invariants.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include "base/format.hpp"
#include "base/parallel_for.hpp"
#include "cli/verify/metrics.hpp"

namespace gnbench {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kFloat32Unit = 0x1p-24;  // unit roundoff of float32

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("check_invariants: " + what);
}

}  // namespace

InvariantResult check_invariants(const Shape& shape, const Inputs& inputs, float eps,
                                 const GpuOutputs& gpu, double tolerance) {
  require(shape.groups > 0 && shape.channels % shape.groups == 0,
          "channels must be a multiple of groups");
  const auto elements = static_cast<Eigen::Index>(shape.elements());
  require(inputs.x.size() == elements && inputs.grad_out.size() == elements &&
              gpu.grad_input.size() == elements,
          "x, grad_out and grad_input must have N*C*HW elements");
  require(inputs.weight.size() == shape.channels && gpu.grad_bias.size() == shape.channels,
          "weight and grad_bias must have C elements");

  const Eigen::Index N = shape.batch, C = shape.channels, G = shape.groups, HW = shape.spatial;
  const Eigen::Index cpg = shape.channels_per_group(), M = cpg * HW;
  const double sqrt_m = std::sqrt(static_cast<double>(M));

  InvariantResult result;
  Eigen::Index sum_at = 0, xhat_at = 0, bias_at = 0;

  // Both grad_input identities say dx has no component along a unit direction v (1/sqrt(M), or
  // xhat/||xhat|| after removing the exact eps term). We judge that component relative to the
  // group's own ||dx||, raised to rstd * ||w * dy|| (the size of the terms dx is the difference
  // of, metrics.hpp's conditioning scale): any error e with ||e|| <= tol * that norm (which
  // max_scaled <= tol implies) moves it by at most as much (Cauchy-Schwarz), so a kernel passing
  // the reference cannot fail here, while errors along v larger than tol are caught. Not sqrt(M)
  // stricter, because a per-group constant error of 1e-4 * rms is legitimate float32 behaviour
  // for large-mean data. Subtracted first: sqrt(M) * u * rstd * ||w * dy||, the reach of float32
  // accumulation rounding (random walk over M terms), so exact cancellation (||dx|| ~ 0) is not
  // judged on rounding noise.
  // Blocks on the thread pool, each into its own slot; the worst is then found in block order.
  std::vector<std::pair<double, double>> violations(static_cast<size_t>(N * G));
  parallel_for(N * G, static_cast<uint64_t>(elements), [&](int64_t block) {
    const Eigen::Index grp = block % G, offset = block * M;
    thread_local Eigen::ArrayXd g;
    g.resize(M);
    Eigen::Map<const Eigen::ArrayXf> x(inputs.x.data() + offset, M);
    Eigen::Map<const Eigen::ArrayXf> dx32(gpu.grad_input.data() + offset, M);
    Eigen::Map<const Eigen::ArrayXXf> dy(inputs.grad_out.data() + offset, HW, cpg);
    Eigen::Map<Eigen::ArrayXXd>(g.data(), HW, cpg) =
        dy.cast<double>().rowwise() *
        inputs.weight.segment(grp * cpg, cpg).cast<double>().transpose();

    double sum_violation = kInf, xhat_violation = kInf;
    if (dx32.isFinite().all()) {
      const Eigen::ArrayXd xc = x.cast<double>() - x.cast<double>().mean();
      const double rstd = 1.0 / std::sqrt(xc.square().mean() + static_cast<double>(eps));
      const Eigen::ArrayXd xhat = xc * rstd;
      const Eigen::ArrayXd dx = dx32.cast<double>();

      const double terms_norm = rstd * g.matrix().norm();
      const double dx_norm = std::max(dx.matrix().norm(), terms_norm);
      const double rounding = sqrt_m * kFloat32Unit * terms_norm;
      // Component along v beyond rounding, relative to ||dx||; 0/0 (all zero) is no violation.
      const auto relative = [&](double along) {
        const double excess = std::max(0.0, std::abs(along) - rounding);
        return excess > 0 ? excess / dx_norm : 0.0;
      };
      sum_violation = relative(dx.sum() / sqrt_m);
      const double xhat_norm = xhat.matrix().norm();
      const double exact = static_cast<double>(eps) * rstd * rstd * rstd * (g * xhat).sum();
      xhat_violation = xhat_norm > 0 ? relative(((dx * xhat).sum() - exact) / xhat_norm) : 0.0;
    }
    violations[static_cast<size_t>(block)] = {sum_violation, xhat_violation};
  });
  for (Eigen::Index block = 0; block < N * G; ++block) {
    const auto [sum_violation, xhat_violation] = violations[static_cast<size_t>(block)];
    if (sum_violation > result.worst_sum_violation) {
      result.worst_sum_violation = sum_violation;
      sum_at = block;
    }
    if (xhat_violation > result.worst_xhat_violation) {
      result.worst_xhat_violation = xhat_violation;
      xhat_at = block;
    }
  }

  // grad_bias[c] = sum over (n, hw) of grad_out: judged like max_scaled, against the rms over
  // channels of the exact sums, with the same random-walk rounding allowance per channel.
  const double per_channel = static_cast<double>(N * HW);
  // Per (n, c) row of HW values, on the thread pool: one pass over the whole of grad_out.
  Eigen::Map<const Eigen::ArrayXXf> dy_nc(inputs.grad_out.data(), HW, N * C);
  Eigen::ArrayXd sums(N * C), squares(N * C);
  parallel_for(N * C, static_cast<uint64_t>(elements), [&](int64_t row) {
    const auto values = dy_nc.col(row).cast<double>();
    sums(row) = values.sum();
    squares(row) = values.square().sum();
  });
  const Eigen::ArrayXd expected =
      Eigen::Map<const Eigen::ArrayXXd>(sums.data(), C, N).rowwise().sum();
  const Eigen::ArrayXd channel_norm =
      Eigen::Map<const Eigen::ArrayXXd>(squares.data(), C, N).rowwise().sum().sqrt();
  const double bias_scale = std::max(std::sqrt(expected.square().mean()), kScaleFloor);
  const Eigen::ArrayXd allowance = std::sqrt(per_channel) * kFloat32Unit * channel_norm;
  const Eigen::ArrayXd bias_violation = gpu.grad_bias.isFinite().select(
      ((gpu.grad_bias.cast<double>() - expected).abs() - allowance).max(0.0) / bias_scale, kInf);
  if (C > 0) result.worst_bias_violation = bias_violation.maxCoeff(&bias_at);

  const auto group_at = [&](Eigen::Index block) {
    return "(n=" + std::to_string(block / G) + ", group=" + std::to_string(block % G) + ")";
  };
  const auto over = [&](double v) {
    return std::isinf(v) ? std::string("NaN/Inf or unwritten values")
                         : "violated by " + format("%.1e > %.1e", v, tolerance);
  };
  if (!(result.worst_sum_violation <= tolerance)) {
    result.failure = "grad_input: shift invariance sum(grad_input) = 0 " +
                     over(result.worst_sum_violation) + " at " + group_at(sum_at);
  } else if (!(result.worst_xhat_violation <= tolerance)) {
    result.failure = "grad_input: scale invariance sum(grad_input * xhat) = eps-term " +
                     over(result.worst_xhat_violation) + " at " + group_at(xhat_at);
  } else if (!(result.worst_bias_violation <= tolerance)) {
    result.failure = "grad_bias: sum of grad_out over (n, hw) " +
                     over(result.worst_bias_violation) + " at (c=" + std::to_string(bias_at) +
                     "): gpu " + format("%.7g", gpu.grad_bias(bias_at)) + " expected " +
                     format("%.7g", expected(bias_at));
  } else {
    result.pass = true;
  }
  return result;
}

}  // namespace gnbench
