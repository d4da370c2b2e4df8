"""Community detection (`matchblas cluster`) against networkx: the
modularity the tool reports equals networkx's community.modularity of the
tool's own labels on networkx's graph built by the same rules (values as
given, w(u,v) = max(a_uv, a_vu), duplicates summed, diagonal ignored,
pattern entries 1), 1e-12 relative, at resolutions 1 and 2, on the shared
collection's square matrices and on generated graphs; a matrix with a
negative value is refused (status 1, one line naming the entry). The
quality beside networkx's own Louvain (louvain_communities, seed 1) is
printed, and the mean over the graphs must not fall below it by more than
1%. Runs the tool as a process (MATCHBLAS_CLI)."""
import json
import os
import pathlib
import subprocess

import numpy as np
import pytest

nx = pytest.importorskip("networkx", reason="networkx is not installed (scripts/install_python_deps.sh)")
sio = pytest.importorskip("scipy.io", reason="scipy is not installed")
sp = pytest.importorskip("scipy.sparse", reason="scipy is not installed")

CLI = os.environ.get("MATCHBLAS_CLI")
SHARED = os.environ.get("MATCHBLAS_SHARED_MATRICES", "")
pytestmark = pytest.mark.skipif(not CLI, reason="MATCHBLAS_CLI is not set (ctest sets it)")


def graph_of(path):
    """networkx's graph of the file by the rules, or None when it has a
    negative value (the tool refuses it), or "skip" (complex, not square)."""
    a = sio.mmread(str(path))
    if np.iscomplexobj(a.data if sp.issparse(a) else a):
        return "skip"
    a = sp.csr_matrix(a, dtype=float)
    a.sum_duplicates()
    if a.shape[0] != a.shape[1]:
        return "skip"
    a.setdiag(0)
    a.eliminate_zeros()
    if a.nnz and a.data.min() < 0:
        return None
    w = a.maximum(a.T).tocoo()
    g = nx.Graph()
    g.add_nodes_from(range(a.shape[0]))
    for i, j, x in zip(w.row, w.col, w.data):
        if i < j:
            g.add_edge(int(i), int(j), weight=float(x))
    return g


def cluster(path, algo, resolution, tmp_path):
    labels = tmp_path / "labels.txt"
    labels.unlink(missing_ok=True)
    r = subprocess.run([CLI, "cluster", str(path), "--algo", algo, "--resolution", str(resolution), "--json",
                        "--quiet", "--out", str(labels)], capture_output=True, text=True, timeout=300)
    return r, labels


def generated(tmp_path):
    """Planted communities with integer and real weights, and a graph with
    isolated vertices."""
    rng = np.random.default_rng(7)
    out = []
    for k, (n, inside, outside, real) in enumerate([(300, 0.08, 0.005, False), (500, 0.05, 0.01, True),
                                                    (200, 0.2, 0.02, True)]):
        part = rng.integers(0, 8, n)
        rows, cols, vals = [], [], []
        for i in range(n):
            for j in range(i + 1, n):
                if rng.random() < (inside if part[i] == part[j] else outside):
                    rows.append(j + 1)
                    cols.append(i + 1)
                    vals.append(rng.uniform(0.1, 3) if real else float(rng.integers(1, 4)))
        path = tmp_path / f"planted{k}.mtx"
        with open(path, "w") as f:
            f.write("%%MatrixMarket matrix coordinate real symmetric\n")
            f.write(f"{n + 5} {n + 5} {len(vals)}\n")  # 5 isolated vertices at the end
            for r_, c_, v in zip(rows, cols, vals):
                f.write(f"{r_} {c_} {v!r}\n")
        out.append(path)
    return out


def test_modularity_equals_networkx(tmp_path):
    files = generated(tmp_path)
    have_shared = bool(SHARED) and pathlib.Path(SHARED).is_dir()
    if have_shared:
        files += sorted(p for p in pathlib.Path(SHARED).iterdir() if p.name.endswith((".mtx", ".mtx.gz")))
    else:
        print(f"the shared matrices are absent ({SHARED or 'unset'}): generated graphs only")
    checked = refused = 0
    ours, theirs = [], []
    for path in files:
        g = graph_of(path)
        if isinstance(g, str):
            continue
        if g is None:
            r, labels = cluster(path, "louvain", 1, tmp_path)
            assert r.returncode == 1, (path, r.stderr)
            assert "non-negative" in r.stderr and r.stderr.count("\n") == 1, r.stderr
            assert not labels.exists()
            refused += 1
            continue
        for algo in ("louvain", "louvain-omp"):
            for resolution in (1, 2):
                r, labels = cluster(path, algo, resolution, tmp_path)
                assert r.returncode == 0, (path, algo, r.stderr)
                report = json.loads(r.stdout)
                label = np.loadtxt(labels, dtype=np.int64, ndmin=1)
                assert len(label) == g.number_of_nodes()
                k = report["communities"]
                assert sorted(set(label.tolist())) == list(range(k))
                communities = [set(np.flatnonzero(label == c).tolist()) for c in range(k)]
                want = nx.community.modularity(g, communities, resolution=resolution) if g.number_of_edges() else 0.0
                assert report["modularity"] == pytest.approx(want, rel=1e-12, abs=1e-14), (path, algo, resolution)
                checked += 1
                if algo == "louvain" and resolution == 1 and g.number_of_edges():
                    peer = nx.community.louvain_communities(g, seed=1)
                    ours.append(report["modularity"])
                    theirs.append(nx.community.modularity(g, peer))
                    print(f"{path.name}: louvain {ours[-1]:.6f}, networkx louvain {theirs[-1]:.6f}")
    assert checked >= 12 and (refused > 0 or not have_shared)  # the collection holds a matrix with negative values
    print(f"mean modularity over {len(ours)} graphs: louvain {np.mean(ours):.6f}, networkx {np.mean(theirs):.6f}")
    assert np.mean(ours) >= 0.99 * np.mean(theirs)
