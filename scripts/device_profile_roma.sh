#!/usr/bin/env bash
# One-off: ncu of one roma-gpu phase at n = 32768 and bench_b_matching at R-MAT 24 (issue 5 profile, issue 6 lock-free OpenMP b-Suitor re-measured). Logs under $OUT.
cd "$(dirname "$0")/.."
set -uo pipefail
cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DMATCHBLAS_CUDA_LINEINFO=ON > /dev/null
cmake --build build-device -j16 --target bench_roma bench_b_matching > $OUT/build.log 2>&1 || tail -20 $OUT/build.log
b=build-device/bin
ncu --kernel-name regex:roma_fast_phase --launch-skip 5 --launch-count 1 --set full $b/bench_roma --n 32768 --runs fast --gpu-generate --quiet > $OUT/ncu_32768.txt 2>&1
grep -E "Duration|Throughput|Hit Rate|Warp Cycles|Stall|Achieved Occupancy|Registers|Eligible|Issued Warp|One or More|No Eligible|Active Warps|L2 Hit|Mem Busy|Max Bandwidth|DRAM" $OUT/ncu_32768.txt | head -40
timeout 280 $b/bench_b_matching --scale 24 --b 1,2,5 --threads 0 --reps 2 --greedy-reps 1 --no-seq 2>&1 | tee $OUT/b_rmat_lockfree.log | grep -vE "^ *$" | tail -12
