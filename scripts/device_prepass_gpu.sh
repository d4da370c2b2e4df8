#!/usr/bin/env bash
# The GPU pre-pass's checks and benchmark in one batch on the GPU machine:
# build (CUDA sm_90; no GraphBLAS, LEMON or SuperLU there), the gpu-labelled
# tests of the bipartite family (test_bipartite_gpu, the GPU conformance
# test), compute-sanitizer memcheck, racecheck and synccheck on
# `perm --job 1 / 4 / 5 --device gpu` and awpm-gpu, then bench_prepass on
# generated solver matrices: cardinality (1 thread), cardinality-omp (every
# core) and cardinality-gpu in the same run; awpm-gpu beside max-sum; jobs
# 4-5 on the CPU and the GPU. Logs go to $OUT (or ./device-logs).
#   scripts/device_prepass_gpu.sh [BENCH_INPUT...]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-device-logs}
mkdir -p "$out"
{ cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DMATCHBLAS_CUDA_LINEINFO=ON -DMATCHBLAS_EXAMPLES=OFF \
  && cmake --build build-device -j "$(nproc)" --target matchblas_gpu_tests matchblas_cli bench_prepass; } \
  > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
bin=build-device/bin
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
$bin/matchblas_gpu_tests --source-file="*/test_bipartite_gpu.cpp" --success=false > "$out/test_bipartite_gpu.log" 2>&1
echo "test_bipartite_gpu: exit $?"; grep -E "awpm-gpu .*, awpm|job [45]: (auction|host)" "$out/test_bipartite_gpu.log" | head -120
tail -3 "$out/test_bipartite_gpu.log"
$bin/matchblas_gpu_tests --source-file='*/test_conformance_gpu.cpp' > "$out/test_conformance_gpu.log" 2>&1
echo "test_conformance_gpu: exit $?"; tail -3 "$out/test_conformance_gpu.log"

small=()
export MATCHBLAS_MATRICES=${MATCHBLAS_MATRICES:-../shared/datasets/matrices}
for f in "$MATCHBLAS_MATRICES"/west0067.mtx "$MATCHBLAS_MATRICES"/494_bus.mtx "$MATCHBLAS_MATRICES"/lp_afiro.mtx "$MATCHBLAS_MATRICES"/bcsstk13.mtx; do
  [ -f "$f" ] && small+=("$f")
done
printf '%%%%MatrixMarket matrix coordinate real general\n4 5 6\n1 1 1\n1 2 2\n2 1 3\n3 3 1\n4 3 2\n4 5 1\n' > "$out/wide.mtx"
small+=("$out/wide.mtx")
for tool in memcheck racecheck synccheck; do
  for f in "${small[@]}"; do
    compute-sanitizer --tool $tool --error-exitcode 9 $bin/matchblas perm "$f" --job 1 --device gpu --json \
      >> "$out/sanitizer.log" 2>&1
    echo "$tool cardinality-gpu $(basename "$f"): exit $?"
    compute-sanitizer --tool $tool --error-exitcode 9 $bin/matchblas perm "$f" --algo awpm-gpu --json \
      >> "$out/sanitizer.log" 2>&1
    echo "$tool awpm-gpu $(basename "$f"): exit $?"
    for job in 4 5; do
      compute-sanitizer --tool $tool --error-exitcode 9 $bin/matchblas perm "$f" --job $job --device gpu --json \
        >> "$out/sanitizer.log" 2>&1
      echo "$tool job $job --device gpu $(basename "$f"): exit $?"
    done
  done
done

inputs=("$@")
[ ${#inputs[@]} -eq 0 ] && inputs=(stencil2d:3000 stencil3d:150 circuit:4000000 heavy:4000000)
$bin/bench_prepass "${inputs[@]}" --algos cardinality,cardinality-omp,cardinality-gpu --threads "1,$(nproc)" --reps 3 \
  > "$out/bench_prepass.log" 2>&1
echo "bench_prepass: exit $?"; cat "$out/bench_prepass.log"
# Job 4 approximately: awpm-gpu against the exact max-sum (sequential) and
# awpm on every core, on smaller matrices (max-sum takes tens of seconds).
$bin/bench_prepass stencil2d:1000 stencil3d:60 circuit:1000000 heavy:1000000 --algos max-sum,awpm,awpm-gpu \
  --threads "$(nproc)" --reps 1 > "$out/bench_awpm.log" 2>&1
echo "bench_prepass (job 4): exit $?"; cat "$out/bench_awpm.log"
# Jobs 4-5 exact: max-sum / max-product (sequential) against their GPU twins
# (auction on the GPU, repair on the host) in the same run.
$bin/bench_prepass stencil2d:1000 stencil3d:60 circuit:1000000 heavy:1000000 \
  --algos max-sum,max-sum-gpu,max-product,max-product-gpu --reps 1 > "$out/bench_exact_gpu.log" 2>&1
echo "bench_prepass (jobs 4-5): exit $?"; cat "$out/bench_exact_gpu.log"
