#!/usr/bin/env bash
# The H200 dispatch table from every stored H200 call that timed all gn_* variants on a set of
# shapes (results/h200/dispatch_sources.txt, oldest first: a shape in several files takes the
# last one's measurement). Variants this gnbench no longer builds are left out.
#   scripts/h200_dispatch_table.sh [OUT.table.json]   (default results/h200/h200.table.json)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-results/h200/h200.table.json}
args=()
while read -r f; do
  [[ -z $f || $f == \#* ]] && continue
  args+=(--from "$f")
done < results/h200/dispatch_sources.txt
"${GNBENCH:-build/gnbench}" tune "${args[@]}" --json "$out" --force -q | tail -n 3
