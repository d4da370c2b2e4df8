#!/usr/bin/env bash
# Fetches upstream SuperLU's copy of MC64 (SRC/mc64ad.c, pinned commit,
# checked by SHA-256) into the ignored folder .ref/, where CMake finds it as
# the reference of tests/matchers/test_prepass_mc64.cpp and bench/bench_prepass.
# Debian's libsuperlu-dev stubs mc64ad_ out (the HSL licence of MC64 forbids
# redistribution), so this file is fetched, never committed, never linked
# into matchblas. Non-fatal: without network the comparison skips.
set -uo pipefail
cd "$(dirname "$0")/.."
commit=c64936af40a3ed6fd789e72f20b4e8896097904e
sha=83d75c87ceca8829f9beca9cb511f270b273ba9724d870a1dc0e44216a221d99
url="https://raw.githubusercontent.com/xiaoyeli/superlu/$commit/SRC/mc64ad.c"
if [ -f .ref/mc64ad.c ] && echo "$sha  .ref/mc64ad.c" | sha256sum -c --quiet 2>/dev/null; then
  echo "fetch_mc64: .ref/mc64ad.c present"
  exit 0
fi
mkdir -p .ref
if curl -fsSL --max-time 30 "$url" -o .ref/mc64ad.c.part &&
   echo "$sha  .ref/mc64ad.c.part" | sha256sum -c --quiet; then
  mv .ref/mc64ad.c.part .ref/mc64ad.c
  echo "fetch_mc64: fetched $url"
else
  rm -f .ref/mc64ad.c.part
  echo "fetch_mc64: could not fetch $url (or its checksum differs); the MC64 comparison will skip"
fi
exit 0
