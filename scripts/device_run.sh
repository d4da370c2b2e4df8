#!/usr/bin/env bash
# One batch on the GPU machine (no network, no GraphBLAS, no LEMON): build
# with CUDA for sm_90, run the whole suite (the GPU label included), then the
# benchmarks given as arguments (e.g. "bench_greedy --scale 22"). Logs go to
# $OUT (or ./device-logs).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-device-logs}
mkdir -p "$out"
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > "$out/gpu.txt" 2>&1
nproc >> "$out/gpu.txt"
{ cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DMATCHBLAS_CUDA_LINEINFO=ON \
  && cmake --build build-device -j "$(nproc)"; } > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
grep -E "matchblas:" "$out/build.log"
ctest --test-dir build-device --output-on-failure -j 8 > "$out/ctest.log" 2>&1
tail -15 "$out/ctest.log"
ctest --test-dir build-device -L gpu -V > "$out/ctest_gpu.log" 2>&1
grep -E "GPU 0|Passed|Failed|Skipped|test cases" "$out/ctest_gpu.log" | head
for b in "$@"; do
  echo "== $b" | tee -a "$out/bench.log"
  ./build-device/bin/$b 2>&1 | tee -a "$out/bench.log"
done
