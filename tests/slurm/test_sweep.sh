#!/usr/bin/env bash
# scripts/slurm/sweep.sh against a real Slurm 22.05 (one node, started here, as root):
#  1. 3 tasks on configs/default.json, merged: the same entries as one unsharded run;
#  2. --resume resubmits only the missing and the incomplete task files, and merges again;
#  3. a task stopped by SIGTERM (what Slurm sends at the time limit) keeps its finished
#     entries, marked incomplete, and the merge is held back (--wait exits 3).
# Installs slurm-wlm and munge when missing (scripts/install-deps.sh --slurm).
#   tests/slurm/test_sweep.sh [GNBENCH]          (CI: .ci/run; about a minute)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export GNBENCH="$(realpath "${1:-$repo/build/gnbench}")"
export MESA_VK_IGNORE_CONFORMANCE_WARNING=1
fail() { echo "test_sweep.sh: FAIL: $*" >&2; exit 1; }
step() { echo "test_sweep.sh: $*" >&2; }

bash "$repo/scripts/install-deps.sh" --slurm
work="$(mktemp -d /tmp/gnbench-slurm.XXXXXX)"
cluster="$work/cluster"
trap 'bash "$repo/scripts/slurm/one-node-slurm.sh" stop "$cluster" || true' EXIT
eval "$(bash "$repo/scripts/slurm/one-node-slurm.sh" start "$cluster")"
cd "$work"
sweep=("$repo/scripts/slurm/sweep.sh")

# The gnbench records of a results file, keyed by problem/variant ("device" and the context
# differ between runs by design).
same_entries() {
  /usr/bin/python3 - "$1" "$2" <<'PY'
import json, sys
def entries(path):
    doc = json.load(open(path))
    out = {}
    for b in doc["benchmarks"]:
        e = b.get("gnbench")
        if e:
            out[e["problem"]["name"] + "/" + e["variant"]] = e
    return out
a, b = entries(sys.argv[1]), entries(sys.argv[2])
if not a:
    sys.exit("no entries in " + sys.argv[1])
if a != b:
    only = sorted(set(a) ^ set(b))
    differ = sorted(k for k in set(a) & set(b) if a[k] != b[k])
    sys.exit(f"entries differ: only in one: {only[:5]}, different: {differ[:5]}")
print(f"{len(a)} entries equal")
PY
}

step "1. unsharded run and a 3-task sweep"
# Two variants keep it fast on lavapipe (the default config's six problems, all sizes of
# work per task); the comparison is exact, so any shard mix-up shows.
args=(-- --no-timing --variant seed,gn_fused)
"$GNBENCH" run "$repo/configs/default.json" "${args[@]:1}" --quiet --json ref.json >/dev/null ||
  fail "the unsharded run exited with $?"
# Through `gnbench merge` too, so that both sides have had the same read and write (a results
# file read back loses some detail, e.g. the worst element's location).
"$GNBENCH" merge ref.json -o ref_merged.json >/dev/null
SECONDS=0
timeout 300 "${sweep[@]}" --tasks 3 --out merged.json --wait "$repo/configs/default.json" "${args[@]}" ||
  fail "sweep exited with $?"
step "sweep took $SECONDS s"
[[ -f merged.json.parts/task_3.json ]] || fail "no results file of task 3"
same_entries ref_merged.json merged.json || fail "the merged sweep differs from the unsharded run"
grep -q '"shard": "2/3"' merged.json.parts/task_2.json || fail "task 2 did not run shard 2/3"

step "2. --resume: task 2's file removed, task 3's marked incomplete"
rm merged.json.parts/task_2.json
/usr/bin/python3 - merged.json.parts/task_3.json <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["context"]["gnbench"]["complete"] = False
json.dump(doc, open(sys.argv[1], "w"))
PY
task1_before="$(stat -c %Y merged.json.parts/task_1.json)"
timeout 300 "${sweep[@]}" --tasks 3 --out merged.json --resume --wait "$repo/configs/default.json" \
  "${args[@]}" 2>resume.log || { cat resume.log >&2; fail "resume exited with $?"; }
cat resume.log >&2
grep -q "tasks 2,3 of 3" resume.log || fail "--resume did not resubmit exactly tasks 2 and 3"
[[ "$(stat -c %Y merged.json.parts/task_1.json)" == "$task1_before" ]] || fail "task 1 ran again"
same_entries ref_merged.json merged.json || fail "the resumed sweep differs from the unsharded run"
"${sweep[@]}" --tasks 2 --out merged.json --resume "$repo/configs/default.json" "${args[@]}" 2>/dev/null &&
  fail "--resume with another --tasks was accepted"

step "3. SIGTERM to a running task (as at its time limit)"
# 192 problems: far more than a task finishes before the signal.
echo '{"axes": {"prefix": "long", "batch": [1, 2, 3, 4, 5, 6, 7, 8], "channels": [64, 128],
  "spatial": [4096, 8192, 16384], "groups": [8, 16, 32, 64]}}' >long.json
"${sweep[@]}" --tasks 1 --out long_merged.json long.json -- --variant seed --no-timing 2>submit.log
array="$(sed -n 's/.*job array \([0-9]*\).*/\1/p' submit.log)"
merge="$(sed -n 's/.*merge job \([0-9]*\).*/\1/p' submit.log)"
[[ -n "$array" && -n "$merge" ]] || fail "no job ids in: $(cat submit.log)"
for ((i = 0; i < 300; ++i)); do
  [[ "$(squeue -h -j "$array" -o %T 2>/dev/null)" == RUNNING ]] && break
  sleep 0.1
done
sleep 4  # start-up (Vulkan, shader compiles) and a few problems
scancel --signal=TERM --full "$array"
for ((i = 0; i < 600; ++i)); do
  [[ -z "$(squeue -h -j "$array" 2>/dev/null)" ]] && break
  sleep 0.1
done
[[ -z "$(squeue -h -j "$array" 2>/dev/null)" ]] || fail "the task did not stop after SIGTERM"
[[ "$(cat long_merged.json.parts/task_1.rc)" == 130 ]] || fail "gnbench exit $(cat long_merged.json.parts/task_1.rc), not 130"
/usr/bin/python3 - long_merged.json.parts/task_1.json <<'PY' || fail "the stopped task's results"
import json, sys
doc = json.load(open(sys.argv[1]))
n = sum("gnbench" in b for b in doc["benchmarks"])
assert doc["context"]["gnbench"]["complete"] is False, "not marked incomplete"
assert 0 < n < 192, f"{n} entries"
print(f"stopped task kept {n} entries, marked incomplete")
PY
[[ "$(squeue -h -j "$merge" -o %r)" == *Dependency* ]] || fail "the merge was not held back"
scancel "$merge"
[[ ! -e long_merged.json ]] || fail "a merged file from an incomplete task"
step "passed"
