#!/usr/bin/env bash
# The installed package as a user sees it (CTest: install/installed_package):
# installs this build into a fresh prefix, MOVES the prefix (the package must
# be relocatable), checks what was installed (the tool, the shared library,
# no Python module at the prefix's root, no installed header including CUDA
# or GraphBLAS), then, in a clean environment (no LD_LIBRARY_PATH, PATH only
# the system's and the prefix's bin), runs the installed tool, builds
# examples/installed/ against the prefix with find_package (the shared
# library; the static one too when the build made it, and otherwise checks
# that asking for it fails with its reason), runs the three programs, and
# builds and runs the C example once more exactly as README.md shows it:
# `cc app.c $(pkg-config --cflags --libs matchblas)`.
# usage: test_installed_package.sh BUILD_DIR SOURCE_DIR MATRIX_FILE
set -euo pipefail
build=$1 source=$2 matrix=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/matchblas-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "installed package: $*"; exit 1; }
cmake --install "$build" --prefix "$work/staged" --strip >"$work/install.log"
mv "$work/staged" "$work/prefix"
prefix=$work/prefix
lib=$(find "$prefix" -name 'libmatchblas.so' | head -1)
[ -n "$lib" ] || fail "no libmatchblas.so installed"
libdir=$(dirname "$lib")
[ -x "$prefix/bin/matchblas" ] || fail "no bin/matchblas installed"
[ -f "$prefix/share/matchblas/eval_plots.py" ] || fail "no share/matchblas/eval_plots.py installed"
[ -f "$libdir/pkgconfig/matchblas.pc" ] || fail "no pkg-config file installed"
[ ! -e "$prefix/matchblas" ] || fail "something was installed at the prefix's root: $(ls "$prefix/matchblas")"
if grep -lE '#include *[<"](cuda|cub/|thrust/|GraphBLAS|lemon/|lib/|matchers/|ops/)' "$prefix"/include/matchblas/*; then
  fail "an installed header includes CUDA, GraphBLAS, LEMON or an internal header (above)"
fi
for f in "$lib" "$prefix/bin/matchblas"; do
  dynamic=$(readelf -d "$f")
  grep -q 'RUNPATH.*\$ORIGIN' <<<"$dynamic" || fail "$f has no \$ORIGIN RUNPATH: $(grep -i path <<<"$dynamic")"
done
echo "sizes: $(du -sh "$prefix" | cut -f1) in all; $(du -h "$(readlink -f "$lib")" | cut -f1) libmatchblas.so"

# Everything below runs as a user's shell would: the user's PATH (where
# cmake and cc are) after the prefix's bin, and nothing else of this build's
# environment (no LD_LIBRARY_PATH, LIBRARY_PATH, CPATH, CMAKE_PREFIX_PATH or
# PKG_CONFIG_PATH).
user_path=$PATH
clean() { env -i HOME="$HOME" TMPDIR="${TMPDIR:-/tmp}" PATH="$prefix/bin:$user_path" "$@"; }
echo "== bin/matchblas"
clean matchblas --version | head -1
clean matchblas match "$matrix" --algo suitor

static=OFF
[ -f "$libdir/libmatchblas.a" ] && static=ON
for kind in shared static; do
  flag=OFF
  [ "$kind" = static ] && flag=ON
  if [ "$kind" = static ] && [ "$static" = OFF ]; then
    # Not installed by default: asking for it must fail, saying how to get it.
    if clean cmake -S "$source/examples/installed" -B "$work/examples-static" -DCMAKE_PREFIX_PATH="$prefix" \
         -DMATCHBLAS_EXAMPLES_STATIC=ON >"$work/configure-static.log" 2>&1; then
      fail "find_package(matchblas COMPONENTS static) succeeded without libmatchblas.a"
    fi
    grep -q "MATCHBLAS_STATIC_LIBRARY=ON" "$work/configure-static.log" ||
      { cat "$work/configure-static.log"; fail "the missing static library's message does not say how to build it"; }
    echo "== static: not installed (build option MATCHBLAS_STATIC_LIBRARY=OFF), refused with its reason"
    continue
  fi
  clean cmake -S "$source/examples/installed" -B "$work/examples-$kind" -DCMAKE_PREFIX_PATH="$prefix" \
        -DMATCHBLAS_EXAMPLES_STATIC=$flag -DCMAKE_BUILD_TYPE=Release >"$work/configure-$kind.log" 2>&1 ||
    { cat "$work/configure-$kind.log"; exit 1; }
  clean cmake --build "$work/examples-$kind" -j 2 >"$work/build-$kind.log" 2>&1 || { cat "$work/build-$kind.log"; exit 1; }
  echo "== $kind"
  clean "$work/examples-$kind/match_file" "$matrix"
  clean "$work/examples-$kind/match_file" "$matrix" greedy
  clean "$work/examples-$kind/prepass_c"
  clean "$work/examples-$kind/graph_in_memory"
  if [ "$kind" = shared ]; then
    linked=$(clean ldd "$work/examples-$kind/match_file")  # whole, not piped into grep -q (SIGPIPE under pipefail)
    grep -qF "$libdir/libmatchblas.so" <<<"$linked" ||
      { echo "$linked"; fail "match_file is not linked against $libdir/libmatchblas.so"; }
    echo "linked against the moved prefix's libmatchblas.so"
  fi
done
# Another minor version is refused (0.x: the ABI may change between minors).
mkdir -p "$work/wrong"
printf 'cmake_minimum_required(VERSION 3.24)\nproject(w CXX)\nfind_package(matchblas 0.99 CONFIG REQUIRED)\n' >"$work/wrong/CMakeLists.txt"
if clean cmake -S "$work/wrong" -B "$work/wrong/build" -DCMAKE_PREFIX_PATH="$prefix" >"$work/wrong.log" 2>&1; then
  fail "find_package(matchblas 0.99) accepted version $(sed -n 's/^#define MATCHBLAS_VERSION_STRING //p' "$prefix/include/matchblas/version.h")"
fi
if command -v pkg-config >/dev/null; then
  pc() { clean env PKG_CONFIG_PATH="$libdir/pkgconfig" "$@"; }
  [ "$(pc pkg-config --modversion matchblas)" = "$(sed -n 's/^#define MATCHBLAS_VERSION_STRING "\(.*\)"/\1/p' "$prefix/include/matchblas/version.h")" ] ||
    fail "pkg-config's version differs from version.h"
  cp "$source/examples/installed/prepass.c" "$work/app.c"
  # README.md's line, word for word (in $work): cc app.c $(pkg-config --cflags --libs matchblas)
  (cd "$work" && pc sh -c 'cc app.c $(pkg-config --cflags --libs matchblas)') || fail "README's pkg-config line does not build app.c"
  echo "== pkg-config"
  (cd "$work" && clean ./a.out) || fail "the program built with pkg-config does not start or fails"
else
  echo "pkg-config not found: its check skipped"
fi
echo "installed package: ok"
