#!/usr/bin/env bash
# libFuzzer on the two text parsers: configs (parse_config_text) and kernel manifests
# (load_manifest_text, plus every expression of an accepted manifest evaluated). Built with
# clang-14 -fsanitize=fuzzer,address,undefined in build-fuzz/; each target runs FUZZ_SECONDS
# (default 60). CI (.ci/run) runs it after the sanitizer suite.
#
# Seeds: tests/fuzz/corpus/<target>/ (kept in git: shipped files, bad inputs, past crashes)
# plus today's configs/*.json or kernels/*.json. New inputs go to build-fuzz/corpus/<target>/,
# never into the repository. A crash, sanitizer report, leak or 10 s hang fails the script; the
# input is in build-fuzz/artifacts/: fix the bug, then copy the input into
# tests/fuzz/corpus/<target>/ so that tests/test_fuzz_corpus.cpp replays it on every ctest run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds="${FUZZ_SECONDS:-60}"
bash scripts/install-deps.sh --fuzz
CC=clang-14 CXX=clang++-14 cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DGNBENCH_BUILD_FUZZERS=ON -DGNBENCH_BUILD_TESTS=OFF -DGNBENCH_BUILD_BENCHMARKS=OFF
cmake --build build-fuzz --target fuzz_config fuzz_manifest

# One target: its run's log in build-fuzz/fuzz_<target>.log, a summary on stdout, status 1 on
# a finding.
fuzz_one() {
  local target=$1
  local work="build-fuzz/corpus/$target" shipped="build-fuzz/shipped/$target"
  rm -rf "$shipped"
  mkdir -p "$work" "$shipped" build-fuzz/artifacts
  if [[ $target == config ]]; then cp configs/*.json "$shipped/"; else cp kernels/*.json "$shipped/"; fi
  echo "fuzz: $target for $seconds s"
  if ! "build-fuzz/tests/fuzz/fuzz_$target" "$work" "tests/fuzz/corpus/$target" "$shipped" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
    -dict=tests/fuzz/json.dict -artifact_prefix="build-fuzz/artifacts/$target-" \
    -print_final_stats=1 >"build-fuzz/fuzz_$target.log" 2>&1; then
    tail -n 60 "build-fuzz/fuzz_$target.log"
    echo "fuzz: $target FAILED; the input is in build-fuzz/artifacts/ (replay: build-fuzz/tests/fuzz/fuzz_$target FILE)"
    return 1
  fi
  grep -E '^(Done|stat::number_of_executed_units)' "build-fuzz/fuzz_$target.log" || true
  echo "fuzz: $target ok"
}

# The targets run side by side (libFuzzer is one thread; CI has two cores), each summary printed
# when both are done.
status=0
pids=()
for target in config manifest; do
  fuzz_one "$target" >"build-fuzz/fuzz_$target.summary" 2>&1 &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
cat build-fuzz/fuzz_config.summary build-fuzz/fuzz_manifest.summary
exit "$status"
