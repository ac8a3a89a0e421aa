#!/usr/bin/env bash
# The verification suite (configs/verify.json) on this machine's device, verify only, every
# variant: with its fixed seed and, beside that run, configs/numerics.json's hard inputs and its
# random block again from a fresh seed, printed so that any failure reruns
# (VERIFY_SEED=<seed> bash scripts/verify-suite.sh). Fails when an
# entry fails or when the coverage reports show a regime a variant could run but never passed
# (verify.json for every variant, verify_fold.json for the families whose fold needs millions
# of groups or, for gn_onchip_* (N < 24), hundreds of thousands of channels: a NEVER cell of the
# first must be PASS in one of the fold runs).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=$(mktemp -d)
fixed_pid=
trap 'if [ -n "$fixed_pid" ]; then kill "$fixed_pid" 2>/dev/null || true; fi; rm -rf "$out"' EXIT
seed=${VERIFY_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "verify-suite: fresh seed $seed (rerun with VERIFY_SEED=$seed bash scripts/verify-suite.sh)"
python3 - "$seed" > "$out/fresh.json" <<'PY'
import json, sys
block = json.load(open('configs/verify.json'))['random']
block.update(seed=int(sys.argv[1]), prefix='fresh', count=12)  # part of the block: CI time
print(json.dumps({'description': 'verify.json random block, fresh seed', 'random': block}))
PY
status=0
# The runs share the machine (below), so a kernel gets three times gnbench's default 60 s
# before it counts as hung: the seed's one workgroup per group takes about 20 s a run alone on
# lavapipe's two cores for verify.json's 2M-element groups.
limit=(--kernel-timeout 180)
# $1: label, rest: gnbench run arguments; the table and coverage report kept in $out.
verify_to() {
  local label=$1
  shift
  build/gnbench run "$@" --no-timing -q --coverage "${limit[@]}" > "$out/$label.txt"
}
# $1: label, $2: its gnbench exit code: prints the table and counts a failure.
report() {
  cat "$out/$1.txt"
  if [ "$2" != 0 ]; then
    echo "verify-suite: $1: gnbench exited $2"
    status=1
  fi
}
run() {  # verify_to's arguments, then report
  local code=0
  verify_to "$@" || code=$?
  report "$1" "$code"
}
# The fixed run is two thirds of the suite, and the CPU reference, the checks and the input
# generation between its kernels use one core of two: the other runs go beside it (about a
# quarter less wall time on two cores), and its table is printed when it is done.
verify_to fixed configs/verify.json &
fixed_pid=$!
# The fold of variants that pack many groups or rows per workgroup needs millions of groups:
# those families alone; gn_onchip_*'s (N < 24) needs hundreds of thousands of channels: that
# family alone on its own problems (tests/test_verify_suite.cpp counts the same patterns).
run fold configs/verify_fold.json --problem 'fold_*' --variant 'gn_flat_*,gn_sgroup_*,gn_team_*'
run fold_onchip configs/verify_fold.json --problem 'onchip_fold_*' --variant 'gn_onchip_*'
# Hard inputs at full strength (|mean|/std up to 1e4, constant groups, heavy tails), where a
# kernel that drops the mean shift or the eps term passes verify.json's milder draws.
build/gnbench run configs/numerics.json --no-timing -q "${limit[@]}" > "$out/numerics.txt" ||
  { cat "$out/numerics.txt"; echo "verify-suite: numerics.json failed"; status=1; }
tail -1 "$out/numerics.txt"
# The fresh draw alone need not reach every regime: only its failures count.
build/gnbench run "$out/fresh.json" --no-timing -q "${limit[@]}" ||
  { echo "verify-suite: fresh seed $seed failed"; status=1; }
code=0
wait "$fixed_pid" || code=$?
fixed_pid=
report fixed "$code"
# The suite is all three runs: a regime a variant could run but never passed in the first (its
# coverage table's NEVER cells) must have passed in one of the others.
python3 - "$out/fixed.txt" "$out/fold.txt" "$out/fold_onchip.txt" <<'PY' || status=1
import sys
def table(path):
    cells, header = {}, None
    for line in open(path):
        words = line.split()
        if words[:1] == ['variant']:
            header = words[1:]
        elif header and len(words) == len(header) + 1:
            cells.update(((words[0], r), c) for r, c in zip(header, words[1:]))
        elif header:
            header = None
    return cells
fixed = table(sys.argv[1])
fold_passed = {k for path in sys.argv[2:] for k, c in table(path).items() if c == 'PASS'}
if not fixed:
    sys.exit('verify-suite: no coverage table in the fixed run')
gaps = [k for k, c in fixed.items() if c in ('NEVER', 'FAIL') and k not in fold_passed]
for variant, regime in gaps:
    print(f'verify-suite: {variant} never verified in {regime}, in either run')
sys.exit(1 if gaps else 0)
PY
exit $status
