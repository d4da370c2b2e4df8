"""matchblas.ops on the CPU against executable specifications written here
as plain loops (ops.h's contracts), on seeded random inputs that include
n = 0, n = 1, everything masked in and nothing masked in, empty rows, one
huge row, negative weights, ties and float32; both backends of argmax."""

import numpy as np
import pytest
import scipy.sparse as sp

import matchblas
from matchblas import ops



def backends():
    out = ["plain"]
    try:
        ops.argmax(sp.csr_matrix((1, 1)), backend="graphblas")
        out.append("graphblas")
    except matchblas.UnavailableError:
        pass
    return out


def argmax_spec(A, row_mask, col_mask, floor):
    A = sp.csr_array(A)
    n = A.shape[0]
    best = np.full(n, -1, dtype=np.int32)
    best_w = np.zeros(n, dtype=A.dtype)
    for u in range(n):
        if row_mask is not None and not row_mask[u]:
            continue
        for k in range(A.indptr[u], A.indptr[u + 1]):
            v, w = A.indices[k], A.data[k]
            if col_mask is not None and not col_mask[v]:
                continue
            if floor is not None and not (w > floor[0][v] or (w == floor[0][v] and u < floor[1][v])):
                continue
            if best[u] < 0 or w > best_w[u] or (w == best_w[u] and v < best[u]):
                best[u], best_w[u] = v, w
    return best, best_w


def random_matrix(rng, m, n, density, dtype, ties):
    A = sp.random(m, n, density=density, format="csr", random_state=rng, dtype=np.float64)
    if ties:
        A.data = rng.integers(-3, 4, size=A.nnz).astype(np.float64)  # negative, zero and tied weights
    else:
        A.data = rng.normal(size=A.nnz)
    return A.astype(dtype)


def cases():
    rng = np.random.default_rng(2024)
    yield "empty", sp.csr_matrix((0, 0)), rng
    yield "one", sp.csr_matrix(np.array([[2.5]])), rng
    yield "row-less", sp.csr_matrix((0, 5)), rng
    for k, (m, n, d) in enumerate([(30, 30, 0.2), (50, 20, 0.1), (200, 200, 0.02), (1, 300, 0.9)]):
        for dtype in (np.float32, np.float64):
            yield f"random{k}-{np.dtype(dtype).name}", random_matrix(rng, m, n, d, dtype, ties=k % 2 == 0), rng
    huge = sp.lil_matrix((40, 5000))
    huge[7, :] = rng.integers(0, 3, size=5000)  # one huge row with ties; the rest empty
    yield "huge-row", sp.csr_matrix(huge), rng


@pytest.mark.parametrize("backend", backends())
def test_argmax_matches_the_spec(backend):
    for name, A, rng in cases():
        m, n = A.shape
        G = ops.Matrix(A)
        masks = [(None, None), (np.ones(m, bool), np.ones(n, bool)), (np.zeros(m, bool), np.zeros(n, bool)),
                 (rng.random(m) < 0.5, rng.random(n) < 0.5)]
        for row_mask, col_mask in masks:
            for with_floor in (False, True):
                floor = None
                if with_floor:
                    fw = rng.integers(-3, 4, size=n).astype(A.dtype)
                    fv = rng.integers(-1, m + 1, size=n).astype(np.int32)
                    floor = (fw, fv)
                best, best_w = ops.argmax(G, row_mask, col_mask, floor, backend=backend)
                want, want_w = argmax_spec(A, row_mask, col_mask, floor)
                assert best.dtype == np.int32 and best_w.dtype == A.dtype
                assert np.array_equal(best, want), (name, row_mask is None, with_floor)
                assert np.array_equal(best_w, want_w), name
        # A scipy matrix given directly is converted for the call: the same answer.
        assert np.array_equal(ops.argmax(A, backend=backend)[0], argmax_spec(A, None, None, None)[0])


def test_matrix_copy():
    A = sp.random(20, 30, density=0.2, format="csc", random_state=1)
    G = ops.Matrix(A)
    assert G.shape == (20, 30) and G.nnz == A.nnz and G.dtype == np.float64
    offsets, columns, weights = G.arrays()
    assert offsets.dtype == np.int64 and columns.dtype == np.int32 and not weights.flags.writeable
    assert (G.to_scipy() != A).nnz == 0
    for r in range(20):  # CSC: each row's columns ascend
        assert np.all(np.diff(columns[offsets[r]:offsets[r + 1]]) > 0)
    assert ops.Matrix(A.astype(np.float32)).dtype == np.float32
    assert ops.Matrix(A.astype(np.int64)).dtype == np.float64
    assert ops.Matrix(A.tocoo()).nnz == A.nnz


@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.int64, np.float32, np.float64])
def test_assign_matches_the_spec(dtype):
    rng = np.random.default_rng(5)
    for n in (0, 1, 100, 40000):  # 40000: the parallel loop
        out = rng.integers(0, 100, size=n).astype(dtype)
        values = rng.integers(0, 100, size=n).astype(dtype)
        mask = rng.random(n) < 0.3
        want = out.copy()
        want[mask] = values[mask]
        assert ops.assign(out, mask, values) is out and np.array_equal(out, want)
        want[mask] = 7
        ops.assign(out, mask, 7)
        assert np.array_equal(out, want)
        ops.assign(out, None, values)
        assert np.array_equal(out, values)
        ops.assign(out, np.zeros(n, bool), 9)
        assert np.array_equal(out, values)


def test_select_matches_the_spec():
    rng = np.random.default_rng(6)
    A = sp.random(60, 60, density=0.1, format="csr", random_state=rng)
    A = (A + A.T).tocsr()
    mate = np.where(rng.random(60) < 0.4, rng.integers(0, 60, size=60), -1).astype(np.int32)
    C = ops.select(ops.Matrix(A), mate).to_scipy()
    coo = A.tocoo()
    keep = (mate[coo.row] == -1) & (mate[coo.col] == -1)
    want = sp.csr_matrix((coo.data[keep], (coo.row[keep], coo.col[keep])), shape=A.shape)
    assert (C != want).nnz == 0 and C.nnz == keep.sum()
    rows, cols = rng.random(60) < 0.5, rng.random(60) < 0.7
    D = ops.select(A, rows=rows, cols=cols).to_scipy()
    keep = rows[coo.row] & cols[coo.col]
    assert D.nnz == keep.sum() and (D != sp.csr_matrix((coo.data[keep], (coo.row[keep], coo.col[keep])),
                                                       shape=A.shape)).nnz == 0
    # Order within rows is A's (compaction keeps it).
    offsets, columns, _ = ops.select(A, rows=rows).arrays()
    assert np.array_equal(columns, A.indices[np.repeat(rows, np.diff(A.indptr))])
    assert ops.select(sp.csr_matrix((0, 0)), np.zeros(0, np.int32)).nnz == 0


def test_ops_errors():
    A = sp.random(10, 12, density=0.3, format="csr", random_state=1)
    G = ops.Matrix(A)
    with pytest.raises(ValueError, match="row_mask has 3 entries, expected 10"):
        ops.argmax(G, row_mask=np.ones(3, bool))
    with pytest.raises(ValueError, match="expected 12"):
        ops.argmax(G, col_mask=np.ones(10, bool))
    with pytest.raises(ValueError, match="floor"):
        ops.argmax(G, floor=(np.zeros(3), np.zeros(3, np.int32)))
    with pytest.raises(matchblas.OptionError, match="backend"):
        ops.argmax(G, backend="fast")
    with pytest.raises(matchblas.InvalidInputError, match="square"):
        ops.select(G, np.full(10, -1, np.int32))
    with pytest.raises(ValueError, match="mate has 3 entries"):
        ops.select(G, np.full(3, -1, np.int32))
    with pytest.raises(TypeError, match="mate, or rows"):
        ops.select(G)
    with pytest.raises(ValueError, match="mask has 2 entries"):
        ops.assign(np.zeros(5), np.ones(2, bool), 1.0)
    with pytest.raises(TypeError, match="assign takes"):
        ops.assign(np.zeros(5, np.int16), None, 1)
    with pytest.raises(TypeError, match="numpy"):
        ops.assign([0, 0], None, 1)
    with pytest.raises(TypeError):
        ops.Matrix(np.eye(3))
    with pytest.raises(TypeError, match="float32 or float64"):
        ops.Matrix(A.astype(np.complex128))
    B = A.copy()
    B.indices[0] = 99
    with pytest.raises(matchblas.InvalidInputError, match="index 99"):
        ops.Matrix(B)
    B = A.copy()
    B.data[0] = np.inf
    with pytest.raises(matchblas.InvalidInputError, match="not finite"):
        ops.Matrix(B)
