#!/usr/bin/env bash
# The test suite under AddressSanitizer + UndefinedBehaviorSanitizer: CMakePresets.json's "asan"
# preset (RelWithDebInfo, -fsanitize=address,undefined, build-asan/), on lavapipe.
# CI (.ci/run) runs it after scripts/test.sh.
#
# Leaks: lavapipe, LLVM, the Vulkan loader and the validation layer keep allocations they never
# free; tests/sanitizers/lsan.supp suppresses leaks allocated inside those modules only, so
# gnbench's own leaks still fail the run (the test preset sets ASAN/LSAN/UBSAN_OPTIONS).
#
# Subset: CI has 90 minutes on 2 cores for the Release suite, this one and fuzzing, so the
# suites that mostly time kernels on lavapipe (whole benchmark runs per test, where the time is
# spent in the uninstrumented driver) are left to the Release run: Cli, CliCompare,
# BrokenKernels, SelfTest/BrokenKernel, SeedVariant, Validation. Everything else runs,
# including the CLI bad-input corpus, SIGINT and kernel-timeout tests on the sanitized binary.
# GNBENCH_SANITIZER_ALL=1 runs every test; GNBENCH_SANITIZER_CTEST_ARGS adds ctest arguments.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/install-deps.sh
cmake --preset asan
cmake --build --preset asan
subset=(-E '^(Cli|CliCompare|BrokenKernels|SelfTest/BrokenKernel|SeedVariant|Validation)\.')
if [[ "${GNBENCH_SANITIZER_ALL:-0}" == 1 ]]; then subset=(); fi
# shellcheck disable=SC2086  # word splitting of the extra arguments is wanted
ctest --preset asan "${subset[@]}" ${GNBENCH_SANITIZER_CTEST_ARGS:-}
