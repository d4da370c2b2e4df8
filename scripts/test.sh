#!/usr/bin/env bash
# Installs, builds and runs the whole test suite through CTest (CI runs this;
# --quick: the CTest step alone). GPU tests (label `gpu`) report "skipped"
# on machines without a usable GPU. Then:
#  - the CPU suite again under AddressSanitizer + UndefinedBehaviorSanitizer
#    (build-asan, CUDA, benchmarks and the Python module off: an ASan
#    module cannot load into an uninstrumented Python). The six slowest suites
#    (conformance, suitor_bulk, handshake, ld_rounds, suitor, ld: over 8
#    minutes together even without ASan on 2 cores) are left out there; they
#    run above. So is install/installed_package (its example programs are
#    not instrumented, and an instrumented libmatchblas.so cannot load
#    into them), and the mpirun tests (label `mpi`: Open MPI's own
#    allocations read as leaks there). MATCHBLAS_SKIP_ASAN=1 skips this step;
#  - each libFuzzer target for a bounded run (scripts/fuzz.sh: 100000 runs or
#    30 s each); skipped with a message without clang/libFuzzer;
#  - with MATCHBLAS_PIP_CHECK=1, `pip install .` in a fresh environment and
#    the installed package used (scripts/python_wheel_check.sh: a second
#    build of the library, so not by default).
# The Python package's tests (python/tests) run in the CTest step, on the
# module the build above made. The static library is built too, so that the
# installed-package test covers both libraries, and the project's warnings
# are errors (MATCHBLAS_WERROR) in both builds. A test that runs past 25
# minutes fails as timed out (one hanging test must not eat CI's time box).
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
args=()
for a in "$@"; do
  case "$a" in
    -h | --help)
      cat <<'TEXT'
usage: ./scripts/test.sh [--quick] [CMAKE_ARGUMENT...]

Builds everything (scripts/build.sh) and runs the whole suite: CTest (unit,
command line, Python, installed-package and example tests; GPU tests skip
without a GPU), then the CPU suites under AddressSanitizer and
UndefinedBehaviorSanitizer, then the fuzzers. CI runs it: about 70 minutes
on 2 cores without a GPU. Without a GPU the CUDA code is compiled for sm_90
only, unless CMAKE_CUDA_ARCHITECTURES is given.

  --quick         the CTest step alone (no sanitizer build, no fuzzing): a
                  developer's loop, about 15 minutes for a first build on 2
                  cores and a few for later ones
  CMAKE_ARGUMENT  passed to CMake, e.g. -DMATCHBLAS_CUDA=OFF (CPU-only, faster)
                  or -DCMAKE_CUDA_ARCHITECTURES=native (this machine's GPU only)
  -h, --help      this text
TEXT
      exit 0 ;;
    --quick) quick=1 ;;
    *) args+=("$a") ;;
  esac
done
# Without a GPU to run them, the kernels are compiled for one generation
# (sm_90) unless the arguments choose: it proves they compile, at a quarter
# of the four generations' compile time (scripts/device_build_check.sh checks
# the four-generation default build on a GPU machine). The GPU test is demo.sh's.
arch=()
if ! { command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; } &&
   [[ " ${args[*]} " != *" -DCMAKE_CUDA_ARCHITECTURES="* ]]; then
  arch=(-DCMAKE_CUDA_ARCHITECTURES=90)
fi
./scripts/build.sh -DMATCHBLAS_STATIC_LIBRARY=ON -DMATCHBLAS_WERROR=ON "${arch[@]}" "${args[@]}"
ctest --test-dir build --output-on-failure --timeout 1500 -j "$(nproc)"
if [ "$quick" = 1 ]; then
  echo "test.sh --quick: the CTest suite passed (sanitizers and fuzzers not run: ./scripts/test.sh runs them)"
  exit 0
fi
if [ "${MATCHBLAS_SKIP_ASAN:-0}" != 1 ]; then
  san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMATCHBLAS_WERROR=ON -DMATCHBLAS_CUDA=OFF -DMATCHBLAS_BENCH=OFF -DMATCHBLAS_PYTHON=OFF -DMATCHBLAS_EXAMPLES=OFF \
        -DCMAKE_CXX_FLAGS="$san" -DCMAKE_EXE_LINKER_FLAGS="$san" >/dev/null
  cmake --build build-asan -j "$(nproc)"
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-asan --output-on-failure --timeout 1500 -j "$(nproc)" -LE 'gpu|mpi' \
      -E 'conformance|test_suitor_bulk|test_handshake|test_ld_rounds|test_suitor$|test_ld$|^install/'
fi
./scripts/fuzz.sh 100000 30
if [ "${MATCHBLAS_PIP_CHECK:-0}" = 1 ]; then
  ./scripts/python_wheel_check.sh
fi
