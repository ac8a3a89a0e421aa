#!/usr/bin/env bash
# A gnbench sweep as a Slurm job array: N tasks each run one round-robin shard of the configs
# (gnbench run --shard I/N, one results file per task) and a merge job, submitted with
# --dependency=afterok on the array, merges them into one results file.
#
#   scripts/slurm/sweep.sh --tasks N --out FILE [--wait] [--resume] [--force]
#       [--partition P] [--gres G] [--time T] [--sbatch ARG]... CONFIG... [-- RUN_ARGS...]
#
#   --wait      return when the merge has run, with its exit status (0 all passed, 1 some entry
#               failed verification or the merge refused its inputs); when a task failed (the
#               merge then never runs) cancel the merge and exit 3 naming the tasks to --resume
#   --resume    resubmit only the tasks whose results file is missing or incomplete (a task
#               stopped by SIGTERM at its time limit keeps its finished entries, marked
#               incomplete), then the merge again; same --tasks, configs and RUN_ARGS as before
#   --partition, --gres (e.g. gpu:1), --time: passed to every task's sbatch; --sbatch ARG: any
#               other sbatch argument, for every job
#   RUN_ARGS    more `gnbench run` arguments, e.g. --samples 20 --variant 'gn_*'
#
# Files: FILE.parts/task_I.json (task I's results), task_I.log, merge.log, merge.rc (the
# merge's exit status, written after FILE), table.txt (`gnbench show FILE`, printed by --wait),
# sweep.args (what --resume must match).
# The jobs run in the current directory: FILE, the configs and gnbench ($GNBENCH, else
# build/gnbench of this repository) must be on a file system every node sees.
# Exit: 0 submitted (or, with --wait, merged and passed), 1 the merge failed, 2 usage error,
# 3 a task failed (with --wait).
set -euo pipefail

die() { echo "slurm/sweep.sh: $*" >&2; exit 2; }
usage() {
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2
  exit 2
}

tasks="" out="" wait=0 resume=0 force=0
task_args=() configs=() run_args=()
while (($#)); do
  case "$1" in
    --tasks) tasks="${2:-}"; shift 2 || usage ;;
    --out) out="${2:-}"; shift 2 || usage ;;
    --wait) wait=1; shift ;;
    --resume) resume=1; shift ;;
    --force) force=1; shift ;;
    --partition|--gres|--time) [[ $# -ge 2 ]] || usage; task_args+=("$1=$2"); shift 2 ;;
    --sbatch) [[ $# -ge 2 ]] || usage; task_args+=("$2"); shift 2 ;;
    --) shift; run_args=("$@"); break ;;
    -h|--help) usage ;;
    -*) die "unknown option '$1' (gnbench run options go after --)" ;;
    *) configs+=("$1"); shift ;;
  esac
done
[[ "$tasks" =~ ^[1-9][0-9]*$ ]] || die "--tasks '$tasks': expected a positive integer"
[[ -n "$out" ]] || die "--out is required"
((${#configs[@]})) || die "no CONFIG given"
command -v sbatch >/dev/null || die "sbatch not found (is this a Slurm login node?)"

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
gnbench="$(realpath "${GNBENCH:-$repo/build/gnbench}")"
[[ -x "$gnbench" ]] || die "no gnbench binary at $gnbench (set GNBENCH)"
for i in "${!configs[@]}"; do
  [[ -f "${configs[$i]}" ]] || die "config '${configs[$i]}': no such file"
  configs[$i]="$(realpath "${configs[$i]}")"
done
out="$(realpath -m "$out")"
parts="$out.parts"

# What the tasks run; --resume must find the same, or the shards would not fit together.
signature="$(printf '%q ' "$tasks" "${configs[@]}" -- "${run_args[@]}")"
if ((resume)); then
  [[ -f "$parts/sweep.args" ]] || die "--resume: no earlier sweep in $parts"
  [[ "$(cat "$parts/sweep.args")" == "$signature" ]] ||
    die "--resume: --tasks, configs or run arguments differ from the sweep in $parts ($(cat "$parts/sweep.args"))"
elif [[ -e "$out" || -e "$parts" ]] && ((!force)); then
  die "$out or $parts exists; pass --resume to finish that sweep or --force to start again"
else
  rm -rf "$parts"
fi
mkdir -p "$parts"
printf '%s' "$signature" >"$parts/sweep.args"
rm -f "$parts/merge.rc"

# A task file counts as done when gnbench finished it: context.gnbench.complete is true.
complete() {
  [[ -f "$1" ]] && python3 -c 'import json, sys
sys.exit(0 if json.load(open(sys.argv[1]))["context"]["gnbench"]["complete"] else 1)' "$1" 2>/dev/null
}
todo=()
for ((i = 1; i <= tasks; ++i)); do
  if ((resume)) && complete "$parts/task_$i.json"; then continue; fi
  rm -f "$parts/task_$i.json" "$parts/task_$i.rc"
  todo+=("$i")
done

quoted_run_args=""
((${#run_args[@]})) && quoted_run_args="$(printf '%q ' "${run_args[@]}")"
# The task: exit 0 when its results are complete (passing or not: the merge reports failures),
# else gnbench's code, so that afterok holds the merge back. The TERM trap lets bash outlive
# Slurm's SIGTERM at the time limit and record gnbench's exit (130, results kept).
cat >"$parts/task.sh" <<TASK
#!/usr/bin/env bash
trap 'echo "task \$SLURM_ARRAY_TASK_ID: SIGTERM" >&2' TERM
i=\$SLURM_ARRAY_TASK_ID
rc=0
$(printf '%q ' "$gnbench" run "${configs[@]}") --shard "\$i/$tasks" --quiet --force \\
  --json "$parts/task_\$i.json" $quoted_run_args || rc=\$?
echo \$rc >"$parts/task_\$i.rc"
case \$rc in 0|1) exit 0 ;; *) exit \$rc ;; esac
TASK
files=()
for ((i = 1; i <= tasks; ++i)); do files+=("$parts/task_$i.json"); done
cat >"$parts/merge.sh" <<MERGE
#!/usr/bin/env bash
rc=0
$(printf '%q ' "$gnbench" merge "${files[@]}") -o $(printf '%q' "$out") --force || rc=\$?
if ((rc == 0)) && grep -qx 1 $(printf '%q ' "${files[@]/%.json/.rc}") 2>/dev/null; then
  echo "merge: some entries failed verification (see the task logs)" >&2
  rc=1
fi
# The combined table, where this gnbench has \`show\`.
if [[ -f $(printf '%q' "$out") ]] && $(printf '%q' "$gnbench") --help 2>/dev/null | grep -qE '^ +show( |\$)'; then
  $(printf '%q' "$gnbench") show $(printf '%q' "$out") >"$parts/table.txt" 2>&1 || true
fi
echo \$rc >"$parts/merge.rc"
exit \$rc
MERGE

dependency=()
if ((${#todo[@]})); then
  array="$(IFS=,; echo "${todo[*]}")"
  array_id="$(sbatch --parsable --job-name=gnbench-sweep --array="$array" \
    --output="$parts/task_%a.log" "${task_args[@]}" "$parts/task.sh")"
  array_id="${array_id%%;*}"
  dependency=(--dependency="afterok:$array_id")
  echo "slurm/sweep.sh: tasks $array of $tasks: job array $array_id" >&2
else
  echo "slurm/sweep.sh: every task is complete; merging only" >&2
fi
merge_id="$(sbatch --parsable --job-name=gnbench-merge --output="$parts/merge.log" \
  "${dependency[@]}" "$parts/merge.sh")"
merge_id="${merge_id%%;*}"
echo "slurm/sweep.sh: merge job $merge_id -> $out" >&2
((wait)) || exit 0

# sbatch --wait would hang on a merge whose afterok can no longer hold; poll instead.
while [[ ! -f "$parts/merge.rc" ]]; do
  state="$(squeue -h -j "$merge_id" -o '%T %r' 2>/dev/null || true)"
  if [[ "$state" == *DependencyNeverSatisfied* ]]; then
    scancel "$merge_id" || true
    failed=()
    for i in "${todo[@]}"; do complete "$parts/task_$i.json" || failed+=("$i"); done
    echo "slurm/sweep.sh: task(s) ${failed[*]:-?} did not finish (see $parts/task_*.log); merge cancelled; rerun with --resume" >&2
    exit 3
  fi
  if [[ -z "$state" && ! -f "$parts/merge.rc" ]]; then
    sleep 1  # the job may have just ended: its merge.rc is written before it leaves the queue
    [[ -f "$parts/merge.rc" ]] && break
    echo "slurm/sweep.sh: merge job $merge_id ended without a result (see $parts/merge.log)" >&2
    exit 1
  fi
  sleep 1
done
rc="$(cat "$parts/merge.rc")"
if [[ -f "$parts/table.txt" ]]; then cat "$parts/table.txt"; fi
echo "slurm/sweep.sh: merged $out (merge exit $rc)" >&2
exit "$rc"
