// Does a failure match the one its expectation declares? An expectation names the tensors
// that may fail, how (error above tolerance, NaN/Inf, unwritten) and how far; a failure
// outside that is a new bug and must be reported as FAIL, not hidden as XFAIL.
#pragma once

#include <string>

#include "base/problem.hpp"
#include "cli/verify/invariants.hpp"
#include "cli/verify/metrics.hpp"

namespace gnbench {

// "" when every failure in `result` and `invariants` is one `expect.tensors` declares (an
// invariant of a tensor counts as declared when that tensor failed as declared); else one
// line naming the first failure it does not declare, e.g. "grad_weight failed but is not
// declared" or "grad_input max scaled error 1.2e+01 above the declared 1.0e+00".
std::string undeclared_failure(const Expectation& expect, const Tolerances& tolerances,
                               const VerificationResult& result, const InvariantResult& invariants,
                               double invariant_tolerance = kDefaultInvariantTolerance);

}  // namespace gnbench
