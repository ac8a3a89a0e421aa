// Built-in expectations for the problems no config annotates: random draws (`run --random`, a
// random block without "expect") and the command line's one-off problem.
#pragma once

#include "base/problem.hpp"

namespace gnbench {

// The seed reference variant's documented defects, whatever the shape and inputs (its float32
// E[x^2] - mean^2 cancels on large means and on small groups with tiny eps; lavapipe's loop cap
// ends its grad_weight loop on large-N folds): may_fail for "seed" alone, unbounded. So such a
// problem fails on a wrong gn_* variant, not on the baseline's known bugs.
Expectation seed_known_defects(const Tolerances& tolerances);

}  // namespace gnbench
