#include "cli/bench/entry_verdict.hpp"

#include <algorithm>

#include "cli/verify/expectation_match.hpp"

namespace gnbench {
namespace {

// What an entry's failure has beyond what its problem's expectation declares ("" if nothing).
std::string undeclared_failure(const EntryRecord& e) {
  if (!e.input_write.empty()) return "it wrote into an input";
  if (e.bitwise_reproducible == false && e.declared_deterministic)
    return "declared deterministic, but two runs differ bitwise";
  return undeclared_failure(e.problem.expect, e.problem.tolerances, e.verification, e.invariants);
}

// Expected failures turn FAIL into XFAIL, and PASS into XPASS unless declared may_fail. A
// failure the expectation does not declare stays FAIL.
void apply_expectation(EntryRecord& e) {
  if (!e.problem.expect.applies_to(e.variant)) return;
  if (e.verdict == Verdict::kFail) {
    const std::string other = undeclared_failure(e);
    if (!other.empty()) {
      e.message = "not the declared failure (" + other + "): " + e.message;
      return;
    }
    e.verdict = Verdict::kXFail;
    e.message = "expected failure (" + e.problem.expect.reason + "): " + e.message;
  } else if (e.verdict == Verdict::kPass &&
             e.problem.expect.outcome == Expectation::Outcome::kFail) {
    e.verdict = Verdict::kXPass;
    e.message = "unexpected pass: declared expected to fail (" + e.problem.expect.reason + ")";
  }
}

}  // namespace

bool worse(const VerificationResult& a, const VerificationResult& b) {
  if (a.pass != b.pass) return !a.pass;
  auto worst = [](const VerificationResult& v) {
    double w = 0;
    for (const auto& t : v.tensors) w = std::max(w, t.max_scaled);
    return w;
  };
  return worst(a) > worst(b);
}

void judge(EntryRecord& e) {
  if (e.verdict == Verdict::kPass) {
    bool ok = e.verification.pass && e.invariants.pass;
    if (!e.input_write.empty()) {
      e.verdict = Verdict::kFail;
      e.message = e.input_write;
    } else if (!ok) {
      e.verdict = Verdict::kFail;
      e.message = !e.verification.pass
                      ? (e.failed_after_timing ? "after timing: " : "") + e.verification.summary()
                      : "invariant violated: " + e.invariants.failure;
    } else if (e.bitwise_reproducible == false && e.declared_deterministic) {
      e.verdict = Verdict::kFail;
      e.message = "declared deterministic, but two runs on the same inputs differ bitwise";
    }
  }
  if (e.verdict == Verdict::kError && !e.input_write.empty()) e.message += "; " + e.input_write;
  apply_expectation(e);
}

}  // namespace gnbench
