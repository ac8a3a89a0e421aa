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
# three slowest suites, whose time goes to whole timed benchmark runs in the uninstrumented
# lavapipe driver, are left to the Release run: Cli, CliCompare (other engineers' end-to-end
# CLI runs, about 7 of the Release suite's 12 CPU-minutes) and Validation; and the layers.*
# compiler probes, which run no gnbench code. Also the five tests that took 30-60 s each under
# ASan repeating what smaller tests of the same code run (CompareCalibration.H200Run20's
# resampling, ResultsGzip.OldStoredResultsStillRead and CliCompareFiles.StoredH200RunsCompressed
# reading every stored H200 results file, Manifest.GradInputStagesKeepTheirProductUnfused's
# SPIR-V of every stage) or what CI's verify-suite step runs for real (VerifySuite.*). Everything else
# runs, including the seed and broken-kernel runs, the CLI bad-input corpus, and the SIGINT
# and kernel-timeout tests on the sanitized binary.
# GNBENCH_SANITIZER_ALL=1 runs every test; GNBENCH_SANITIZER_CTEST_ARGS adds ctest arguments.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/install-deps.sh
cmake --preset asan
cmake --build --preset asan
# lavapipe stays loaded for the whole of each process: the Vulkan loader unloads the driver at
# vkDestroyInstance, and what the driver still held then shows up as leaks from an "<unknown
# module>" that no suppression can name. Preloaded, its frames keep their module name and
# lsan.supp's driver lines apply (the ASan runtime must come first in the list).
lvp=/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so
if [[ -e $lvp ]]; then export LD_PRELOAD="$(gcc -print-file-name=libasan.so) $lvp"; fi
subset=(-E '^(Cli|CliCompare|Validation|layers)\.|^(CompareCalibration\.H200Run20|ResultsGzip\.OldStoredResultsStillRead|CliCompareFiles\.StoredH200RunsCompressed|Manifest\.GradInputStagesKeepTheirProductUnfused|VerifySuite\..*)$')
if [[ "${GNBENCH_SANITIZER_ALL:-0}" == 1 ]]; then subset=(); fi
# shellcheck disable=SC2086  # word splitting of the extra arguments is wanted
ctest --preset asan "${subset[@]}" ${GNBENCH_SANITIZER_CTEST_ARGS:-}
