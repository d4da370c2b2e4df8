#!/usr/bin/env bash
# Installs what matchblas builds against on a fresh Debian/Ubuntu machine.
# Required: a C++20 compiler, CMake, zlib, OpenMP, Eigen 3, doctest.
# Optional (found by CMake; what needs them is skipped with a message):
#   SuiteSparse:GraphBLAS (libgraphblas-dev), LEMON (liblemon-dev),
#   matplotlib for the pictures of `matchblas eval` (python3-matplotlib).
# The CUDA Toolkit (nvcc, CUB/Thrust, cuSPARSE) is optional too and is NOT
# installed by this script: CI and the development machines already have
# nvcc. Without it the build is CPU-only and the GPU tests report "skipped".
# To get it, use NVIDIA's apt repository (the `cuda-toolkit` package, see
# https://developer.nvidia.com/cuda-downloads) or Debian/Ubuntu's older
# `nvidia-cuda-toolkit` package (non-free / multiverse).
# Skips apt-get when everything is already present; set MATCHBLAS_SKIP_APT=1
# to never call it (machines without network).
set -euo pipefail
packages=(build-essential cmake zlib1g-dev libomp-dev libeigen3-dev doctest-dev
          libgraphblas-dev liblemon-dev python3-matplotlib)
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "install_deps: no nvcc found; the CUDA Toolkit is optional and not installed by this script" \
       "(NVIDIA's apt repository: cuda-toolkit; or apt-get install nvidia-cuda-toolkit). Building CPU-only."
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -eq 0 ]; then
  echo "install_deps: all packages present"
  exit 0
fi
if [ "${MATCHBLAS_SKIP_APT:-0}" = 1 ]; then
  echo "install_deps: MATCHBLAS_SKIP_APT=1, not installing: ${missing[*]}" >&2
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install_deps: installing ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
