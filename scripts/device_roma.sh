#!/usr/bin/env bash
# The ROMA GPU checks and measurements of issue 5 in one batch on the GPU
# machine: build (CUDA, sm_90), the roma GPU tests, compute-sanitizer memcheck
# and racecheck of roma-gpu on small graphs (every cluster size), then
# bench_roma over the sizes of the thesis. Logs go to $OUT (or ./device-logs).
#   scripts/device_roma.sh [tests] [sanitize] [bench] [table] [cpu] [sweep] [auction] [scan] [scan-cpu]
#                          [kernels] [bf16] [shapes]
#   (default: all but scan-cpu, kernels, bf16 and shapes)
# auction: the GPU auction's tests, memcheck of roma-gpu from the assignment
# start, and bench_roma from the neighbour and the assignment starts.
# scan: sanitizers and bench_roma with --scan changed against all (GPU only);
# scan-cpu: the same at n = 16384 against the CPU roma, both scans, both starts.
# kernels: bench_roma with each phase kernel forced and the automatic choice,
# twice, interleaved; bf16: the bf16 storage against float; shapes: the
# cluster phase's automatic cluster size against explicit ones.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-device-logs}
mkdir -p "$out"
want=" ${*:-tests sanitize bench table cpu sweep auction scan} "
{ cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DMATCHBLAS_CUDA_LINEINFO=ON \
  && cmake --build build-device -j "$(nproc)" --target matchblas_gpu_tests bench_roma matchblas_cli; } \
  > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
bin=build-device/bin
if [[ $want == *" tests "* ]]; then
  $bin/matchblas_gpu_tests --source-file="*test_roma_gpu.cpp" > "$out/roma_tests.log" 2>&1
  echo "roma tests exit $?"; grep -E "MESSAGE|GPU/CPU|ERROR|FAILED|test cases|assertions" "$out/roma_tests.log" | head -40
fi
if [[ $want == *" sanitize "* ]]; then
  for tool in memcheck racecheck; do
    for c in 1 2 4; do
      compute-sanitizer --tool $tool --error-exitcode 9 $bin/bench_roma --n 302 --runs fast --kernel cluster --cluster $c \
        --phases 3 --dists exponential --quiet >> "$out/sanitizer.log" 2>&1
      echo "exit $? ($tool roma-gpu cluster $c)"
    done
    for n in 302 304; do  # the stream phase's scalar (302) and 16-byte (304) row loads; then auto
      for kernel in stream queued auto; do
        compute-sanitizer --tool $tool --error-exitcode 9 $bin/bench_roma --n $n --runs fast,fast-bf16 --kernel $kernel \
          --phases 4 --dists geometric --quiet >> "$out/sanitizer.log" 2>&1
        echo "exit $? ($tool roma-gpu --kernel $kernel n = $n, float and bf16)"
      done
    done
  done
  for n in 302 304; do  # the stream phase's block barriers, the control warp's and the scanners' in one
    for kernel in stream queued; do
      compute-sanitizer --tool synccheck --error-exitcode 9 $bin/bench_roma --n $n --runs fast --kernel $kernel \
        --phases 4 --dists geometric --quiet >> "$out/sanitizer.log" 2>&1
      echo "exit $? (synccheck roma-gpu --kernel $kernel n = $n)"
    done
  done
  grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" "$out/sanitizer.log" | sort | uniq -c
fi
if [[ $want == *" shapes "* ]]; then  # the automatic cluster size against explicit ones, the cluster phase alone
  for shape in "32768 0" "32768 3" "32768 4" "65536 0" "65536 6" "65536 8" "90112 0" "90112 8"; do
    set -- $shape
    $bin/bench_roma --n $1 --runs fast --gpu-generate --quiet --kernel cluster --cluster $2 2>&1 \
      | grep -E "summary" | sed "s/^/cluster=$2 /; s/start_s=.*scanned/scanned/"
  done | tee "$out/shapes.log"
fi
if [[ $want == *" bench "* ]]; then
  $bin/bench_roma --ns 16384,32768,65536,90112 --runs fast --gpu-generate | tee "$out/bench_fast.log" \
    | grep -vE "^roma-gpu:|^graph"
fi
# N. H. Hovland, "Maximum weighted matching on a GPU", Master's thesis, University of Bergen, 2020,
# tables 5.9 / 5.12: thesis-faithful and fast, three distributions
if [[ $want == *" table "* ]]; then
  $bin/bench_roma --ns 1024,4096,16384,32768,65536,90112 --dists uniform,exponential,geometric --runs 2,fast \
    --gpu-generate --quiet | grep summary | tee "$out/table.log"
  $bin/bench_roma --n 131072 --runs fast --gpu-generate --quiet | grep -E "summary|graph|bench_roma" | tee -a "$out/table.log"
fi
if [[ $want == *" cpu "* ]]; then  # end to end against the sequential CPU roma at n = 16384
  $bin/bench_roma --n 16384 --runs cpu,2,fast --gpu-generate --quiet | grep -E "summary" | tee "$out/cpu.log"
fi
if [[ $want == *" sweep "* ]]; then
  for shape in "16384 1 1" "16384 2 2" "32768 2 1" "32768 4 2" "65536 4 1" "65536 8 2" "90112 4 1" "90112 8 1" "90112 8 2"; do
    set -- $shape
    $bin/bench_roma --n $1 --runs fast --gpu-generate --quiet --cluster $2 --blocks-per-sm $3 2>&1 \
      | grep -E "summary|bench_roma" | sed "s/^/cluster=$2 bps=$3 /"
  done | tee "$out/sweep.log"
fi
if [[ $want == *" auction "* ]]; then
  $bin/matchblas_gpu_tests --source-file="*test_auction_gpu.cpp" > "$out/auction_tests.log" 2>&1
  echo "auction tests exit $?"; grep -E "MESSAGE|GPU/CPU|ERROR|FAILED|test cases|assertions" "$out/auction_tests.log" | head -40
  for n in 302 1001; do
    compute-sanitizer --tool memcheck --error-exitcode 9 $bin/bench_roma --n $n --runs fast --start assignment \
      --phases 3 --dists exponential --quiet >> "$out/auction_sanitizer.log" 2>&1
    echo "exit $? (memcheck roma-gpu, assignment start, n = $n)"
  done
  grep -h "ERROR SUMMARY" "$out/auction_sanitizer.log" | sort | uniq -c
  for start in neighbour assignment; do  # roma_start_auction's defaults; each twice (the auction's tails vary)
    for rep in 1 2; do
      $bin/bench_roma --ns 4096,8192,16384,32768,65536 --dists uniform,exponential,geometric --runs fast \
        --gpu-generate --start $start --quiet | grep summary | sed "s/^/rep=$rep /"
    done
  done | tee "$out/auction_bench.log"
fi
if [[ $want == *" scan "* ]]; then
  for tool in memcheck racecheck; do
    for c in 1 2 3 4; do
      compute-sanitizer --tool $tool --error-exitcode 9 $bin/bench_roma --n 302 --runs fast --cluster $c --phases 6 \
        --scan changed --dists exponential --quiet >> "$out/scan_sanitizer.log" 2>&1
      echo "exit $? ($tool roma-gpu --scan changed cluster $c)"
    done
  done
  grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" "$out/scan_sanitizer.log" | sort | uniq -c
  for scan in all changed; do
    $bin/bench_roma --ns 16384,32768,65536,90112 --dists uniform,exponential,geometric --runs fast --gpu-generate \
      --scan $scan > "$out/scan_$scan.log"
    grep summary "$out/scan_$scan.log" | sed "s/^/scan=$scan /"
  done
fi
if [[ $want == *" kernels "* ]]; then
  for rep in 1 2; do
    for kernel in cluster stream queued auto; do
      $bin/bench_roma --ns 16384,32768,65536,90112 --dists uniform,exponential,geometric --runs fast --gpu-generate \
        --kernel $kernel > "$out/kernels_$kernel.log" 2>&1
      grep summary "$out/kernels_$kernel.log" | sed "s/^/kernel=$kernel rep=$rep /; s/start_s=.*scanned/scanned/"
    done
  done
fi
if [[ $want == *" bf16 "* ]]; then
  $bin/bench_roma --ns 32768,65536,90112 --dists uniform,exponential,geometric --runs fast,fast-bf16 --gpu-generate \
    --quiet | grep summary | sed "s/start_s=.*scanned/scanned/" | tee "$out/bf16.log"
fi
if [[ $want == *" scan-cpu "* ]]; then  # end to end at n = 16384, same graph, same phase cap
  for start in neighbour assignment; do
    for scan in all changed; do
      $bin/bench_roma --n 16384 --dists uniform,exponential,geometric --runs cpu,fast --gpu-generate --start $start \
        --scan $scan > "$out/scan_cpu_${start}_$scan.log"
      grep summary "$out/scan_cpu_${start}_$scan.log" | sed "s/^/start=$start scan=$scan /"
    done
  done
fi
