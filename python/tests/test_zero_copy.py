"""No copy of the input where its types fit: the addresses the binding
passed to the C interface (matchblas._core.last_addresses) are the caller's
buffers' own. And where the types do not fit, the conversion happens (the
addresses differ) and the result is the same."""

import numpy as np
import pytest
import scipy.sparse as sp

import matchblas
from matchblas import _core
from conftest import random_graph


def addr(a):
    return a.ctypes.data


@pytest.mark.parametrize("layout", ["csr", "csc"])
@pytest.mark.parametrize("index", [np.int32, np.int64])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_compressed_is_read_in_place(layout, index, dtype):
    A = random_graph(200, 0.05, seed=1, dtype=dtype).asformat(layout)
    A.indptr, A.indices = A.indptr.astype(index), A.indices.astype(index)
    mate, _ = matchblas.match(A, "suitor")
    assert _core.last_addresses() == (addr(A.indptr), addr(A.indices), addr(A.data))
    p = matchblas.diagonal_permutation(A, job=1)
    assert _core.last_addresses() == (addr(A.indptr), addr(A.indices), addr(A.data))
    assert p.matched > 0 and len(mate) == 200


@pytest.mark.parametrize("index", [np.int32, np.int64])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_coordinate_is_read_in_place(index, dtype):
    A = random_graph(200, 0.05, seed=1, dtype=dtype).tocoo()
    A.row, A.col = A.row.astype(index), A.col.astype(index)
    mate, _ = matchblas.match(A, "suitor")
    assert _core.last_addresses() == (addr(A.row), addr(A.col), addr(A.data))
    assert np.array_equal(mate, matchblas.match(A.tocsr(), "suitor")[0])


def test_sparse_arrays_and_b_match_read_in_place():
    A = sp.csr_array(random_graph(100, 0.05, seed=2))
    matchblas.b_match(A, 2)
    assert _core.last_addresses() == (addr(A.indptr), addr(A.indices), addr(A.data))
    C = sp.coo_array(A)
    matchblas.match(C, "greedy")
    assert _core.last_addresses() == (addr(C.row), addr(C.col), addr(C.data))


def test_dense_is_read_in_place_with_its_row_stride():
    rng = np.random.default_rng(3)
    D = rng.uniform(size=(20, 20))
    matchblas.match(D, "greedy")
    assert _core.last_addresses() == (addr(D),)
    big = rng.uniform(size=(20, 32)).astype(np.float32)
    sub = big[:, :20]
    matchblas.match(sub, "greedy")
    assert _core.last_addresses() == (addr(sub),)


def test_types_that_do_not_fit_are_converted_once():
    A = random_graph(100, 0.05, seed=4)
    base, _ = matchblas.match(A, "suitor")
    mixed = A.copy()
    mixed.indptr = mixed.indptr.astype(np.int64)  # indices stay int32: they become int64 too
    assert np.array_equal(matchblas.match(mixed, "suitor")[0], base)
    pointers, indices, values = _core.last_addresses()
    assert pointers == addr(mixed.indptr) and indices != addr(mixed.indices) and values == addr(mixed.data)
    ints = sp.csr_matrix((np.ceil(A.data * 10).astype(np.int16), A.indices, A.indptr), shape=A.shape)
    matchblas.match(ints, "suitor")
    assert _core.last_addresses()[2] != addr(ints.data)
    uint_index = A.copy()
    uint_index.indptr, uint_index.indices = A.indptr.astype(np.uint32), A.indices.astype(np.uint32)
    assert np.array_equal(matchblas.match(uint_index, "suitor")[0], base)
    assert _core.last_addresses()[0] != addr(uint_index.indptr)


def test_results_are_numpy_arrays_that_own_their_memory():
    A = random_graph(50, 0.1, seed=5)
    mate, _ = matchblas.match(A, "suitor")
    assert isinstance(mate, np.ndarray) and mate.flags.writeable and mate.dtype == np.int64
    mate[:] = -1  # the caller's to keep and change
    again, _ = matchblas.match(A, "suitor")
    assert np.any(again >= 0)
