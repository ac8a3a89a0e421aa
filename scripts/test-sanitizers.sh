#!/usr/bin/env bash
# The test suite under AddressSanitizer + UndefinedBehaviorSanitizer: CMakePresets.json's "asan"
# preset (RelWithDebInfo, -fsanitize=address,undefined, build-asan/), on lavapipe.
# CI (.ci/run) runs it after scripts/test.sh.
#
# Leaks: lavapipe, LLVM, the Vulkan loader and the validation layer keep allocations they never
# free; tests/sanitizers/lsan.supp suppresses leaks allocated inside those modules only, so
# gnbench's own leaks still fail the run (the test preset sets ASAN/LSAN/UBSAN_OPTIONS).
#
# Subset: CI has 90 minutes on 2 cores and should stay well under 45 for everything, so this
# step builds and runs the test files of the code that handles outside input or owns memory
# (CMakePresets.json's GNBENCH_TEST_FILES: configs, manifests and their expressions, stored
# results files with compare and merge, npy and atomic writes, the CLI's option wiring and
# bad-input corpus through the sanitized binary, hostile inputs, the fuzz corpus, the
# reference, invariants and metrics, input generation, the seed and broken-kernel runs, SIGINT
# and the kernel timeout), 21 of the 50 files. The others (printers, timing and the timed
# end-to-end runs, the family-shape and verify-suite runs, multi-device) run in the Release
# suite only; within the built files, Validation (timed runs of every shipped variant) and the
# layers.* compiler probes (no gnbench code), and two 45-60 s tests that repeat smaller tests
# of the same code (ResultsGzip.OldStoredResultsStillRead reading every stored H200 results
# file, Manifest.GradInputStagesKeepTheirProductUnfused's SPIR-V of every stage), and the python
# tests of scripts that only read stored files.
# GNBENCH_SANITIZER_ALL=1 builds and runs every test; GNBENCH_SANITIZER_CTEST_ARGS adds ctest
# arguments.
#
# Unity batches as in the Release build: one by one, the layers' files took 1470 s of CPU here
# (instrumenting the same Vulkan-Hpp and nlohmann_json instantiations in every file), batched 650
# (2 cores). That every file also compiles on its own (a batch can hide a missing include) is
# scripts/check_compiles_alone.py's job: 205 s on 2 cores for the layers' files, more than CI's
# time allows (docs/robustness.md), so run it after changing includes.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/install-deps.sh
if [[ "${GNBENCH_SANITIZER_ALL:-0}" == 1 ]]; then cmake --preset asan -DGNBENCH_TEST_FILES=; else cmake --preset asan; fi
cmake --build --preset asan
# lavapipe stays loaded for the whole of each process: the Vulkan loader unloads the driver at
# vkDestroyInstance, and what the driver still held then shows up as leaks from an "<unknown
# module>" that no suppression can name. Preloaded, its frames keep their module name and
# lsan.supp's driver lines apply (the ASan runtime must come first in the list).
lvp=/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so
if [[ -e $lvp ]]; then export LD_PRELOAD="$(gcc -print-file-name=libasan.so) $lvp"; fi
# plot_py, perf_table_py, gen_shapes_py and check_compiles_alone_py run scripts/*.py, no gnbench code
# (dispatch_eval_py runs the sanitized binary and stays).
subset=(-E '^(Validation|layers)\.|^(ResultsGzip\.OldStoredResultsStillRead|Manifest\.GradInputStagesKeepTheirProductUnfused|plot_py|perf_table_py|gen_shapes_py|check_compiles_alone_py)$')
if [[ "${GNBENCH_SANITIZER_ALL:-0}" == 1 ]]; then subset=(); fi
# shellcheck disable=SC2086  # word splitting of the extra arguments is wanted
ctest --preset asan "${subset[@]}" ${GNBENCH_SANITIZER_CTEST_ARGS:-}
