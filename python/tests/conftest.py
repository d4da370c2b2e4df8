"""Shared by the Python package's tests: seeded random graphs (with ties),
the graph rules written again in numpy (an independent check of the
library's), a matching checker, and where the CLI and the shared matrices
are (MATCHBLAS_CLI; MATCHBLAS_MATRICES or MATCHBLAS_SHARED_MATRICES, set by
CTest; tests that need them skip without them)."""

import os
import shutil

import numpy as np
import pytest
import scipy.sparse as sp

import matchblas


def random_graph(n, density, seed, ties=0, dtype=np.float64):
    """A symmetric n x n CSR matrix without diagonal: a general graph's both
    directions, weights in (0, 1], drawn from `ties` values when ties > 0."""
    rng = np.random.default_rng(seed)
    upper = sp.random(n, n, density=density, format="coo", random_state=rng)
    upper = sp.triu(upper, k=1).tocoo()
    w = rng.integers(1, ties + 1, size=upper.nnz) / ties if ties > 0 else rng.uniform(0.01, 1.0, size=upper.nnz)
    upper = sp.coo_matrix((w.astype(dtype), (upper.row, upper.col)), shape=(n, n))
    return (upper + upper.T).tocsr()


def rule_graph(A):
    """The general graph of a square matrix by the graph rules, written
    again here: |a|, duplicates summed first, w(u, v) = max(|a_uv|, |a_vu|),
    no diagonal, no zeros. A scipy CSR array of float64."""
    B = abs(sp.csr_array(A, dtype=np.float64))  # sums duplicates
    W = B.maximum(B.T).tolil()
    W.setdiag(0)
    W = sp.csr_array(W)
    W.eliminate_zeros()
    return W


def check_matching(W, mate):
    """mate is a valid matching of the graph W (every pair an edge, mate
    symmetric); returns its weight."""
    n = W.shape[0]
    assert mate.shape == (n,)
    matched = np.flatnonzero(mate >= 0)
    assert np.all(mate[mate >= 0] < n)
    assert np.array_equal(mate[mate[matched]], matched), "mate is not symmetric"
    weights = np.asarray(W[matched, mate[matched]]).ravel()
    assert np.all(weights > 0), "a matched pair is not an edge"
    return float(weights.sum()) / 2


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("MATCHBLAS_CLI") or shutil.which("matchblas")
    if not path or not os.access(path, os.X_OK):
        pytest.skip("the matchblas tool is not known (set MATCHBLAS_CLI)")
    return path


@pytest.fixture(scope="session")
def matrices():
    folder = os.environ.get("MATCHBLAS_MATRICES") or os.environ.get("MATCHBLAS_SHARED_MATRICES")
    if not folder or not os.path.exists(os.path.join(folder, "MANIFEST.tsv")):
        pytest.skip(f"the shared matrices are absent ({folder or 'MATCHBLAS_MATRICES unset'})")
    with open(os.path.join(folder, "MANIFEST.tsv")) as f:
        header = f.readline().rstrip("\n").split("\t")
        rows = [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f if line.strip()]
    return folder, rows


def pytest_sessionfinish(session, exitstatus):
    """Exit 77 (CTest's "skipped") when every test was skipped, so that a
    file whose tests cannot run here (no GPU, no matrices) says so."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    stats = reporter.stats if reporter else {}
    if exitstatus in (0, 5) and stats.get("skipped") and not stats.get("passed") and not stats.get("failed"):
        session.exitstatus = 77


def available(name):
    return any(a.name == name and a.available for a in matchblas.algorithms())


def cupy_or_skip(algo):
    """(cupy, cupyx.scipy.sparse), or the calling test module skipped: no
    CuPy, no usable GPU, or a build of matchblas without CUDA (`algo`, a
    GPU registry entry, unavailable)."""
    cp = pytest.importorskip("cupy", reason="CuPy is not installed")
    try:
        if cp.cuda.runtime.getDeviceCount() == 0:
            pytest.skip("no GPU", allow_module_level=True)
    except cp.cuda.runtime.CUDARuntimeError as e:
        pytest.skip(f"no usable GPU ({e})", allow_module_level=True)
    if not available(algo):
        pytest.skip("this build of matchblas has no CUDA part", allow_module_level=True)
    import cupyx.scipy.sparse as csp
    return cp, csp
