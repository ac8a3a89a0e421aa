#include "cli/report/repro_command.hpp"

#include "cli/config/random_problems.hpp"

namespace gnbench {
namespace {

bool same(const TensorTolerance& a, const TensorTolerance& b) {
  return a.l2_rel == b.l2_rel && a.max_scaled == b.max_scaled;
}

std::string common_flags(const std::string& variant, const ReproContext& ctx) {
  std::string s = " --variant " + variant;
  for (const auto& d : ctx.kernel_dirs) s += " --kernels " + d;
  if (!ctx.device.empty()) s += " --device '" + ctx.device + "'";
  if (ctx.trials > 1) s += " --trials " + std::to_string(ctx.trials);
  return ctx.no_timing ? s + " --no-timing" : s;
}

}  // namespace

bool one_off_expressible(const Problem& p) {
  const TensorTolerance built_in;
  const Tolerances& t = p.tolerances;
  return p.distribution.param == 0 && !p.expect.declared() && same(t.grad_input, built_in) &&
         same(t.grad_weight, built_in) && same(t.grad_bias, built_in);
}

std::string one_off_command(const Problem& p, const std::string& variant, const ReproContext& ctx) {
  const Shape& s = p.shape;
  return "gnbench run --batch " + std::to_string(s.batch) + " --channels " +
         std::to_string(s.channels) + " --spatial " + std::to_string(s.spatial) + " --groups " +
         std::to_string(s.groups) + " --eps " + float32_text(p.eps) + " --seed " +
         std::to_string(p.seed) + " --distribution " + p.distribution.kind +
         common_flags(variant, ctx);
}

std::string repro_command(const Problem& p, const std::string& variant, const ReproContext& ctx) {
  if (one_off_expressible(p) || ctx.configs.empty()) return one_off_command(p, variant, ctx);
  std::string s = "gnbench run";
  for (const auto& c : ctx.configs) s += " " + c;
  return s + " --problem " + p.name + common_flags(variant, ctx);
}

}  // namespace gnbench
