#!/usr/bin/env bash
# The GPU checks of issue 4, in one batch on the GPU machine: build (CUDA,
# sm_90, no GraphBLAS or LEMON there), the whole suite with the gpu label,
# then compute-sanitizer memcheck and racecheck on the GPU matchers through
# the CLI (every suitor-gpu variant, adaptive and Paper-I shapes, ld-gpu,
# handshake-gpu; b-suitor-gpu through bmatch, also synccheck) and memcheck
# on the GPU op tests. Logs go to $OUT (or
# ./device-logs); the last lines of each sanitizer log are printed.
#   scripts/device_gpu_check.sh [--gpu-only]   (--gpu-only: skip the CPU tests' ctest run)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-device-logs}
mkdir -p "$out"
{ cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DMATCHBLAS_CUDA_LINEINFO=ON \
  && cmake --build build-device -j "$(nproc)"; } > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
if [[ ${1:-} != --gpu-only ]]; then
  ctest --test-dir build-device --output-on-failure -j 8 > "$out/ctest.log" 2>&1
  tail -8 "$out/ctest.log"
fi
ctest --test-dir build-device -L gpu --output-on-failure > "$out/ctest_gpu.log" 2>&1
grep -E "tests passed|Failed|\*\*\*" "$out/ctest_gpu.log" | head -20

bin=build-device/bin
g="$out/rmat4096.mtx"
$bin/matchblas gen rmat 4096 --seed 7 --ties 3 --out "$g"
runs=(
  "--algo suitor-gpu"
  "--algo suitor-gpu --variant synclb --threads-per-block 256 --vertices-per-warp 64"
  "--algo suitor-gpu --variant syncnolb --vertices-per-warp 3"
  "--algo suitor-gpu --variant hybrid --threads-per-block 64 --vertices-per-warp 40"
  "--algo suitor-gpu --precision float"
  "--algo ld-gpu"
  "--algo handshake-gpu --threads 1000"
)
for tool in memcheck racecheck; do
  for r in "${runs[@]}"; do
    echo "== $tool $r" >> "$out/sanitizer.log"
    compute-sanitizer --tool $tool --error-exitcode 9 $bin/matchblas match "$g" $r >> "$out/sanitizer.log" 2>&1
    echo "exit $? ($tool $r)" | tee -a "$out/sanitizer.log"
  done
done
# The hub kernel needs rows longer than 1024: a star-heavy R-MAT of 2^14.
h="$out/rmat16384.mtx"
$bin/matchblas gen rmat 16384 --seed 3 --edge-factor 48 --out "$h"
e="$out/er65536.mtx"
$bin/matchblas gen er 65536 --seed 3 --edge-factor 10 --out "$e"
for tool in memcheck racecheck; do  # adaptive (both over 2^20 entries): both row searches, both precisions
  for graph in "$h" "$e"; do
    for s in "--search auto" "--search walk" "--search champions" "--search champions --precision float"; do
      compute-sanitizer --tool $tool --error-exitcode 9 $bin/matchblas match "$graph" --algo suitor-gpu $s \
        >> "$out/sanitizer.log" 2>&1
      echo "exit $? ($tool suitor-gpu $s on $graph)" | tee -a "$out/sanitizer.log"
    done
  done
done
# b-suitor-gpu (per-vertex locks, proposer state words; issue 6): both
# graphs above (the second has hubs, a block each), constant and per-vertex b.
n4096=$(grep -v '^%' "$g" | head -1 | cut -d' ' -f1)
seq 0 $((n4096 - 1)) | awk '{ print $1 % 4 }' > "$out/b4096.txt"
for tool in memcheck racecheck synccheck; do
  for args in "$g --b 3" "$g --b-file $out/b4096.txt" "$h --b 2"; do
    compute-sanitizer --tool $tool --error-exitcode 9 $bin/matchblas bmatch $args --algo b-suitor-gpu \
      >> "$out/sanitizer.log" 2>&1
    echo "exit $? ($tool bmatch b-suitor-gpu $args)" | tee -a "$out/sanitizer.log"
  done
done
# ROMA on the GPU (racing flips under locks): a complete graph of 256.
k="$out/complete256.mtx"
$bin/matchblas gen complete-exponential 256 --seed 5 --out "$k"
for tool in memcheck racecheck; do
  for v in 1 2; do
    compute-sanitizer --tool $tool --error-exitcode 9 $bin/matchblas match "$k" --algo roma-gpu-$v >> "$out/sanitizer.log" 2>&1
    echo "exit $? ($tool roma-gpu-$v on $k)" | tee -a "$out/sanitizer.log"
  done
done
for t in test_select_gpu test_assign_gpu test_transpose_gpu test_argmax_gpu; do
  compute-sanitizer --tool memcheck --error-exitcode 9 $bin/matchblas_gpu_tests --source-file="*$t.cpp" \
    > "$out/memcheck_$t.log" 2>&1
  echo "exit $? (memcheck $t)"; tail -3 "$out/memcheck_$t.log"
done
grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" "$out"/*.log | sort | uniq -c
