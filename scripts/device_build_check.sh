#!/usr/bin/env bash
# The build as users get it, on the GPU machine: the default configuration
# (CUDA for sm_80, 86, 89 and 90, no line info) built whole with the
# project's warnings as errors and every warning line counted; the installed
# sizes (`cmake --install --strip`) without and with -DMATCHBLAS_CUDA_LINEINFO=ON;
# the installed-package test and the gpu-labelled suite on that build; then
# scripts/demo.sh's GPU path (CMAKE_CUDA_ARCHITECTURES=native). Logs go to
# $OUT (or ./device-logs).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-device-logs}
mkdir -p "$out"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > "$out/gpu.txt" 2>&1
echo "cores: $(nproc); $(nvcc --version | tail -2 | head -1); $(c++ --version | head -1)" | tee -a "$out/gpu.txt"
start=$SECONDS
{ cmake -S . -B build-user -DCMAKE_BUILD_TYPE=Release -DMATCHBLAS_WERROR=ON \
  && cmake --build build-user -j "$(nproc)"; } > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
echo "default build: $((SECONDS - start)) s on $(nproc) cores; warning lines: $(grep -ci 'warning' "$out/build.log")"
grep -i -A3 'warning' "$out/build.log" | head -30
sizes() {
  rm -rf "/tmp/prefix-$1"
  cmake --install build-user --prefix "/tmp/prefix-$1" --strip > /dev/null
  echo "installed ($1): $(du -sh "/tmp/prefix-$1" | cut -f1) in all; libmatchblas.so $(du -h "$(readlink -f /tmp/prefix-$1/lib/libmatchblas.so)" | cut -f1); bin/matchblas $(du -h "/tmp/prefix-$1/bin/matchblas" | cut -f1)"
}
sizes no-lineinfo | tee -a "$out/sizes.txt"
ctest --test-dir build-user -R 'install/' --output-on-failure > "$out/install_test.log" 2>&1
tail -3 "$out/install_test.log"
ctest --test-dir build-user -L gpu -j 4 --output-on-failure > "$out/ctest_gpu.log" 2>&1
tail -4 "$out/ctest_gpu.log"
{ cmake -S . -B build-user -DMATCHBLAS_CUDA_LINEINFO=ON && cmake --build build-user -j "$(nproc)" --target matchblas_shared matchblas_cli; } > "$out/build_lineinfo.log" 2>&1 ||
  { tail -20 "$out/build_lineinfo.log"; exit 1; }
sizes lineinfo | tee -a "$out/sizes.txt"
start=$SECONDS
MATCHBLAS_SKIP_APT=1 ./scripts/demo.sh -- --n 2048 > "$out/demo.log" 2>&1
echo "demo.sh (native): exit $?, $((SECONDS - start)) s to the end of the demo"
head -12 "$out/demo.log"
