#!/usr/bin/env bash
# Installs the dependencies (scripts/install_deps.sh), then configures and
# builds matchblas in ./build (Release). Extra arguments go to CMake's
# configure step, e.g. -DMATCHBLAS_CUDA=OFF.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install_deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build build -j "$(nproc)"
