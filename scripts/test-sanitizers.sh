#!/usr/bin/env bash
# The test suite under AddressSanitizer + UndefinedBehaviorSanitizer: CMakePresets.json's "asan"
# preset (RelWithDebInfo, -fsanitize=address,undefined, build-asan/), on lavapipe.
# CI (.ci/run) runs it after scripts/test.sh.
#
# Leaks: lavapipe, LLVM, the Vulkan loader and the validation layer keep allocations they never
# free; tests/sanitizers/lsan.supp suppresses leaks allocated inside those modules only, so
# gnbench's own leaks still fail the run (the test preset sets ASAN/LSAN/UBSAN_OPTIONS).
#
# GNBENCH_SANITIZER_CTEST_ARGS: extra ctest arguments, e.g. "-R Config" for a subset.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/install-deps.sh
cmake --preset asan
cmake --build --preset asan
# shellcheck disable=SC2086  # word splitting of the extra arguments is wanted
ctest --preset asan ${GNBENCH_SANITIZER_CTEST_ARGS:-}
