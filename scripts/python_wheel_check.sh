#!/usr/bin/env bash
# `pip install .` as a user would run it, checked: a fresh virtual
# environment (build/wheel-check-venv, from the Python of
# scripts/install_python_deps.sh's environment, with its packages visible),
# pip builds the wheel with scikit-build-core (CMake, MATCHBLAS_PYTHON=ON;
# the build tree build/pip-<tag> is kept, so a second run is incremental) and
# installs it, and the installed package, imported from outside the source
# tree, matches a graph, lists the registry and runs an op. The build is
# CPU only unless MATCHBLAS_CUDA=ON (or AUTO) is in the environment
# (pyproject.toml); extra arguments go to pip (e.g. -v for CMake's progress).
# Not part of scripts/test.sh by default (a second full build of the
# library: about 2.5 minutes on 2 cores, CPU only; seconds when build/pip-<tag>
# is current); MATCHBLAS_PIP_CHECK=1 ./scripts/test.sh runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
base="${MATCHBLAS_PYTHON_VENV:-build/python-venv}/bin/python"
if [ ! -x "$base" ] || ! "$base" -c "import scikit_build_core, nanobind" 2>/dev/null; then
  echo "python_wheel_check: skipped: run scripts/install_python_deps.sh first" >&2
  exit 0
fi
venv=build/wheel-check-venv
rm -rf "$venv"
"$base" -m venv "$venv"
# The new environment sees the packages of install_python_deps.sh's (numpy,
# scipy, scikit-build-core, nanobind) through a .pth file, but not its
# build-tree matchblas (PYTHONPATH is cleared below).
parent="$("$base" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
"$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' |
  { read -r site; echo "$parent" > "$site/matchblas_build_env.pth"; }
unset PYTHONPATH
# --no-build-isolation: the build uses the environment's scikit-build-core
# and nanobind (installed by install_python_deps.sh), so it needs no network.
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-build-isolation "$@" .
cd /tmp
"$OLDPWD/$venv/bin/python" - <<'PY'
import numpy as np, scipy.sparse as sp
import matchblas
from matchblas import ops
assert "site-packages" in matchblas.__file__, matchblas.__file__
A = sp.random(500, 500, density=0.02, format="csr", random_state=1)
A = (A + A.T).tocsr()
mate, report = matchblas.match(A, "suitor")
assert np.array_equal(mate, matchblas.match(A, "greedy")[0]) and report.cardinality > 0
assert any(a.name == "suitor" and a.available for a in matchblas.algorithms())
best, _ = ops.argmax(ops.Matrix(A))
assert best.shape == (500,)
# The GPU entries are listed either way; without the CUDA part they say so.
gpu = [a for a in matchblas.algorithms() if a.device == "gpu"]
cuda = any(a.available or "this build has none" not in a.unavailable for a in gpu)
print(f"python_wheel_check: matchblas {matchblas.__version__} installed and working "
      f"({matchblas.__file__}; {'with' if cuda else 'without'} the CUDA part)")
PY
