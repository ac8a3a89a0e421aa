#!/usr/bin/env bash
# Fresh Debian 12 (as root) -> dependencies, Release build, gnbench on configs/default.json
# on the default Vulkan device (a GPU when there is one, else lavapipe). Extra arguments go to
# `gnbench run`, e.g. --json results.json.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
# Only the program: the tests are scripts/test.sh's job.
cmake --build build --target gnbench
exec build/gnbench run configs/default.json "$@"
