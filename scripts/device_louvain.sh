#!/usr/bin/env bash
# Community detection on the GPU machine, in one batch: build (sm_90, the
# optional dependencies off), the Louvain GPU suite and compute-sanitizer
# memcheck on it, bench_louvain on R-MAT and ER 2^20 and 2^22 (louvain-gpu,
# louvain-omp on every core), NetworKit PLM in the same run where its wheel
# was carried (.whl: pip install --target /tmp/site first), then Paper
# III's replication study at its --full sizes (--resume: a call cut short
# goes on in the next). Logs go to $OUT (or ./device-logs).
#   scripts/device_louvain.sh [--no-replicate]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-device-logs}
mkdir -p "$out"
{ cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DMATCHBLAS_WERROR=ON \
    -DMATCHBLAS_PYTHON=OFF -DMATCHBLAS_EXAMPLES=OFF -DMATCHBLAS_MPI=OFF -DMATCHBLAS_CUDA_LINEINFO=ON \
  && cmake --build build-device -j "$(nproc)" --target matchblas_gpu_tests bench_louvain matchblas_cli; } \
  > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
bin=build-device/bin
$bin/matchblas_gpu_tests -tc="*louvain*" > "$out/tests.log" 2>&1
echo "Louvain GPU suite: exit $?"; tail -2 "$out/tests.log"
timeout 300 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 $bin/matchblas_gpu_tests \
  -tc="*rows over 1024*,*R-MAT with hubs*" > "$out/memcheck.log" 2>&1
echo "memcheck: exit $?"; tail -1 "$out/memcheck.log"
for g in "rmat 20" "er 20" "rmat 22" "er 22"; do
  set -- $g
  timeout 200 $bin/bench_louvain --graph "$1" --scale "$2" --algos louvain-gpu,louvain-omp --reps 1 \
    >> "$out/bench_louvain.log" 2>&1
done
grep -E "^graph|^louvain" "$out/bench_louvain.log"
if python3 -c "import networkit" 2>/dev/null; then
  timeout 600 python3 bench/louvain_networkit.py --graphs rmat:18,er:18,rmat:20,er:20 --threads "$(nproc)" \
    --algos louvain-gpu,louvain-omp --reps 1 --cli $bin/matchblas --dir "$out" 2>&1 | tee "$out/plm.log" | tail -12
  rm -f "$out"/*.mtx
else
  echo "no networkit: PLM not run (carry its wheel in .whl)"
fi
if [[ ${1:-} != --no-replicate ]]; then
  timeout 1200 python3 bench/replicate.py --full --resume --source naim-3 --build build-device \
    --out "$out/replication" 2>&1 | tail -3
fi
