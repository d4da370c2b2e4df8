#!/usr/bin/env bash
# Installs the dependencies (scripts/install_deps.sh), fetches the MC64
# reference (scripts/fetch_mc64.sh) and makes the Python package's
# environment (scripts/install_python_deps.sh: build/python-venv), then
# configures and builds everything in ./build (Release): the tool, the
# library, the tests, the benchmarks, the examples, the Python module where
# that environment has nanobind, and the CUDA code for every GPU generation
# where nvcc is found. Extra arguments go to CMake's configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
  -h | --help)
    cat <<'TEXT'
usage: ./scripts/build.sh [CMAKE_ARGUMENT...]

Installs the dependencies and builds everything in ./build (Release): the
tool, the library, tests, benchmarks, examples and the Python module, and,
where nvcc is found, the GPU code for sm_80, 86, 89 and 90: about 15
minutes on 2 cores (about 11 without CUDA). A first result sooner:
./scripts/demo.sh builds the tool alone.

  CMAKE_ARGUMENT  passed to CMake's configure step, e.g.
                  -DMATCHBLAS_CUDA=OFF               CPU-only
                  -DCMAKE_CUDA_ARCHITECTURES=native  only this machine's GPU
                  -DMATCHBLAS_TESTS=OFF -DMATCHBLAS_BENCH=OFF   the tool and library only
  -h, --help      this text
TEXT
    exit 0 ;;
esac
./scripts/install_deps.sh
./scripts/fetch_mc64.sh  # the MC64 reference of the pre-pass tests (optional; skips without network)
./scripts/install_python_deps.sh  # the Python package's build and tests (optional; skips without PyPI)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build build -j "$(nproc)"
