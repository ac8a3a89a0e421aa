#!/usr/bin/env bash
# The verification suite (configs/verify.json) on this machine's device, verify only, every
# variant: first with its fixed seed, then its random block again from a fresh seed, printed
# so that any failure reruns (VERIFY_SEED=<seed> bash scripts/verify-suite.sh). Fails when an
# entry fails or when the coverage report shows a regime a variant could run but never passed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
seed=${VERIFY_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "verify-suite: fresh seed $seed (rerun with VERIFY_SEED=$seed bash scripts/verify-suite.sh)"
python3 - "$seed" > "$out/fresh.json" <<'PY'
import json, sys
block = json.load(open('configs/verify.json'))['random']
block.update(seed=int(sys.argv[1]), prefix='fresh', count=12)  # half the block: CI time
print(json.dumps({'description': 'verify.json random block, fresh seed', 'random': block}))
PY
status=0
check() {  # $1: label, rest: gnbench run arguments
  local label=$1
  shift
  local code=0
  build/gnbench run "$@" --no-timing -q --coverage > "$out/$label.txt" || code=$?
  cat "$out/$label.txt"
  if [ "$code" != 0 ]; then
    echo "verify-suite: $label: gnbench exited $code"
    status=1
  fi
  if ! grep -q ' 0 never verified, 0 failed$' "$out/$label.txt"; then
    echo "verify-suite: $label: a variant was never verified in a regime it can run"
    status=1
  fi
}
check fixed configs/verify.json
# The fold of variants that pack many groups or rows per workgroup needs millions of groups:
# those families alone (tests/test_verify_suite.cpp counts the same patterns).
build/gnbench run configs/verify_fold.json --variant 'gn_flat_*,gn_sgroup_*,gn_team_*' \
  --no-timing -q || { echo "verify-suite: verify_fold.json failed"; status=1; }
# The fresh draw alone need not reach every regime: only its failures count.
build/gnbench run "$out/fresh.json" --no-timing -q || { echo "verify-suite: fresh seed $seed failed"; status=1; }
exit $status
