#!/usr/bin/env bash
# Installs, builds and runs the whole test suite through CTest. GPU tests
# (label `gpu`) report "skipped" on machines without a usable GPU. Then:
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
#    60 s each); skipped with a message without clang/libFuzzer;
#  - with MATCHBLAS_PIP_CHECK=1, `pip install .` in a fresh environment and
#    the installed package used (scripts/python_wheel_check.sh: a second
#    build of the library, several minutes on 2 cores, so not by default).
# The Python package's tests (python/tests) run in the CTest step, on the
# module the build above made.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh "$@"
ctest --test-dir build --output-on-failure -j "$(nproc)"
if [ "${MATCHBLAS_SKIP_ASAN:-0}" != 1 ]; then
  san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMATCHBLAS_CUDA=OFF -DMATCHBLAS_BENCH=OFF -DMATCHBLAS_PYTHON=OFF \
        -DCMAKE_CXX_FLAGS="$san" -DCMAKE_EXE_LINKER_FLAGS="$san" >/dev/null
  cmake --build build-asan -j "$(nproc)"
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-asan --output-on-failure -j "$(nproc)" -LE 'gpu|mpi' \
      -E 'conformance|test_suitor_bulk|test_handshake|test_ld_rounds|test_suitor$|test_ld$|^install/'
fi
./scripts/fuzz.sh 100000 60
if [ "${MATCHBLAS_PIP_CHECK:-0}" = 1 ]; then
  ./scripts/python_wheel_check.sh
fi
