#!/usr/bin/env bash
# The GPU b-matchers' checks and measurements (b-suitor-gpu, b-ld-gpu) in
# one batch on the GPU machine: build, their GPU tests, compute-sanitizer
# memcheck and racecheck through the CLI on an R-MAT graph of 1.3M entries
# (hubs of over 1024 entries included) with b = 2, 5 and a
# per-vertex b of 0..4, then bench_b_matching on R-MAT and Erdos-Renyi
# scale 24 (> 2^27 edges) for b = 1, 2, 5 against OpenMP b-Suitor on all
# cores. Logs go to $OUT (default device-logs). BS=2,5 or ONLY=b-ld-gpu
# narrow the benchmark; ALGOS=b-ld-gpu the sanitizer runs.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-device-logs}
mkdir -p "$out"
{ cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DMATCHBLAS_CUDA_LINEINFO=ON -DMATCHBLAS_EXAMPLES=OFF \
    -DMATCHBLAS_PYTHON=OFF -DMATCHBLAS_MPI=OFF \
  && cmake --build build-device -j "$(nproc)" --target matchblas_gpu_tests matchblas_cli bench_b_matching; } \
  > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
bin=build-device/bin
$bin/matchblas_gpu_tests --source-file="*test_b_matching_gpu.cpp" > "$out/b_tests.log" 2>&1
echo "GPU b-matching tests exit $?"; grep -E "ERROR|FAILED|test cases|assertions" "$out/b_tests.log" | head -20
tmp=$(mktemp -d)
$bin/matchblas gen rmat 65536 --edge-factor 10 --seed 5 --out "$tmp/r16.mtx"
awk 'BEGIN{srand(3); for(i=0;i<65536;i++) print int(rand()*5)}' > "$tmp/b16.txt"
for algo in ${ALGOS:-b-suitor-gpu b-ld-gpu}; do
  for tool in memcheck racecheck; do
    for b in "--b 2" "--b 5" "--b-file $tmp/b16.txt"; do
      # shellcheck disable=SC2086 # $b is two words
      compute-sanitizer --tool $tool --error-exitcode 9 $bin/matchblas bmatch "$tmp/r16.mtx" --algo "$algo" $b \
        --out "$tmp/edges.txt" --quiet > "$out/$tool.log" 2>&1
      echo "exit $? ($algo $tool $b)"; grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" "$out/$tool.log"
    done
  done
done
for graph in rmat er; do
  $bin/bench_b_matching --graph $graph --scale 24 --b "${BS:-1,2,5}" --threads 0 --reps 3 --greedy-reps 1 --no-seq \
    --only "${ONLY:-b-suitor-omp,b-suitor-gpu,b-ld-gpu}" > "$out/bench_$graph.log" 2>&1
  echo "bench $graph exit $?"; grep -vE "^ *$" "$out/bench_$graph.log" | tail -14
done
rm -rf "$tmp"
