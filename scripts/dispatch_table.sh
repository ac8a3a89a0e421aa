#!/usr/bin/env bash
# A device's dispatch table from every stored call on that device that timed all gn_* variants
# on a set of shapes (results/DEVICE/dispatch_sources.txt, oldest first: a shape in several
# files takes the last one's measurement). Variants this gnbench no longer builds are left out.
# results/DEVICE/dispatch_fill.txt, where present, names other devices' source lists: their
# shapes fill in where this device has none (`tune --fill-from`; docs/performance.md, "The
# other card's entries").
#   scripts/dispatch_table.sh h200 [OUT.table.json]   (default results/h200/h200.table.json)
#   scripts/dispatch_table.sh h100 [OUT.table.json]   (default results/h100/h100.table.json)
set -euo pipefail
cd "$(dirname "$0")/.."
device=${1:?usage: scripts/dispatch_table.sh DEVICE [OUT.table.json] (DEVICE: a folder of results/)}
sources=results/$device/dispatch_sources.txt
[[ -f $sources ]] || { echo "dispatch_table.sh: no $sources" >&2; exit 2; }
out=${2:-results/$device/$device.table.json}
listed() { grep -v -e '^#' -e '^$' "$1" || true; }  # a list's paths, comments left out
args=()
for f in $(listed "$sources"); do args+=(--from "$f"); done
fill=results/$device/dispatch_fill.txt
if [[ -f $fill ]]; then
  for list in $(listed "$fill"); do
    for f in $(listed "$list"); do args+=(--fill-from "$f"); done
  done
fi
"${GNBENCH:-build/gnbench}" tune "${args[@]}" --json "$out" --force -q | tail -n 3
