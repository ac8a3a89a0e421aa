#!/usr/bin/env bash
# The device tool sends the tracked tree, at most 64 MiB, and results/h200 alone is larger. Before
# a `run` call: `bash scripts/device-slim.sh on [KEEP...]` takes the stored H200 runs out of git's
# index (listed in .git/info/exclude, so they stay on disk and do not travel), except the KEEP
# paths a call reads; after it: `bash scripts/device-slim.sh off` puts the index back. Never
# commit between the two (the index then says the runs were deleted).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exclude=.git/info/exclude
saved=.git/info/exclude.before-slim
case "${1:-}" in
  on)
    shift
    [ -e "$saved" ] && { echo "device-slim: already on (run: $0 off)" >&2; exit 2; }
    cp "$exclude" "$saved"
    for d in results/h200/run[0-9]*/; do
      git rm -r -q --cached --ignore-unmatch "$d"
      echo "/${d%/}/" >> "$exclude"
    done
    for keep in "$@"; do git add -f "$keep"; done
    echo "device-slim: on; tracked tree $(git ls-files -z | du -ch --files0-from=- | tail -1 | cut -f1)"
    ;;
  off)
    [ -e "$saved" ] || { echo "device-slim: not on" >&2; exit 2; }
    git reset -q
    mv "$saved" "$exclude"
    echo "device-slim: off"
    ;;
  *)
    echo "usage: $0 on [KEEP...] | off" >&2
    exit 2
    ;;
esac
