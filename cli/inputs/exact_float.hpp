// Included by the files whose arithmetic must be bit-identical on every target (the input
// draws). Fusing a*b+c into an FMA rounds once instead of twice and would change the last bit
// of some draws between targets with and without FMA, so contraction is off in the including
// file (clang ignores this only when forced with -ffp-contract=fast).
#pragma once

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif
