#!/usr/bin/env bash
# Installs everything gnbench needs to build and test on Debian 12, as root.
# Idempotent: packages already present are left alone. --fuzz adds clang-14 and libFuzzer,
# --slurm adds slurm-wlm and munge.
set -euo pipefail
packages=(
  build-essential cmake ninja-build git pkg-config python3 python3-numpy python3-matplotlib
  python3-jsonschema python3-scipy
  libvulkan-dev vulkan-tools vulkan-validationlayers mesa-vulkan-drivers spirv-tools
  libshaderc-dev glslang-dev
  libcli11-dev nlohmann-json3-dev zlib1g-dev libeigen3-dev libbenchmark-dev libbenchmark-tools libgtest-dev
)
# --fuzz: also clang and its runtime libraries with libFuzzer (scripts/fuzz.sh only).
# --slurm: also Slurm 22.05 and munge (tests/slurm/test_sweep.sh starts a one-node cluster).
for option in "$@"; do
  case "$option" in
    --fuzz) packages+=(clang-14 libclang-rt-14-dev) ;;
    --slurm) packages+=(slurm-wlm munge) ;;
    *) echo "install-deps.sh: unknown option '$option' (--fuzz, --slurm)" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
