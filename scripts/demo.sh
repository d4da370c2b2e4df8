#!/usr/bin/env bash
# Installs, builds and runs `matchblas demo`.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh
./build/bin/matchblas demo
