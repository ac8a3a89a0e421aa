#include "cli/verify/expectation_match.hpp"

#include <cstdio>

namespace gnbench {

namespace {

std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1e", v);
  return buf;
}

const TensorTolerance& tolerance_of(const Tolerances& t, const std::string& tensor) {
  if (tensor == "grad_input") return t.grad_input;
  if (tensor == "grad_weight") return t.grad_weight;
  return t.grad_bias;
}

// Why one failing tensor's failure is not covered by `declared` ("" when it is).
std::string tensor_mismatch(const TensorMetrics& m, const TensorFailure& declared,
                            const TensorTolerance& tol) {
  const std::string& t = m.tensor;
  if (m.unwritten > 0 && !declared.unwritten)
    return t + " has " + std::to_string(m.unwritten) + " unwritten elements, not declared";
  if (m.nonfinite > 0 && !declared.nonfinite)
    return t + " has " + std::to_string(m.nonfinite) + " NaN/Inf elements, not declared";
  const bool over = !(m.max_scaled <= tol.max_scaled) || !(m.l2_rel <= tol.l2_rel);
  if (over && !declared.error)
    return t + " error above tolerance (max scaled " + sci(m.max_scaled) + ", l2 " + sci(m.l2_rel) +
           "), not declared";
  if (over && declared.max_scaled && !(m.max_scaled <= *declared.max_scaled))
    return t + " max scaled error " + sci(m.max_scaled) + " above the declared " +
           sci(*declared.max_scaled);
  if (over && declared.l2_rel && !(m.l2_rel <= *declared.l2_rel))
    return t + " l2 relative error " + sci(m.l2_rel) + " above the declared " +
           sci(*declared.l2_rel);
  // Failed for none of the declarable reasons (a reference with NaN, a size mismatch).
  if (!over && m.unwritten == 0 && m.nonfinite == 0) return m.failure;
  return "";
}

const TensorMetrics* find_tensor(const VerificationResult& r, const std::string& name) {
  for (const auto& m : r.tensors)
    if (m.tensor == name) return &m;
  return nullptr;
}

}  // namespace

std::string undeclared_failure(const Expectation& expect, const Tolerances& tolerances,
                               const VerificationResult& result, const InvariantResult& invariants,
                               double invariant_tolerance) {
  for (const TensorMetrics& m : result.tensors) {
    if (m.pass) continue;
    const auto declared = expect.tensors.find(m.tensor);
    if (declared == expect.tensors.end()) return m.tensor + " failed but is not declared";
    std::string why = tensor_mismatch(m, declared->second, tolerance_of(tolerances, m.tensor));
    if (!why.empty()) return why;
  }
  if (invariants.pass) return "";
  // An identity of a tensor that itself failed as declared breaks as a consequence; on a
  // tensor that passed the comparison it is a failure of its own.
  const std::pair<const char*, bool> violated[] = {
      {"grad_input", !(invariants.worst_sum_violation <= invariant_tolerance) ||
                         !(invariants.worst_xhat_violation <= invariant_tolerance)},
      {"grad_bias", !(invariants.worst_bias_violation <= invariant_tolerance)}};
  bool any = false;
  for (const auto& [tensor, broken] : violated) {
    if (!broken) continue;
    any = true;
    const TensorMetrics* m = find_tensor(result, tensor);
    if (m == nullptr || m->pass || !expect.tensors.count(tensor))
      return "invariant violated: " + invariants.failure;
  }
  if (!any) return "invariant violated: " + invariants.failure;
  return "";
}

}  // namespace gnbench
