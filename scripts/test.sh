#!/usr/bin/env bash
# Installs, builds and runs the whole test suite through CTest. GPU tests
# (label `gpu`) report "skipped" on machines without a usable GPU. Then each
# libFuzzer target runs for a bounded time (scripts/fuzz.sh: 100000 runs or
# 60 s each, about 5 minutes in all on 2 cores); skipped with a message
# without clang/libFuzzer.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh "$@"
ctest --test-dir build --output-on-failure -j "$(nproc)"
./scripts/fuzz.sh 100000 60
