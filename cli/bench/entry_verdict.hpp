// An entry's verdict from what its runs produced: input writes, verification, invariants,
// determinism, then the problem's declared expectation (XFAIL/XPASS).
#pragma once

#include "cli/bench/records.hpp"

namespace gnbench {

// Sets e.verdict and e.message for an entry that ran (PASS so far) or ended in ERROR.
void judge(EntryRecord& e);

// Of two trials' verifications, whether `a` is the one to report: failing before passing,
// then the larger scaled error.
bool worse(const VerificationResult& a, const VerificationResult& b);

}  // namespace gnbench
