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
# curl's own message is not shown: the line below says what failed.
curl -fsL --max-time 30 "$url" -o .ref/mc64ad.c.part
rc=$?
case $rc in
  0) if echo "$sha  .ref/mc64ad.c.part" | sha256sum -c --quiet >/dev/null 2>&1; then
       mv .ref/mc64ad.c.part .ref/mc64ad.c
       echo "fetch_mc64: fetched $url"
       exit 0
     fi
     why="its SHA-256 differs from the pinned one" ;;
  5 | 6) why="the host cannot be resolved (no network?)" ;;
  7) why="the host cannot be reached (no network?)" ;;
  22) why="the server answered with an HTTP error" ;;
  28) why="it timed out after 30 s" ;;
  127) why="curl is not installed" ;;
  *) why="curl failed with status $rc" ;;
esac
rm -f .ref/mc64ad.c.part
echo "fetch_mc64: MC64's reference source not fetched: $why; the tests comparing with MC64 will say they skipped"
exit 0
