"""matchblas.match, b_match, marry, diagonal_permutation and algorithms() on
every input form, checked against independent references: the graph rules
written again in numpy (conftest.rule_graph), the matching checker, greedy
written in Python, and the pre-pass's contract."""

import numpy as np
import pytest
import scipy.sparse as sp

import matchblas
from conftest import available, check_matching, random_graph, rule_graph


def greedy_reference(W):
    """Greedy in the library's order (weight descending, then min id, then max id), in Python."""
    U = sp.triu(W, k=1).tocoo()
    order = np.lexsort((np.maximum(U.row, U.col), np.minimum(U.row, U.col), -U.data))
    mate = np.full(W.shape[0], -1, dtype=np.int64)
    for k in order:
        u, v = U.row[k], U.col[k]
        if mate[u] < 0 and mate[v] < 0:
            mate[u], mate[v] = v, u
    return mate


FORMS = {
    "csr": lambda A: A.tocsr(),
    "csc": lambda A: A.tocsc(),
    "coo": lambda A: A.tocoo(),
    "csr_array": lambda A: sp.csr_array(A),
    "coo_array": lambda A: sp.coo_array(A),
    "lil": lambda A: A.tolil(),  # converted to CSR on the way
}


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("index", [np.int32, np.int64])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_every_form_gives_greedy(form, index, dtype):
    A = random_graph(300, 0.03, seed=7, ties=5, dtype=dtype)
    B = FORMS[form](A)
    for name in ("indptr", "indices", "row", "col"):
        if hasattr(B, name) and form != "lil":
            setattr(B, name, getattr(B, name).astype(index))
    W = rule_graph(A)
    expected = greedy_reference(W)
    for algo in ("greedy", "suitor", "ld"):
        mate, report = matchblas.match(B, algo)
        assert mate.dtype == np.int64
        assert np.array_equal(mate, expected), (algo, form)
        assert report.algo == algo and report.graph == "general"
        assert report.vertices == 300 and report.edges == W.nnz // 2
        assert report.weight == pytest.approx(check_matching(W, mate), rel=1e-6 if dtype == np.float32 else 1e-12)
        assert report.cardinality == np.count_nonzero(mate >= 0) // 2
        assert report.time_s >= 0 and report.setup_s >= 0 and report.total_s >= report.time_s


def test_rules_unsymmetric_duplicates_negative_and_diagonal():
    rng = np.random.default_rng(3)
    n = 60
    rows, cols = rng.integers(0, n, 900), rng.integers(0, n, 900)  # duplicates, both triangles, diagonal
    vals = rng.normal(size=900)
    A = sp.coo_matrix((vals, (rows, cols)), shape=(n, n))
    W = rule_graph(A)
    mate, report = matchblas.match(A, "greedy")
    assert np.array_equal(mate, greedy_reference(W))
    assert report.edges == W.nnz // 2
    assert report.weight == pytest.approx(check_matching(W, mate), rel=1e-12)


def test_bipartite_view_of_a_rectangular_matrix():
    A = sp.random(40, 70, density=0.1, format="csr", random_state=5)
    mate, report = matchblas.match(A, "suitor")
    assert report.graph == "bipartite" and report.bipartite_rows == 40 and len(mate) == 110
    # Vertex i < 40 is row i, vertex 40 + j column j: the graph of [0 A; A' 0].
    W = sp.bmat([[None, A], [A.T, None]]).tocsr()
    assert np.array_equal(mate, greedy_reference(rule_graph(W)))
    assert np.all(mate[:40][mate[:40] >= 0] >= 40)


def test_dense_complete_graph_and_leading_dimension():
    rng = np.random.default_rng(11)
    D = rng.uniform(size=(30, 30))
    mate, report = matchblas.match(D, "greedy")
    assert report.graph == "complete" and report.cardinality == 15
    W = rule_graph(sp.csr_array(D))
    assert np.array_equal(mate, greedy_reference(W))
    big = rng.uniform(size=(30, 40))
    sub = big[:, :30]  # rows of a larger C-order array: passed with leading dimension 40
    assert np.array_equal(matchblas.match(sub, "greedy")[0], greedy_reference(rule_graph(sp.csr_array(sub))))
    F = np.asfortranarray(D)  # columns contiguous: copied to C order first
    assert np.array_equal(matchblas.match(F, "greedy")[0], mate)
    odd = rng.uniform(size=(5, 5))
    assert matchblas.match(odd, "roma")[1].cardinality == 2


def test_file_path_and_options(tmp_path):
    A = random_graph(200, 0.05, seed=2)
    path = tmp_path / "g.mtx"
    import scipy.io
    scipy.io.mmwrite(str(path), A)
    by_path, r1 = matchblas.match(path, "suitor")
    by_array, r2 = matchblas.match(A, "suitor")
    assert np.array_equal(by_path, by_array) and r1.weight == r2.weight
    # Options by keyword: roma-sparse's phases / min-gain / start, a flag (phase-report).
    m1, rep1 = matchblas.match(A, "roma-sparse", phases=1, min_gain=1e-6, start="gpa", seed=3)
    m2, rep2 = matchblas.match(A, "roma-sparse", phases=1, min_gain=1e-6, start="gpa", seed=3, phase_report=True)
    assert np.array_equal(m1, m2) and rep1.phases == 1
    m3, rep3 = matchblas.match(A, "roma-sparse", phases=50, seed=3)
    assert rep3.weight >= rep1.weight - 1e-12 and rep3.phases >= 1
    check_matching(rule_graph(A), m3)


def test_precision():
    A = random_graph(100, 0.05, seed=4)
    m64, r64 = matchblas.match(A, "suitor")
    m32, r32 = matchblas.match(A.astype(np.float32), "suitor")  # float by default for float32
    m32d, r32d = matchblas.match(A.astype(np.float32), "suitor", precision="double")
    mf, rf = matchblas.match(A, "suitor", precision="float")
    assert r32.weight == pytest.approx(r64.weight, rel=1e-5)
    assert np.array_equal(m32, m32d) and np.array_equal(m32, mf)


def test_threads_and_seed_keywords():
    A = random_graph(400, 0.02, seed=9, ties=3)
    base, _ = matchblas.match(A, "suitor-locks", threads=1)
    for t in (2, 4):
        assert np.array_equal(matchblas.match(A, "suitor-locks", threads=t)[0], base)
    a, _ = matchblas.match(A, "roma-sparse", seed=5)
    b, _ = matchblas.match(A, "roma-sparse", seed=5)
    assert np.array_equal(a, b)


def test_luby_is_maximal_and_one_matching_per_seed():
    """luby: a maximal matching (no edge with both ends free, checked here
    on the graph), the same for a seed on any thread count, another for
    another seed; its weight is below greedy's (it reads no weights)."""
    W = rule_graph(random_graph(500, 0.02, seed=3, ties=2))
    mate, report = matchblas.match(W, "luby", seed=7, threads=1)
    weight = check_matching(W, mate)
    U = sp.triu(W, k=1).tocoo()
    assert not np.any((mate[U.row] < 0) & (mate[U.col] < 0)), "an edge with both ends free"
    for t in (2, 4):
        assert np.array_equal(matchblas.match(W, "luby", seed=7, threads=t)[0], mate)
    assert not np.array_equal(matchblas.match(W, "luby", seed=8)[0], mate)
    greedy_mate = greedy_reference(W)
    assert weight < check_matching(W, greedy_mate)
    assert report.weight == pytest.approx(weight)


def test_b_match():
    A = random_graph(150, 0.05, seed=6, ties=4)
    W = rule_graph(A)
    B1, r1 = matchblas.b_match(A, 2, "b-greedy")
    B2, r2 = matchblas.b_match(A.tocoo(), 2, "b-suitor")
    assert (B1 != B2).nnz == 0 and r1.weight == pytest.approx(r2.weight)
    assert np.all(np.diff(B1.indptr) <= 2)
    assert (B1 != B1.T).nnz == 0
    assert np.all(W[B1.nonzero()] > 0)
    assert r1.cardinality == B1.nnz // 2
    assert r1.weight == pytest.approx(W[B1.nonzero()].sum() / 2, rel=1e-12)
    b = np.arange(150) % 3
    Bv, _ = matchblas.b_match(A, b, "b-suitor")
    assert np.all(np.diff(Bv.indptr) <= b)
    # float32 weights (or precision="float") run in single precision: the
    # same edges where the weights are floats exactly (ties=4: quarters)
    A32 = A.astype(np.float32)
    for kwargs in ({}, {"precision": "float"}):
        Bf, rf = matchblas.b_match(A32, 2, "b-suitor", **kwargs)
        assert (Bf != B1).nnz == 0 and rf.weight == pytest.approx(r1.weight)
    with pytest.raises(matchblas.OptionError):
        matchblas.b_match(A, 2, "b-suitor", precision="half")


def test_marry():
    men = [[0, 1, 2], [1, 0], [0]]
    women = [[1, 0, 2], [0, 1], [0]]
    wife, husband, report = matchblas.marry(men, women)
    # Man-optimal: man 2 proposes to woman 0 only, who keeps man 0 (she ranks him above man 2).
    assert list(wife) == [0, 1, -1] and list(husband) == [0, 1, -1]
    assert report.graph == "marriage" and report.cardinality == 2
    w2, h2, _ = matchblas.marry(men, women, "mcvitie-wilson")
    assert np.array_equal(wife, w2) and np.array_equal(husband, h2)


def test_marry_file(tmp_path):
    path = tmp_path / "m.txt"
    path.write_text("stable-marriage 2 2\n0 1\n1 0\n1 0\n0 1\n")
    wife, husband, _ = matchblas.marry(path)
    assert list(wife) == [0, 1] and list(husband) == [0, 1]


def test_diagonal_permutation():
    rng = np.random.default_rng(8)
    n = 80
    A = sp.random(n, n, density=0.05, format="csc", random_state=rng) + sp.eye(n, format="csc") * 1e-3
    A = sp.csc_matrix(A)
    p = matchblas.diagonal_permutation(A, job=5)
    assert p.status == 0 and p.job == 5 and p.matched == n
    assert sorted(p.perm) == list(range(n))
    assert np.array_equal(p.row_mate, p.perm)
    assert np.array_equal(p.col_mate[p.row_mate], np.arange(n))
    Acoo = A.tocoo()
    scaled = np.abs(Acoo.data) * np.exp(p.row_log_scale[Acoo.row] + p.col_log_scale[Acoo.col])
    assert np.all(scaled <= 1 + 1e-9)
    on_matching = np.abs(A.toarray()[np.arange(n), p.row_mate]) * np.exp(p.row_log_scale + p.col_log_scale[p.row_mate])
    assert np.allclose(on_matching, 1)
    assert p.objective == pytest.approx(np.log(np.abs(A.toarray()[np.arange(n), p.row_mate])).sum())
    # The same from CSR and COO (converted), job 1 without scalings.
    q = matchblas.diagonal_permutation(A.tocsr(), job=5)
    assert np.array_equal(q.perm, p.perm)
    c = matchblas.diagonal_permutation(A.tocoo(), job=1)
    assert c.row_log_scale is None and c.matched == n
    # Structurally singular: status 1 with a maximum partial matching, not an error.
    S = sp.csr_matrix(np.array([[1.0, 2.0, 0], [3.0, 4.0, 0], [5.0, 6.0, 0]]))
    s = matchblas.diagonal_permutation(S, job=5)
    assert s.structurally_singular and s.matched == 2 and sorted(s.perm) == [0, 1, 2]
    # Rectangular: no permutation.
    R = matchblas.diagonal_permutation(sp.csr_matrix(np.array([[1.0, 0, 2.0], [0, 3.0, 0]])), job=4)
    assert R.perm is None and R.matched == 2 and R.objective == pytest.approx(5.0)


def test_diagonal_permutation_repr_is_short():
    # A summary, whatever n is: the scalars by name, each array as
    # dtype[shape] with its first values (not the 44 kB of every array).
    n = 1000
    A = sp.random(n, n, density=0.01, format="csc", random_state=3) + sp.eye(n, format="csc")
    p = matchblas.diagonal_permutation(sp.csc_matrix(A), job=5)
    text = repr(p)
    assert len(text) < 300, text
    assert str(p) == text
    for field in ("job=5", "status=0", f"matched={n}", "objective=", "min_matched_abs=", "seconds=", "message=",
                  "perm=int64[1000](", "row_mate=int64[1000]", "col_mate=int64[1000]",
                  "row_log_scale=float64[1000](", "col_log_scale=float64[1000]("):
        assert field in text, (field, text)
    assert text.startswith("DiagonalPermutation(") and str(p.perm[0]) in text
    # No scalings (job 1), no permutation (rectangular): None.
    q = matchblas.diagonal_permutation(sp.csr_matrix(np.array([[1.0, 0, 2.0], [0, 3.0, 0]])), job=1)
    assert "perm=None" in repr(q) and "row_log_scale=None" in repr(q) and len(repr(q)) < 300
    # The matching's Report holds scalars only: short too.
    mate, report = matchblas.match(random_graph(n, 0.01, 4), "suitor")
    assert len(repr(report)) < 300 and "cardinality=" in repr(report)


def test_algorithms_is_the_registry(cli):
    import json
    import subprocess
    listed = json.loads(subprocess.run([cli, "list", "--json"], check=True, capture_output=True, text=True).stdout)
    entries = listed["algorithms"] if isinstance(listed, dict) else listed
    names = [e["name"] for e in entries]
    algos = matchblas.algorithms()
    assert [a.name for a in algos] == names
    by_name = {a.name: a for a in algos}
    assert by_name["suitor"].guarantee == "greedy" and by_name["suitor"].problem == "matching"
    roma = by_name["roma-sparse"]
    options = {o.name: o for o in roma.options}
    assert options["phases"].type == "integer" and options["phases"].default == "100"
    assert "gpa" in options["start"].words
    assert by_name["b-suitor"].problem == "b-matching"
    assert by_name["gale-shapley"].problem == "stable marriage"
    assert any(a.problem == "bipartite" and a.job == 5 for a in algos)
    assert not by_name["suitor-gpu"].available or by_name["suitor-gpu"].device == "gpu"


@pytest.mark.skipif(not available("exact"), reason="exact needs LEMON, which this build lacks")
def test_exact_is_at_least_greedy():
    A = random_graph(60, 0.1, seed=12)
    _, g = matchblas.match(A, "greedy")
    _, e = matchblas.match(A, "exact")
    assert e.weight >= g.weight - 1e-12 and e.weight <= 2 * g.weight + 1e-12
