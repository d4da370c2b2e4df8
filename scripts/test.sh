#!/usr/bin/env bash
# Installs, builds and runs the whole test suite through CTest. GPU tests
# (label `gpu`) report "skipped" on machines without a usable GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh "$@"
ctest --test-dir build --output-on-failure -j "$(nproc)"
