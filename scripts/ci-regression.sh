#!/usr/bin/env bash
# CI regression check on lavapipe: every variant on the CI configs, verified, then compared
# with the stored lavapipe baseline for correctness (a CPU device's times say nothing about a
# GPU, so nothing is timed). Exit: 0 ok, 1 a failure or correctness regression, 2 usage.
# Refresh the baseline after an intended change with:
#   build/gnbench run configs/default.json configs/edge.json --no-timing -q \
#       --update-baseline results/lavapipe/baseline.json --force
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
build/gnbench run configs/default.json configs/edge.json --no-timing -q \
  --baseline results/lavapipe/baseline.json --json "$out/current.json"
