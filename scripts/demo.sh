#!/usr/bin/env bash
# The README's first command: builds the tool alone (build-demo/, Release:
# no tests, benchmarks, examples or Python module) and runs `matchblas demo`.
# CUDA is built only for the GPUs this machine has (CMake's `native`); with
# no NVIDIA GPU found the build is CPU-only, and it says so.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  cat <<'TEXT'
usage: ./scripts/demo.sh [CMAKE_ARGUMENT...] [-- DEMO_OPTION...]

Installs the dependencies (scripts/install_deps.sh), builds the matchblas
tool in build-demo/ and runs `matchblas demo`: generated graphs through every
algorithm available here, with weight, gap to the optimum (GTO) and time.

  CMAKE_ARGUMENT  passed to CMake's configure step, e.g.
                  -DMATCHBLAS_CUDA=ON                 the GPU algorithms without a GPU here
                  -DCMAKE_CUDA_ARCHITECTURES=86       for another GPU than this machine's
  DEMO_OPTION     passed to `matchblas demo` (--n N, --seed S, --threads T)
  -h, --help      this text

The build takes about 3 minutes on 2 cores without CUDA (and about one
more per GPU architecture with it); a second run rebuilds nothing. The
demo's tool has no MPI (its algorithms run under mpirun only).
The whole build (tests, benchmarks, every GPU generation) is
./scripts/build.sh; the test suite ./scripts/test.sh.
TEXT
}

cmake_args=()
demo_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --) shift; demo_args=("$@"); break ;;
    -D* | -G* | -T* | -A* | --toolchain* | --preset*) cmake_args+=("$1") ;;
    *) echo "demo.sh: unknown argument '$1' (CMake arguments start with -D; demo options go after --; --help)" >&2; exit 2 ;;
  esac
  shift
done

./scripts/install_deps.sh

# CUDA: for the GPUs present, or none. An explicit -DMATCHBLAS_CUDA=... or
# -DCMAKE_CUDA_ARCHITECTURES=... given by the caller decides instead.
cuda_args=()
cpu_seconds=330  # processor time of the CPU-only tool on the 2-core development machine
if [[ " ${cmake_args[*]} " != *" -DMATCHBLAS_CUDA="* && " ${cmake_args[*]} " != *" -DCMAKE_CUDA_ARCHITECTURES="* ]]; then
  if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
    cuda_args=(-DMATCHBLAS_CUDA=AUTO -DCMAKE_CUDA_ARCHITECTURES=native)
    cpu_seconds=$((cpu_seconds + 160))
    echo "demo.sh: GPU found ($(nvidia-smi -L | head -1 | cut -d'(' -f1)): the GPU algorithms are built for it (CMAKE_CUDA_ARCHITECTURES=native)"
  else
    cuda_args=(-DMATCHBLAS_CUDA=OFF)
    echo "demo.sh: no NVIDIA GPU found (nvidia-smi): building CPU-only; the GPU algorithms are listed as skipped." \
         "./scripts/demo.sh -DMATCHBLAS_CUDA=ON builds them anyway."
  fi
fi
cores=$(nproc)
minutes=$(((cpu_seconds / cores + 59) / 60))
if [ -f build-demo/bin/matchblas ]; then
  echo "demo.sh: updating the tool in build-demo/"
else
  unit=minutes
  [ "$minutes" = 1 ] && unit=minute
  echo "demo.sh: building the tool in build-demo/: about $minutes $unit on $cores cores"
fi
mkdir -p build-demo
generator=()
if [ ! -f build-demo/CMakeCache.txt ] && command -v ninja >/dev/null 2>&1 &&
   [[ " ${cmake_args[*]} " != *" -G"* ]]; then
  generator=(-G Ninja)  # one progress line on a terminal
fi
# The demo runs no MPI algorithm (they need mpirun), so MPI is left out;
# precompiled standard headers save about a fifth of the build.
cmake -S . -B build-demo "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DMATCHBLAS_TESTS=OFF -DMATCHBLAS_BENCH=OFF \
      -DMATCHBLAS_EXAMPLES=OFF -DMATCHBLAS_PYTHON=OFF -DMATCHBLAS_MPI=OFF -DMATCHBLAS_PRECOMPILED_HEADERS=ON \
      "${cuda_args[@]}" "${cmake_args[@]}" >build-demo/configure.log 2>&1 ||
  { cat build-demo/configure.log; echo "demo.sh: CMake's configure step failed (above; also in build-demo/configure.log)" >&2; exit 1; }
start=$SECONDS
if [ -t 1 ]; then
  # On a terminal the build's own progress shows.
  cmake --build build-demo --target matchblas_cli -j "$cores" ||
    { echo "demo.sh: the build failed (above)" >&2; exit 1; }
else
  cmake --build build-demo --target matchblas_cli -j "$cores" >build-demo/build.log 2>&1 ||
    { tail -40 build-demo/build.log; echo "demo.sh: the build failed (above; the whole log is build-demo/build.log)" >&2; exit 1; }
fi
echo "demo.sh: built in $((SECONDS - start)) s; the tool is build-demo/bin/matchblas"
echo
./build-demo/bin/matchblas demo "${demo_args[@]}"
