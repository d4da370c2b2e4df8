#!/usr/bin/env bash
# Issue 6's stable-marriage sweep on the GPU machine, in one batch: easy
# instances n = 5M..25M (sequential rows up to 5M, OpenMP on all cores and the
# GPU at every n) and hard ones n = 100k..500k (OpenMP at 100k, the GPU at
# every n; each result checked for stability), then b-suitor-gpu on ER scale
# 24 with b = 5. Logs go to $OUT (or ./device-logs).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-device-logs}
mkdir -p "$out"
{ cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DMATCHBLAS_CUDA_LINEINFO=ON \
  && cmake --build build-device -j "$(nproc)" --target bench_marriage bench_b_matching; } \
  > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
bin=build-device/bin
t=$(nproc)
timeout 200 $bin/bench_marriage --easy 5000000,10000000,15000000,20000000,25000000 --hard 0 --threads $t --reps 1 \
  --seq-up-to 5000000 2>&1 | tee "$out/easy.log"
timeout 150 $bin/bench_marriage --easy 0 --hard 100000,200000,500000 --threads $t --reps 1 --seq-up-to 0 \
  --omp-up-to 100000 2>&1 | tee "$out/hard.log"
timeout 150 $bin/bench_b_matching --graph er --scale 24 --b 5 --threads 0 --reps 1 --greedy-reps 1 --no-seq 2>&1 \
  | tee "$out/b_er5.log" | grep -vE "^ *$" | tail -5
