"""`exact` against networkx.max_weight_matching (Galil's blossom algorithm,
an independent implementation) on small random graphs, with ties and on
bipartite views; the 1/2-approximate family within its guarantee of it."""

import numpy as np
import pytest
import scipy.sparse as sp

import matchblas
from conftest import available, check_matching, random_graph, rule_graph

nx = pytest.importorskip("networkx", reason="networkx is not installed (scripts/install_python_deps.sh)")
pytestmark = pytest.mark.skipif(not available("exact"), reason="exact needs LEMON, which this build lacks")


def nx_weight(W):
    U = sp.triu(W, k=1).tocoo()
    G = nx.Graph()
    G.add_nodes_from(range(W.shape[0]))
    G.add_weighted_edges_from(zip(U.row.tolist(), U.col.tolist(), U.data.tolist()))
    pairs = nx.max_weight_matching(G)
    return sum(G[u][v]["weight"] for u, v in pairs), len(pairs)


@pytest.mark.parametrize("seed", range(12))
def test_exact_equals_networkx(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 40))
    ties = int(rng.choice([0, 3]))
    A = random_graph(n, float(rng.uniform(0.05, 0.5)), seed=seed, ties=ties)
    W = rule_graph(A)
    mate, report = matchblas.match(A, "exact")
    weight, pairs = nx_weight(W)
    assert check_matching(W, mate) == pytest.approx(weight, rel=1e-12, abs=1e-12)
    assert report.weight == pytest.approx(weight, rel=1e-12, abs=1e-12)
    for algo in ("suitor", "greedy", "roma-sparse"):
        _, r = matchblas.match(A, algo)
        assert weight / 2 - 1e-12 <= r.weight <= weight + 1e-12, algo


@pytest.mark.parametrize("seed", range(4))
def test_exact_on_bipartite_views(seed):
    rng = np.random.default_rng(100 + seed)
    m, n = int(rng.integers(1, 25)), int(rng.integers(1, 25))
    A = sp.random(m, n, density=0.3, format="csr", random_state=rng)
    mate, report = matchblas.match(A, "exact")
    W = sp.bmat([[sp.csr_matrix((m, m)), A], [A.T, sp.csr_matrix((n, n))]]).tocsr()
    weight, _ = nx_weight(rule_graph(W))
    assert report.weight == pytest.approx(weight, rel=1e-12, abs=1e-12)
