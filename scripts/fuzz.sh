#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz, clang with
# -fsanitize=fuzzer,address,undefined) and runs each from its seed corpus.
#   scripts/fuzz.sh [RUNS] [SECONDS]   (defaults: 200000 runs, at most 60 s each)
# MATCHBLAS_FUZZ_TARGETS="fuzz_mm_text fuzz_graph" runs only those targets
# (a long campaign one target at a time); MATCHBLAS_FUZZ_BUILD the build folder.
# Any crash, leak, UB report or timeout fails the script (libFuzzer's exit
# status). Without clang or libFuzzer it says so and exits 0 (skipped).
# Grown corpora go to build-fuzz/corpus/, never into tests/fuzz/corpus/.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-200000}"
seconds="${2:-60}"
build="${MATCHBLAS_FUZZ_BUILD:-build-fuzz}"
if ! command -v clang++ >/dev/null 2>&1; then
  echo "fuzz: skipped (no clang++; scripts/install_deps.sh installs clang and libclang-rt-dev)"
  exit 0
fi
probe="$(mktemp -d)"
echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' >"$probe/p.cpp"
if ! clang++ -fsanitize=fuzzer,address,undefined "$probe/p.cpp" -o "$probe/p" 2>/dev/null; then
  rm -rf "$probe"
  echo "fuzz: skipped (clang++ cannot link -fsanitize=fuzzer: install libclang-rt-dev)"
  exit 0
fi
rm -rf "$probe"
cmake -S tests/fuzz -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "$(nproc)" >/dev/null
only="${MATCHBLAS_FUZZ_TARGETS:-}"
run() {  # target corpus-folder
  local t="$1" seeds="tests/fuzz/corpus/$2" work="$build/corpus/$1"
  if [[ -n "$only" && " $only " != *" $t "* ]]; then return 0; fi
  mkdir -p "$work"
  echo "fuzz: $t ($runs runs, at most ${seconds} s)"
  "$build/$t" -runs="$runs" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
    -max_len=4096 -print_final_stats=1 "$work" "$seeds" 2>"$build/$t.log" || { tail -40 "$build/$t.log"; exit 1; }
  grep -E "^stat::number_of_executed_units|^#[0-9]+[[:space:]]+DONE" "$build/$t.log" | tr '\n' ' '
  echo
}
run fuzz_mm_text mm
run fuzz_mm_stream mm_gz
run fuzz_mm_pieces mm
run fuzz_marriage marriage
run fuzz_b_values b_values
run fuzz_graph mm
