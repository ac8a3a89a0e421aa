// expect.tensors decides which failures are the declared ones: every combination of declared
// kinds and actual failure of one tensor, with the other tensors passing or failing, is checked
// against the rule "covered iff the tensor is declared with that kind and within the bound".
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/verify/expectation_match.hpp"
#include "shared_fixtures.hpp"

namespace gnbench {
namespace {

using testing::kOutputTensors;

enum class Actual { kPass, kErrorWithin, kErrorBeyond, kErrorBeyondL2, kNonfinite, kUnwritten };
const Actual kActuals[] = {Actual::kPass,          Actual::kErrorWithin, Actual::kErrorBeyond,
                           Actual::kErrorBeyondL2, Actual::kNonfinite,   Actual::kUnwritten};

// Tolerances are the built-in 1e-4 / 1e-3; declared bounds 1e-1 (max_scaled) and 1e-2 (l2).
TensorMetrics metrics(const std::string& tensor, Actual a) {
  TensorMetrics m;
  m.tensor = tensor;
  m.pass = a == Actual::kPass;
  m.max_scaled = 1e-5;
  m.l2_rel = 1e-6;
  if (a == Actual::kErrorWithin) m.max_scaled = 5e-2, m.l2_rel = 5e-3;
  if (a == Actual::kErrorBeyond) m.max_scaled = 10, m.l2_rel = 5e-3;
  if (a == Actual::kErrorBeyondL2) m.max_scaled = 5e-2, m.l2_rel = 0.5;
  if (a == Actual::kNonfinite) m.nonfinite = 3;
  if (a == Actual::kUnwritten) m.unwritten = 3;
  if (!m.pass) m.failure = tensor + ": failed";
  return m;
}

Expectation declaring(const std::string& tensor, unsigned kinds) {
  Expectation x;
  x.outcome = Expectation::Outcome::kFail;
  TensorFailure f;
  f.error = kinds & 1;
  f.nonfinite = kinds & 2;
  f.unwritten = kinds & 4;
  if (f.error) f.max_scaled = 1e-1, f.l2_rel = 1e-2;
  x.tensors[tensor] = f;
  return x;
}

bool covered(unsigned kinds, Actual a) {
  switch (a) {
    case Actual::kPass: return true;
    case Actual::kErrorWithin: return kinds & 1;
    case Actual::kErrorBeyond:
    case Actual::kErrorBeyondL2: return false;
    case Actual::kNonfinite: return kinds & 2;
    case Actual::kUnwritten: return kinds & 4;
  }
  return false;
}

InvariantResult passing_invariants() {
  InvariantResult inv;
  inv.pass = true;
  return inv;
}

TEST(ExpectationMatch, EveryKindOfEveryTensorAgainstEveryDeclaration) {
  for (const std::string& declared : kOutputTensors)
    for (unsigned kinds = 1; kinds < 8; ++kinds)
      for (const std::string& failing : kOutputTensors)
        for (Actual a : kActuals) {
          const Expectation x = declaring(declared, kinds);
          VerificationResult r;
          for (const auto& t : kOutputTensors)
            r.tensors.push_back(metrics(t, t == failing ? a : Actual::kPass));
          const bool expect_covered =
              a == Actual::kPass || (failing == declared && covered(kinds, a));
          const std::string why = undeclared_failure(x, Tolerances{}, r, passing_invariants());
          EXPECT_EQ(why.empty(), expect_covered)
              << "declared " << declared << " kinds " << kinds << ", " << failing << " case "
              << static_cast<int>(a) << ": '" << why << "'";
          if (!why.empty()) EXPECT_EQ(why.rfind(failing, 0), 0u) << why;  // names the tensor
        }
}

TEST(ExpectationMatch, AnUnboundedMetricIsNotChecked) {
  Expectation x = declaring("grad_input", 1);
  x.tensors["grad_input"].l2_rel.reset();
  VerificationResult r;
  r.tensors = {metrics("grad_input", Actual::kErrorBeyondL2), metrics("grad_weight", Actual::kPass),
               metrics("grad_bias", Actual::kPass)};
  EXPECT_EQ(undeclared_failure(x, Tolerances{}, r, passing_invariants()), "");
  r.tensors[0] = metrics("grad_input", Actual::kErrorBeyond);
  EXPECT_NE(undeclared_failure(x, Tolerances{}, r, passing_invariants()).find("max scaled error"),
            std::string::npos);
}

// An identity of a tensor that failed as declared follows from that failure; one of a tensor
// that passed (or is not declared) is a failure of its own.
TEST(ExpectationMatch, InvariantsFollowTheirTensor) {
  const Expectation x = declaring("grad_input", 1);
  VerificationResult r;
  r.tensors = {metrics("grad_input", Actual::kErrorWithin), metrics("grad_weight", Actual::kPass),
               metrics("grad_bias", Actual::kPass)};
  InvariantResult inv;
  inv.failure = "grad_input: shift invariance";
  inv.worst_sum_violation = 0.5;
  EXPECT_EQ(undeclared_failure(x, Tolerances{}, r, inv), "");
  inv.worst_sum_violation = 0;
  inv.worst_bias_violation = 0.5;
  inv.failure = "grad_bias: sum";
  EXPECT_EQ(undeclared_failure(x, Tolerances{}, r, inv), "invariant violated: grad_bias: sum");
  r.tensors[0] = metrics("grad_input", Actual::kPass);
  inv.worst_bias_violation = 0;
  inv.worst_xhat_violation = 0.5;
  EXPECT_NE(undeclared_failure(x, Tolerances{}, r, inv), "");
}

// A failure that is none of the declarable kinds (such as a reference with NaN) is never covered.
TEST(ExpectationMatch, OtherFailuresAreNeverCovered) {
  Expectation x = declaring("grad_input", 7);
  VerificationResult r;
  r.tensors = {metrics("grad_input", Actual::kPass), metrics("grad_weight", Actual::kPass),
               metrics("grad_bias", Actual::kPass)};
  r.tensors[0].pass = false;
  r.tensors[0].failure = "grad_input: reference has 2 NaN/Inf elements";
  EXPECT_EQ(undeclared_failure(x, Tolerances{}, r, passing_invariants()), r.tensors[0].failure);
}

}  // namespace
}  // namespace gnbench
