#!/usr/bin/env bash
# Installs what matchblas builds against on a fresh Debian/Ubuntu machine.
# Required: a C++20 compiler, CMake, zlib, OpenMP, Eigen 3, doctest (and
# pkg-config, with which the installed-package test builds a C program, and
# Ninja, which scripts/demo.sh uses when present).
# Optional (found by CMake; what needs them is skipped with a message):
#   SuiteSparse:GraphBLAS (libgraphblas-dev), LEMON (liblemon-dev), SuperLU
#   (libsuperlu-dev: its MC64 and solver are the pre-pass's reference), scipy
#   (python3-scipy: the Python checks of the pre-pass),
#   jsonschema (python3-jsonschema: the test validating every --json against docs/),
#   matplotlib for the pictures of `matchblas eval` (python3-matplotlib),
#   python3-dev and python3-venv (the Python package's build, with the PyPI
#   packages of scripts/install_python_deps.sh), Open MPI (libopenmpi-dev,
#   openmpi-bin: the distributed matchers and their mpirun tests), clang
#   with its libFuzzer/sanitizer runtime (clang, libclang-rt-N-dev for the
#   installed clang N) for scripts/fuzz.sh.
# The CUDA Toolkit (nvcc, CUB/Thrust, cuSPARSE) is optional too and is NOT
# installed by this script: CI and the development machines already have
# nvcc. Without it the build is CPU-only and the GPU tests report "skipped".
# To get it, use NVIDIA's apt repository (the `cuda-toolkit` package, see
# https://developer.nvidia.com/cuda-downloads) or Debian/Ubuntu's older
# `nvidia-cuda-toolkit` package (non-free / multiverse).
# Skips apt-get when everything is already present; set MATCHBLAS_SKIP_APT=1
# to never call it (machines without network).
set -euo pipefail
packages=(build-essential cmake ninja-build pkg-config zlib1g-dev libomp-dev libeigen3-dev doctest-dev
          libgraphblas-dev liblemon-dev libsuperlu-dev python3-matplotlib python3-scipy python3-jsonschema python3-dev python3-venv clang
          libopenmpi-dev openmpi-bin)
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "install_deps: no nvcc found; the CUDA Toolkit is optional and not installed by this script" \
       "(NVIDIA's apt repository: cuda-toolkit; or apt-get install nvidia-cuda-toolkit). Building CPU-only."
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# libFuzzer comes with clang's runtime package, named after clang's version.
clang_major="$(clang --version 2>/dev/null | sed -n 's/.*clang version \([0-9][0-9]*\).*/\1/p' | head -1 || true)"
[ -z "$clang_major" ] && clang_major="$(apt-cache depends clang 2>/dev/null | sed -n 's/.*Depends: clang-\([0-9][0-9]*\)$/\1/p' | head -1 || true)"
optional=()
if [ -n "$clang_major" ]; then
  dpkg-query -W -f='${Status}' "libclang-rt-$clang_major-dev" 2>/dev/null | grep -q "install ok installed" ||
    optional+=("libclang-rt-$clang_major-dev")
fi
if [ "${#missing[@]}" -eq 0 ] && [ "${#optional[@]}" -eq 0 ]; then
  echo "install_deps: all packages present"
  exit 0
fi
if [ "${MATCHBLAS_SKIP_APT:-0}" = 1 ]; then
  echo "install_deps: MATCHBLAS_SKIP_APT=1, not installing: ${missing[*]} ${optional[*]}" >&2
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install_deps: installing ${missing[*]} ${optional[*]}"
$sudo apt-get update -q
if [ "${#missing[@]}" -gt 0 ]; then
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
# The fuzzing runtime is optional: without it scripts/fuzz.sh skips.
if [ "${#optional[@]}" -eq 0 ] && command -v clang >/dev/null; then
  clang_major="$(clang --version | sed -n 's/.*clang version \([0-9][0-9]*\).*/\1/p' | head -1)"
  optional=("libclang-rt-$clang_major-dev")
fi
for p in "${optional[@]}"; do
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "$p" ||
    echo "install_deps: $p not installed; scripts/fuzz.sh will skip"
done
