#!/usr/bin/env bash
# Fresh Debian 12 (as root) -> dependencies, Release build, the whole test suite on lavapipe.
# This is README's test command and what CI (.ci/run) runs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build
ctest --test-dir build --output-on-failure -j2
