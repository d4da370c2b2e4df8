#!/usr/bin/env bash
# Installs the dependencies (scripts/install_deps.sh) and fetches the MC64
# reference (scripts/fetch_mc64.sh), then configures and
# builds matchblas in ./build (Release). Extra arguments go to CMake's
# configure step, e.g. -DMATCHBLAS_CUDA=OFF.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install_deps.sh
./scripts/fetch_mc64.sh  # the MC64 reference of the pre-pass tests (optional; skips without network)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build build -j "$(nproc)"
