"""matchblas.louvain (the community.h calls from Python): on random graphs
with planted communities the labels are 0..k-1, the report's modularity
equals networkx's community.modularity of matchblas.community_sets(labels)
(1e-12 relative) at resolutions 1 and 2, the same labels from CSR, COO, a
dense array and a Matrix Market path, the hierarchy's first level covers
every vertex and each next level the previous level's communities; the
labels equal the tool's (`matchblas cluster --out`, when MATCHBLAS_CLI is
set); a negative weight raises InvalidInputError naming the entry, an
unknown or matching algorithm UnknownAlgorithmError, a bad option
OptionError, a rectangular matrix an Error."""
import os
import subprocess

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp

import matchblas

nx = pytest.importorskip("networkx", reason="networkx is not installed (scripts/install_python_deps.sh)")


def planted(n=120, block=12, seed=3):
    rng = np.random.default_rng(seed)
    rows, cols, vals = [], [], []
    for u in range(n):
        for v in range(u + 1, n):
            if rng.random() < (0.6 if u // block == v // block else 0.02):
                w = float(rng.integers(1, 4)) if seed % 2 else float(rng.uniform(0.1, 2.0))
                rows += [u, v]
                cols += [v, u]
                vals += [w, w]
    return sp.csr_matrix((vals, (rows, cols)), shape=(n, n))


def nx_graph(A):
    g = nx.Graph()
    g.add_nodes_from(range(A.shape[0]))
    c = sp.triu(A, k=1).tocoo()
    g.add_weighted_edges_from((int(i), int(j), float(x)) for i, j, x in zip(c.row, c.col, c.data))
    return g


@pytest.mark.parametrize("seed", [3, 4])
@pytest.mark.parametrize("resolution", [1.0, 2.0])
@pytest.mark.parametrize("algo", ["louvain", "louvain-omp"])
def test_modularity_equals_networkx(algo, resolution, seed):
    A = planted(seed=seed)
    labels, report = matchblas.louvain(A, algo, resolution=resolution)
    assert labels.dtype == np.int64 and labels.shape == (A.shape[0],)
    k = report.communities
    assert set(labels.tolist()) == set(range(k))
    sets = matchblas.community_sets(labels)
    assert len(sets) == k and sorted(v for s in sets for v in s) == list(range(A.shape[0]))
    want = nx.community.modularity(nx_graph(A), sets, resolution=resolution)
    assert report.modularity == pytest.approx(want, rel=1e-12, abs=1e-14)
    assert report.resolution == resolution and report.algo == algo
    assert report.edges == sp.triu(A, k=1).nnz and report.vertices == A.shape[0]
    # The hierarchy: level 0 over the input's vertices, each next level over
    # the previous level's communities.
    assert report.levels == len(report.hierarchy) >= 1
    assert len(report.hierarchy[0]) == A.shape[0]
    for lower, upper in zip(report.hierarchy, report.hierarchy[1:]):
        assert len(upper) == lower.max() + 1


@pytest.mark.parametrize("algo", ["louvain", "louvain-omp"])
def test_refine_off_keeps_the_levels(algo):
    A = planted(n=300, block=10, seed=4)
    labels, report = matchblas.louvain(A, algo)
    raw, raw_report = matchblas.louvain(A, algo, refine="off")
    assert len(raw_report.hierarchy) == len(report.hierarchy)
    for a, b in zip(raw_report.hierarchy, report.hierarchy):
        assert np.array_equal(a, b)
    sets = matchblas.community_sets(raw)
    assert raw_report.modularity == pytest.approx(nx.community.modularity(nx_graph(A), sets), rel=1e-12, abs=1e-14)
    assert raw_report.modularity <= report.modularity + 1e-12
    with pytest.raises(matchblas.OptionError, match="refine"):
        matchblas.louvain(A, algo, refine="maybe")


def test_inputs_agree(tmp_path):
    A = planted(seed=5)
    labels, _ = matchblas.louvain(A, "louvain")
    assert np.array_equal(matchblas.louvain(A.tocoo(), "louvain")[0], labels)
    assert np.array_equal(matchblas.louvain(A.toarray(), "louvain")[0], labels)
    path = tmp_path / "g.mtx"
    scipy.io.mmwrite(str(path), A)
    assert np.array_equal(matchblas.louvain(str(path), "louvain")[0], labels)
    cli = os.environ.get("MATCHBLAS_CLI")
    if cli:
        out = tmp_path / "labels.txt"
        subprocess.run([cli, "cluster", str(path), "--algo", "louvain", "--quiet", "--out", str(out)], check=True)
        assert np.array_equal(np.loadtxt(out, dtype=np.int64), labels)


def test_errors():
    A = planted(seed=6).tolil()
    A[0, 1] = -1.0
    A[1, 0] = -1.0
    with pytest.raises(matchblas.InvalidInputError, match="negative"):
        matchblas.louvain(A.tocsr(), "louvain")
    B = planted(seed=6)
    with pytest.raises(matchblas.UnknownAlgorithmError):
        matchblas.louvain(B, "no-such-algorithm")
    with pytest.raises(matchblas.UnknownAlgorithmError):
        matchblas.louvain(B, "suitor")
    with pytest.raises(matchblas.OptionError):
        matchblas.louvain(B, "louvain", resolution=0)
    with pytest.raises(matchblas.OptionError):
        matchblas.louvain(B, "louvain", coloring="off")
    with pytest.raises(matchblas.Error):
        matchblas.louvain(sp.random(5, 7, density=0.5, format="csr", random_state=1), "louvain")
    assert matchblas.community_sets(np.array([], dtype=np.int64)) == []
