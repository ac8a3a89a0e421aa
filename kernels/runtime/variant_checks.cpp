#include "kernels/runtime/variant_checks.hpp"

#include "base/errors.hpp"
#include "kernels/runtime/variant_runner.hpp"

namespace gnbench {

namespace {

int64_t in_range(const Expression& e, const Variables& vars, int64_t lo, int64_t hi,
                 const char* what) {
  const int64_t v = e.evaluate(vars);
  if (v < lo || v > hi)
    throw ConfigError(e.where() + ": expression '" + e.text() + "' = " + std::to_string(v) + ": " +
                      what + " must be in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                      "]");
  return v;
}

}  // namespace

void check_variant_expressions(const VariantSpec& spec, const Shape& shape,
                               const DeviceInfo& device) {
  for (const auto& f : spec.requires_features)
    if (!device.has(f)) return;
  const Variables vars = problem_variables(shape, device.limits.subgroup_size);
  if (spec.when && !spec.when->evaluate(vars)) return;
  constexpr int64_t kU32 = UINT32_MAX;
  for (const auto& stage : spec.stages)
    if (stage_runs(stage, vars))
      for (const auto& d : stage.dispatch) in_range(d, vars, 1, kU32, "a workgroup count");
  for (const auto& p : spec.params) in_range(p, vars, 0, kU32, "a param (u32)");
  if (spec.traffic_bytes) in_range(*spec.traffic_bytes, vars, 0, INT64_MAX, "a byte count");
  uint64_t scratch = 0;
  for (const auto& b : spec.buffers)
    if (b.kind == BufferSpec::Kind::kScratch) {
      const auto bytes = static_cast<uint64_t>(
          in_range(*b.scratch_bytes, vars, 0, INT64_MAX, "a scratch size in bytes"));
      if (__builtin_add_overflow(scratch, bytes, &scratch))
        throw ConfigError(b.scratch_bytes->where() + ": scratch sizes add up past 2^64");
    }
  // The device-limit reasons (a SKIP, not an error) evaluate the same expressions again.
  (void)not_applicable_reason(spec, shape, device);
}

}  // namespace gnbench
