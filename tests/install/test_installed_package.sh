#!/usr/bin/env bash
# The installed package as a user sees it (CTest: install/installed_package):
# installs this build into a fresh prefix, MOVES the prefix (the package must
# be relocatable), checks that no installed header includes CUDA or
# GraphBLAS, builds examples/installed/ against it with find_package (shared
# library, then the static one), runs the three programs, and builds and runs
# the C example once more through pkg-config alone.
# usage: test_installed_package.sh BUILD_DIR SOURCE_DIR MATRIX_FILE
set -euo pipefail
build=$1 source=$2 matrix=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/matchblas-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/staged" >"$work/install.log"
mv "$work/staged" "$work/prefix"
prefix=$work/prefix
libdir=$(dirname "$(find "$prefix" -name 'libmatchblas.so' | head -1)")
[ -f "$libdir/libmatchblas.a" ] || { echo "no static library installed"; exit 1; }
[ -f "$libdir/pkgconfig/matchblas.pc" ] || { echo "no pkg-config file installed"; exit 1; }
if grep -lE '#include *[<"](cuda|cub/|thrust/|GraphBLAS|lemon/|lib/|matchers/|ops/)' "$prefix"/include/matchblas/*; then
  echo "an installed header includes CUDA, GraphBLAS, LEMON or an internal header (above)"
  exit 1
fi
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
for kind in shared static; do
  flag=OFF
  [ "$kind" = static ] && flag=ON
  cmake -S "$source/examples/installed" -B "$work/examples-$kind" -DCMAKE_PREFIX_PATH="$prefix" \
        -DMATCHBLAS_EXAMPLES_STATIC=$flag -DCMAKE_BUILD_TYPE=Release >"$work/configure-$kind.log" ||
    { cat "$work/configure-$kind.log"; exit 1; }
  cmake --build "$work/examples-$kind" -j 2 >"$work/build-$kind.log" || { cat "$work/build-$kind.log"; exit 1; }
  echo "== $kind"
  "$work/examples-$kind/match_file" "$matrix"
  "$work/examples-$kind/match_file" "$matrix" greedy
  "$work/examples-$kind/prepass_c"
  "$work/examples-$kind/graph_in_memory"
  if [ "$kind" = shared ] && ldd "$work/examples-$kind/match_file" | grep -q "$libdir/libmatchblas.so"; then
    echo "linked against the moved prefix's libmatchblas.so"
  elif [ "$kind" = shared ]; then
    echo "match_file is not linked against $libdir/libmatchblas.so"; ldd "$work/examples-$kind/match_file"; exit 1
  fi
done
# Another minor version is refused (0.x: the ABI may change between minors).
mkdir -p "$work/wrong"
printf 'cmake_minimum_required(VERSION 3.24)\nproject(w CXX)\nfind_package(matchblas 0.99 CONFIG REQUIRED)\n' >"$work/wrong/CMakeLists.txt"
if cmake -S "$work/wrong" -B "$work/wrong/build" -DCMAKE_PREFIX_PATH="$prefix" >"$work/wrong.log" 2>&1; then
  echo "find_package(matchblas 0.99) accepted version $(sed -n 's/^#define MATCHBLAS_VERSION_STRING //p' "$prefix/include/matchblas/version.h")"
  exit 1
fi
if command -v pkg-config >/dev/null; then
  export PKG_CONFIG_PATH="$libdir/pkgconfig"
  [ "$(pkg-config --modversion matchblas)" = "$(sed -n 's/^#define MATCHBLAS_VERSION_STRING "\(.*\)"/\1/p' "$prefix/include/matchblas/version.h")" ] ||
    { echo "pkg-config's version differs from version.h"; exit 1; }
  # shellcheck disable=SC2046
  cc -std=c99 -o "$work/prepass_pc" "$source/examples/installed/prepass.c" $(pkg-config --cflags --libs matchblas) -lm
  echo "== pkg-config"
  "$work/prepass_pc"
else
  echo "pkg-config not found: its check skipped"
fi
echo "installed package: ok"
