#!/usr/bin/env bash
# The b-suitor-gpu checks and measurements of issue 6 in one batch on the GPU
# machine: build, the b-suitor GPU tests and the bmatch CLI tests,
# compute-sanitizer memcheck and racecheck on one test case, then
# bench_b_matching on R-MAT and Erdos-Renyi scale 24 (> 2^27 edges) for
# b = 1, 2, 5 against OpenMP b-Suitor on all cores. Logs go to $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-device-logs}
mkdir -p "$out"
{ cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  && cmake --build build-device -j "$(nproc)" --target matchblas_gpu_tests matchblas_tests matchblas_cli bench_b_matching; } \
  > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
bin=build-device/bin
$bin/matchblas_gpu_tests --source-file="*test_b_suitor_gpu.cpp" > "$out/b_tests.log" 2>&1
echo "b-suitor-gpu tests exit $?"; grep -E "ERROR|FAILED|test cases|assertions" "$out/b_tests.log" | head -20
ctest --test-dir build-device -R "apps/test_cli|matchers/test_b_matching" --output-on-failure > "$out/cpu_tests.log" 2>&1
echo "cli/b-matching tests exit $?"; tail -3 "$out/cpu_tests.log"
for tool in memcheck racecheck; do
  compute-sanitizer --tool $tool --error-exitcode 9 $bin/matchblas_gpu_tests --source-file="*test_b_suitor_gpu.cpp" \
    --test-case="*DeviceGraph*" > "$out/$tool.log" 2>&1
  echo "exit $? ($tool)"; grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" "$out/$tool.log"
done
for graph in rmat er; do
  timeout 200 $bin/bench_b_matching --graph $graph --scale 24 --b 1,2,5 --threads 0 --reps 2 --greedy-reps 1 --no-seq \
    > "$out/bench_$graph.log" 2>&1
  echo "bench $graph exit $?"; grep -vE "^ *$" "$out/bench_$graph.log" | tail -14
done
