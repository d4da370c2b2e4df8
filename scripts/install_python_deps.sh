#!/usr/bin/env bash
# Makes the Python environment the Python package (python/) is built and
# tested with: a virtual environment, build/python-venv by default (first
# argument, or MATCHBLAS_PYTHON_VENV), made from MATCHBLAS_PYTHON or the
# python3 first on PATH (Debian's /usr/bin/python3 or a pyenv one), with
# access to that Python's own packages (Debian's python3-numpy and
# python3-scipy are used where present), and from PyPI what is missing of:
#   nanobind, scikit-build-core (the build), numpy, scipy (the package),
#   pytest, networkx (its tests), networkit, igraph, leidenalg (the
#   community detection peers its tests compare with).
# CMake finds the environment there (python/CMakeLists.txt) and builds the
# module when nanobind imports in it. Never fails the build: without
# network, without venv support or without Python headers it says why and
# exits 0, and the Python tests then report "skipped" with the reason.
# MATCHBLAS_SKIP_PIP=1 never calls pip (machines without network).
set -uo pipefail
cd "$(dirname "$0")/.."
venv="${1:-${MATCHBLAS_PYTHON_VENV:-build/python-venv}}"
python="${MATCHBLAS_PYTHON:-$(command -v python3 || true)}"
packages=("nanobind>=2.4" "scikit-build-core>=0.10" numpy scipy pytest networkx)
peers=(networkit igraph leidenalg)  # optional: without them that one test reports skipped
skip() {
  echo "install_python_deps: skipped: $*; the Python package is not built and its tests report skipped" >&2
  exit 0
}
[ -n "$python" ] || skip "no python3 on PATH (set MATCHBLAS_PYTHON)"
"$python" -c 'import sys; sys.exit(sys.version_info < (3, 8))' || skip "$python is older than Python 3.8"
if [ ! -x "$venv/bin/python" ]; then
  mkdir -p "$(dirname "$venv")"
  "$python" -m venv --system-site-packages "$venv" >/dev/null 2>&1 ||
    skip "'$python -m venv' failed (Debian: apt-get install python3-venv)"
fi
py="$venv/bin/python"
"$py" -c 'import sysconfig, os, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' ||
  skip "$python has no C headers (Debian: apt-get install python3-dev)"
missing() {  # the specs of "$@" whose module does not import
  for spec in "$@"; do
    name="${spec%%[<>=]*}"
    "$py" -c "import ${name//-/_}" >/dev/null 2>&1 || echo "$spec"
  done
}
mapfile -t wanted < <(missing "${packages[@]}")
mapfile -t wanted_peers < <(missing "${peers[@]}")
if [ "${#wanted[@]}" -eq 0 ] && [ "${#wanted_peers[@]}" -eq 0 ]; then
  echo "install_python_deps: $venv has every package"
  exit 0
fi
if [ "${MATCHBLAS_SKIP_PIP:-0}" = 1 ]; then
  [ "${#wanted[@]}" -gt 0 ] && skip "MATCHBLAS_SKIP_PIP=1, not installing ${wanted[*]}"
  echo "install_python_deps: MATCHBLAS_SKIP_PIP=1, not installing ${wanted_peers[*]}; python/tests/test_community_peers.py reports skipped" >&2
  exit 0
fi
if [ "${#wanted[@]}" -gt 0 ]; then
  echo "install_python_deps: installing ${wanted[*]} into $venv"
  "$py" -m pip install --quiet --disable-pip-version-check --retries 1 --timeout 20 "${wanted[@]}" ||
    skip "pip could not install ${wanted[*]} (no network to PyPI?)"
fi
if [ "${#wanted_peers[@]}" -gt 0 ]; then
  echo "install_python_deps: installing ${wanted_peers[*]} into $venv"
  "$py" -m pip install --quiet --disable-pip-version-check --retries 1 --timeout 20 "${wanted_peers[@]}" ||
    echo "install_python_deps: pip could not install ${wanted_peers[*]}; python/tests/test_community_peers.py reports skipped" >&2
fi
exit 0
