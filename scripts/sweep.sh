#!/usr/bin/env bash
# Runs gnbench over the cross product of shape axes, one results file per point, then merges
# them into DIR/all.json. Resumable: a point whose results file exists is not run again
# (gnbench writes results atomically, so an existing file is a finished run).
#
#   scripts/sweep.sh --out DIR --batch 2,8 --channels 64,320 --spatial 1024,4096 --groups 32 \
#       [-- extra gnbench run arguments, e.g. --samples 20 --variant seed]
#
# Files: DIR/configs/NAME.json (the point's one-problem config), DIR/points/NAME.json (its
# results) and NAME.txt (its table), DIR/all.json (the merge), with NAME = n<N>_c<C>_hw<HW>_g<G>.
# Ends with one table of every point (`gnbench show DIR/all.json`) where gnbench has `show`;
# otherwise it prints the points' tables one after another.
# The gnbench binary is $GNBENCH, else build/gnbench next to this script's repository.
# Exit: 0 all points ran and passed, 1 some point failed verification or crashed (the others
# still ran and were merged), 2 usage error, 130 interrupted.
set -euo pipefail

usage() {
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2
  exit 2
}

out="" batch="" channels="" spatial="" groups=""
extra=()
while (($#)); do
  case "$1" in
    --out) out="${2:-}"; shift 2 || usage ;;
    --batch) batch="${2:-}"; shift 2 || usage ;;
    --channels) channels="${2:-}"; shift 2 || usage ;;
    --spatial) spatial="${2:-}"; shift 2 || usage ;;
    --groups) groups="${2:-}"; shift 2 || usage ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) usage ;;
    *) echo "sweep.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
for v in out batch channels spatial groups; do
  if [[ -z "${!v}" ]]; then echo "sweep.sh: --$v is required" >&2; usage; fi
done

# "2,8" -> array; every value a positive integer, so names and configs stay well formed.
split() {
  local -n into=$1
  local x
  IFS=, read -r -a into <<<"$2"
  for x in "${into[@]}"; do
    if [[ ! "$x" =~ ^[1-9][0-9]*$ ]]; then
      echo "sweep.sh: --$3 '$2': '$x' is not a positive integer" >&2
      exit 2
    fi
  done
}
split ns "$batch" batch
split cs "$channels" channels
split hws "$spatial" spatial
split gs "$groups" groups

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
gnbench="${GNBENCH:-$repo/build/gnbench}"
if [[ ! -x "$gnbench" ]]; then
  echo "sweep.sh: no gnbench binary at $gnbench (set GNBENCH)" >&2
  exit 2
fi

mkdir -p "$out/configs" "$out/points"
points=()
ran=0 skipped=0 failed=0
for n in "${ns[@]}"; do
  for c in "${cs[@]}"; do
    for hw in "${hws[@]}"; do
      for g in "${gs[@]}"; do
        name="n${n}_c${c}_hw${hw}_g${g}"
        if ((c % g)); then
          echo "sweep.sh: note: skipping $name: channels $c is not a multiple of groups $g" >&2
          continue
        fi
        result="$out/points/$name.json"
        if [[ -e "$result" ]]; then
          echo "sweep.sh: $name: already done ($result)" >&2
          points+=("$result")
          ((++skipped))
          continue
        fi
        config="$out/configs/$name.json"
        printf '{"problems": [{"name": "%s", "batch": %d, "channels": %d, "spatial": %d, "groups": %d}]}\n' \
          "$name" "$n" "$c" "$hw" "$g" >"$config"
        echo "sweep.sh: $name" >&2
        rc=0
        # The point's own table goes to a file: the sweep prints one combined table at the end.
        "$gnbench" run "$config" --json "$result" "${extra[@]}" >"$out/points/$name.txt" || rc=$?
        case $rc in
          0) ;;
          1) ((++failed)) ;;  # results written; keep going, report at the end
          2) echo "sweep.sh: gnbench refused the arguments for $name; stopping" >&2; exit 2 ;;
          130)
            # An interrupted run still writes its (incomplete) results: drop them so that the
            # next invocation runs this point again.
            rm -f "$result"
            echo "sweep.sh: interrupted at $name" >&2
            exit 130 ;;
          *) echo "sweep.sh: $name: gnbench exited with $rc" >&2; ((++failed)) ;;
        esac
        ((++ran))
        if [[ -e "$result" ]]; then points+=("$result"); fi
      done
    done
  done
done

echo "sweep.sh: $ran run, $skipped already done, $failed failed" >&2
if ((${#points[@]} == 0)); then
  echo "sweep.sh: no results to merge" >&2
  exit 1
fi
"$gnbench" merge "${points[@]}" -o "$out/all.json" --force >&2
# One table for the whole sweep: `gnbench show` of the merged file where this gnbench has it,
# else the points' tables one after another.
if "$gnbench" --help 2>/dev/null | grep -qE '^ +show( |$)'; then
  "$gnbench" show "$out/all.json"
else
  for p in "${points[@]}"; do
    table="$out/points/$(basename "$p" .json).txt"
    if [[ -f "$table" ]]; then cat "$table"; fi
  done
fi
((failed == 0)) || exit 1
