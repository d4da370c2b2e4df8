#!/usr/bin/env bash
# The issue-4 benchmarks in one batch on the GPU machine (bench/RESULTS.md
# records their output): bench_gpu_matchers on R-MAT and Erdos-Renyi graphs
# of scale 23 (the SuMaC comparison; with the vertices-per-warp /
# threads-per-block sweep) and 24 (more than 2^27 edges), and on the real
# matrices carried in .carry/. Logs go to $OUT (or ./device-logs).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-device-logs}
mkdir -p "$out"
{ cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DMATCHBLAS_CUDA_LINEINFO=ON \
  && cmake --build build-device -j "$(nproc)" --target bench_gpu_matchers; } > "$out/build.log" 2>&1 \
  || { tail -40 "$out/build.log"; exit 1; }
b=build-device/bin/bench_gpu_matchers
run() {
  echo "== bench_gpu_matchers $*" | tee -a "$out/bench_gpu.log"
  $b "$@" 2>&1 | tee -a "$out/bench_gpu.log"
}
run --scale 23 --reps 5 --sweep
run --graph er --scale 23 --reps 5 --sweep
run --scale 24 --reps 3
run --graph er --scale 24 --reps 3
for f in .carry/*.mtx.gz; do [ -e "$f" ] && run --file "$f" --reps 5; done
