#!/usr/bin/env bash
# Installs the dependencies (scripts/install_deps.sh), fetches the MC64
# reference (scripts/fetch_mc64.sh) and makes the Python package's
# environment (scripts/install_python_deps.sh: build/python-venv), then
# configures and builds matchblas in ./build (Release), the Python module
# with it where that environment has nanobind. Extra arguments go to CMake's
# configure step, e.g. -DMATCHBLAS_CUDA=OFF.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install_deps.sh
./scripts/fetch_mc64.sh  # the MC64 reference of the pre-pass tests (optional; skips without network)
./scripts/install_python_deps.sh  # the Python package's build and tests (optional; skips without PyPI)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build build -j "$(nproc)"
