"""Community detection quality against the peers on PyPI, in one run:
NetworKit's PLM (parallel Louvain, refine off), igraph's
community_multilevel (Louvain) and leidenalg's ModularityVertexPartition
(Leiden: the quality ceiling here), on LFR benchmark graphs with planted
communities (networkx's LFR_benchmark_graph, mixing mu from 0.1 to 0.6)
and on the shared collection's square matrices (the graph of |a|:
w(u, v) = max(|a_uv|, |a_vu|), diagonal ignored; the same graph for every
tool), all of them single-threaded. Every tool's modularity is computed
here by one function from its labels (checked against networkx's on the
first graph), with NMI against the planted partition for LFR. Prints one
table; the targets: for each matchblas entry that can run here, mean
modularity >= PLM's and no graph of 1000 edges or more below 99% of PLM's
(on smaller graphs the local optimum a visit order reaches differs by
several percent between tools; those rows are printed, not held to it:
louvain-omp reaches 93% of PLM on GD97_b, 132 edges). Skips without
networkit, igraph or leidenalg (scripts/install_python_deps.sh installs
them)."""
import math
import os
import pathlib
import random

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp

import matchblas

nx = pytest.importorskip("networkx", reason="networkx is not installed (scripts/install_python_deps.sh)")
nk = pytest.importorskip("networkit", reason="networkit is not installed (scripts/install_python_deps.sh)")
ig = pytest.importorskip("igraph", reason="igraph is not installed (scripts/install_python_deps.sh)")
la = pytest.importorskip("leidenalg", reason="leidenalg is not installed (scripts/install_python_deps.sh)")

SHARED = os.environ.get("MATCHBLAS_SHARED_MATRICES", "")


def modularity(W, labels):
    """Q of labels on the symmetric matrix W (no diagonal): sum over
    communities of e_c / m - (a_c / 2m)^2."""
    labels = np.asarray(labels, dtype=np.int64)
    c = W.tocoo()
    two_m = c.data.sum()
    if two_m == 0:
        return 0.0
    inside = c.data[labels[c.row] == labels[c.col]].sum()
    degree = np.bincount(labels[c.row], weights=c.data, minlength=labels.max() + 1)
    return float(inside / two_m - np.sum((degree / two_m) ** 2))


def nmi(a, b):
    """Normalised mutual information (arithmetic mean of the entropies)."""
    a = np.unique(np.asarray(a), return_inverse=True)[1]
    b = np.unique(np.asarray(b), return_inverse=True)[1]
    n = len(a)
    joint = sp.coo_matrix((np.ones(n), (a, b))).tocsr()
    joint.sum_duplicates()
    pa, pb = np.bincount(a) / n, np.bincount(b) / n
    j = joint.tocoo()
    p = j.data / n
    mi = float(np.sum(p * np.log(p / (pa[j.row] * pb[j.col]))))
    ha, hb = -float(np.sum(pa * np.log(pa))), -float(np.sum(pb * np.log(pb)))
    return 1.0 if ha + hb == 0 else 2 * mi / (ha + hb)


def lfr_graphs():
    out = []
    for n, degree, mu, seed in [(1000, 15, 0.1, 1), (1000, 15, 0.3, 2), (1000, 15, 0.5, 3), (3000, 20, 0.3, 4),
                                (3000, 20, 0.6, 5)]:
        g = nx.LFR_benchmark_graph(n, 2.5, 1.5, mu, average_degree=degree, max_degree=5 * degree, min_community=20,
                                   max_community=200, seed=seed)
        planted = np.zeros(n, dtype=np.int64)
        for k, members in enumerate({frozenset(g.nodes[v]["community"]) for v in g}):
            planted[list(members)] = k
        edges = np.array([(u, v) for u, v in g.edges() if u != v], dtype=np.int64)
        W = sp.coo_matrix((np.ones(2 * len(edges)), (np.r_[edges[:, 0], edges[:, 1]], np.r_[edges[:, 1], edges[:, 0]])),
                          shape=(n, n)).tocsr()
        W.data[:] = 1.0
        out.append((f"LFR n={n} mu={mu}", W, planted))
    return out


def shared_graphs(limit=300_000):
    if not SHARED or not pathlib.Path(SHARED).is_dir():
        return []
    out = []
    for path in sorted(pathlib.Path(SHARED).iterdir()):
        if not path.name.endswith((".mtx", ".mtx.gz")):
            continue
        a = scipy.io.mmread(str(path))
        if not sp.issparse(a) or np.iscomplexobj(a.data) or a.shape[0] != a.shape[1] or a.nnz > limit:
            continue
        a = sp.csr_matrix(abs(a), dtype=float)
        a.sum_duplicates()
        a.setdiag(0)
        a.eliminate_zeros()
        W = a.maximum(a.T).tocsr()
        if W.nnz:
            out.append((path.name, W, None))
    return out


def peers(W):
    c = sp.triu(W, k=1).tocoo()
    n = W.shape[0]
    g = nk.GraphFromCoo((c.data, (c.row.astype(np.uint64), c.col.astype(np.uint64))), n=n, weighted=True,
                        directed=False)
    plm = nk.community.PLM(g, refine=False)
    plm.run()
    h = ig.Graph(n=n, edges=list(zip(c.row.tolist(), c.col.tolist())))
    h.es["weight"] = c.data.tolist()
    return {
        "PLM": np.array(plm.getPartition().getVector(), dtype=np.int64),
        "igraph": np.array(h.community_multilevel(weights="weight").membership, dtype=np.int64),
        "leiden": np.array(la.find_partition(h, la.ModularityVertexPartition, weights="weight", seed=1).membership,
                           dtype=np.int64),
    }


def test_quality_against_peers():
    nk.setNumberOfThreads(1)
    nk.engineering.setSeed(1, False)  # PLM's and igraph's random choices: the same run every time
    ig.set_random_number_generator(random.Random(1))
    graphs = lfr_graphs() + shared_graphs()
    ours = [a.name for a in matchblas.algorithms() if a.problem == "community detection" and a.available]
    assert {"louvain", "louvain-omp"} <= set(ours)
    q = {tool: [] for tool in ours + ["PLM", "igraph", "leiden"]}
    large = []  # graphs of 1000 edges or more
    print()
    print("| graph | vertices | edges | " + " | ".join(q) + " | NMI " + " | NMI ".join(q) + " |")
    for k, (name, W, planted) in enumerate(graphs):
        labels = {algo: matchblas.louvain(W, algo, threads=1)[0] for algo in ours}
        labels.update(peers(W))
        if k == 0:  # the one modularity here against networkx's
            g = nx.from_scipy_sparse_array(W)
            want = nx.community.modularity(g, matchblas.community_sets(labels["louvain"]))
            assert modularity(W, labels["louvain"]) == pytest.approx(want, rel=1e-9)
        large.append(W.nnz // 2 >= 1000)
        row = [modularity(W, labels[t]) for t in q]
        for t, x in zip(q, row):
            q[t].append(x)
        scores = [f"{nmi(labels[t], planted):.3f}" if planted is not None else "-" for t in q]
        print(f"| {name} | {W.shape[0]} | {W.nnz // 2} | " + " | ".join(f"{x:.4f}" for x in row) + " | " +
              " | ".join(scores) + " |")
    print("| mean | | | " + " | ".join(f"{np.mean(v):.4f}" for v in q.values()) + " |")
    for algo in ours:
        ratios = [x / p for x, p in zip(q[algo], q["PLM"])]
        worst = min(r for r, big in zip(ratios, large) if big)
        print(f"{algo}: mean {np.mean(q[algo]):.4f} (PLM {np.mean(q['PLM']):.4f}), worst ratio to PLM {worst:.4f} "
              f"(1000+ edges), {min(ratios):.4f} (all)")
        assert np.mean(q[algo]) >= np.mean(q["PLM"]), algo
        assert worst >= 0.99, algo
    assert not math.isnan(np.mean(q["leiden"]))
