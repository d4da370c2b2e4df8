#!/usr/bin/env bash
# A change against a baseline on the GPU machine, in one batch: builds this
# tree and the baseline tree BASE (a source tree carried in an ignored folder,
# e.g. `git archive REV | tar -x -C .old`), runs this tree's gpu-labelled
# suite, then the benchmarks both trees must agree on, each pair interleaved
# (baseline first): bench_gpu_matchers on R-MAT and Erdos-Renyi at scale 23,
# bench_roma at n = 32768 and 90112 on uniform and exponential weights, 8
# phases, generated on the GPU, bench_b_matching's b-suitor-gpu on R-MAT
# scale 24 (b = 1, 5), bench_prepass's max-product-gpu on stencil2d:1000 and
# circuit:1000000. Logs go to $OUT (or ./device-logs).
#   scripts/device_compare.sh BASE [build] [tests] [roma] [matchers] [bmatch] [prepass]   (default: all)
set -uo pipefail
cd "$(dirname "$0")/.."
base=${1:?usage: device_compare.sh BASE [build] [tests] [roma] [matchers]}
shift
out=${OUT:-device-logs}
mkdir -p "$out"
want=" ${*:-build tests roma matchers bmatch prepass} "
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > "$out/gpu.txt" 2>&1
configure() { cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DMATCHBLAS_CUDA_LINEINFO=ON -DMATCHBLAS_TESTS="$3"; }
if [[ $want == *" build "* ]]; then
  { configure . build-device ON && cmake --build build-device -j 10; } > "$out/build.log" 2>&1 &
  { configure "$base" build-base OFF && cmake --build build-base -j 6 --target bench_gpu_matchers bench_roma bench_b_matching bench_prepass; } \
    > "$out/build_base.log" 2>&1 &
  wait %1 || { tail -30 "$out/build.log"; exit 1; }
  wait %2 || { tail -30 "$out/build_base.log"; exit 1; }
  echo "built both"
fi
if [[ $want == *" tests "* ]]; then
  ctest --test-dir build-device -L gpu --output-on-failure -j 2 > "$out/ctest_gpu.log" 2>&1
  echo "ctest -L gpu exit $?"; grep -E "tests passed|Failed|Skipped|\*\*\*" "$out/ctest_gpu.log" | head -20
fi
if [[ $want == *" roma "* ]]; then
  for tree in build-base build-device build-base build-device; do
    echo "== $tree bench_roma" >> "$out/bench_roma.log"
    $tree/bin/bench_roma --ns 32768,90112 --dists uniform,exponential --runs fast --gpu-generate \
      >> "$out/bench_roma.log" 2>&1
  done
  echo "bench_roma done"
fi
if [[ $want == *" matchers "* ]]; then
  for graph in rmat er; do
    for tree in build-base build-device; do
      echo "== $tree bench_gpu_matchers --graph $graph --scale 23" >> "$out/bench_gpu.log"
      $tree/bin/bench_gpu_matchers --graph $graph --scale 23 --reps 5 >> "$out/bench_gpu.log" 2>&1
    done
  done
  echo "bench_gpu_matchers done"
fi
if [[ $want == *" bmatch "* ]]; then
  for tree in build-base build-device build-base build-device; do
    echo "== $tree bench_b_matching --graph rmat --scale 24" >> "$out/bench_bmatch.log"
    $tree/bin/bench_b_matching --graph rmat --scale 24 --b 1,5 --threads 0 --reps 3 --greedy-reps 1 --no-seq \
      --only b-suitor-gpu >> "$out/bench_bmatch.log" 2>&1
  done
  echo "bench_b_matching done"
fi
if [[ $want == *" prepass "* ]]; then
  for tree in build-base build-device build-base build-device; do
    echo "== $tree bench_prepass max-product-gpu" >> "$out/bench_prepass.log"
    $tree/bin/bench_prepass stencil2d:1000 circuit:1000000 --algos max-product-gpu --reps 3 >> "$out/bench_prepass.log" 2>&1
  done
  echo "bench_prepass done"
fi
