#!/usr/bin/env bash
set -uo pipefail
out=${OUT:-device-logs}; mkdir -p "$out"
{ cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  && cmake --build build-device -j "$(nproc)"; } > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
bin=build-device/bin
ctest --test-dir build-device -L gpu > "$out/ctest.log" 2>&1; echo "ctest gpu exit $?"; grep -E "tests passed|Failed|\*\*\*" "$out/ctest.log" | head
OUT=$out scripts/device_roma.sh sanitize 2>&1 | grep -v "^exit 0" | tail -8
OUT=$out scripts/device_roma.sh kernels 2>&1 | sed -E "s/ weight=[0-9.]+//; s/ floor_ms=.*scanned/ scanned/" > "$out/kernels.txt"; wc -l "$out/kernels.txt"
for scan in all changed; do
  $bin/bench_roma --n 16384 --dists uniform,exponential,geometric --runs cpu,fast --gpu-generate --scan $scan > "$out/e2e_$scan.log" 2>&1
  grep summary "$out/e2e_$scan.log" | sed -E "s/^/scan=$scan /; s/ floor_ms=.*start\+phases_s/ start+phases_s/"
done
