"""matchblas.ops on a GPU (CuPy arrays through DLPack, read and written in
place) against the CPU ops, the tutorial's matcher on the device against
`greedy`, and the GPU matchers through matchblas.match. Skipped without
CuPy or a GPU (CTest reports it skipped); on the GPU machine:

    PYTHONPATH=build/python python3 -m pytest -q -rs python/tests/test_ops_gpu.py
"""

import os
import re

import numpy as np
import pytest
import scipy.sparse as sp

import matchblas
from matchblas import _core, ops
from conftest import cupy_or_skip, random_graph

cp, csp = cupy_or_skip("suitor-gpu")


def on_device(A):
    return csp.csr_matrix(sp.csr_matrix(A))


def random_matrix(rng, m, n, density, dtype):
    A = sp.random(m, n, density=density, format="csr", random_state=rng)
    A.data = rng.integers(-3, 4, size=A.nnz).astype(dtype)  # ties, negative and zero weights
    return A


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_argmax_equals_the_cpu(dtype):
    rng = np.random.default_rng(1)
    for m, n, d in [(0, 0, 0.1), (1, 1, 1.0), (300, 300, 0.02), (64, 5000, 0.5), (2000, 100, 0.01)]:
        A = random_matrix(rng, m, n, d, dtype)
        D = on_device(A)
        for row_mask, col_mask, with_floor in [(None, None, False), (rng.random(m) < 0.5, rng.random(n) < 0.5, True),
                                               (np.zeros(m, bool), None, True)]:
            floor = None
            if with_floor:
                floor = (rng.integers(-3, 4, size=n).astype(dtype), rng.integers(-1, m + 1, size=n).astype(np.int32))
            want, want_w = ops.argmax(ops.Matrix(A), row_mask, col_mask, floor)
            best, best_w = ops.argmax(D, None if row_mask is None else cp.asarray(row_mask),
                                      None if col_mask is None else cp.asarray(col_mask),
                                      None if floor is None else (cp.asarray(floor[0]), cp.asarray(floor[1])))
            assert isinstance(best, cp.ndarray) and best.dtype == cp.int32 and best_w.dtype == dtype
            assert np.array_equal(cp.asnumpy(best), want) and np.array_equal(cp.asnumpy(best_w), want_w)
            assert _core.last_addresses() == (D.indptr.data.ptr, D.indices.data.ptr, D.data.data.ptr)


def test_argmax_with_64_bit_offsets():
    rng = np.random.default_rng(2)
    A = random_matrix(rng, 500, 400, 0.05, np.float64)
    want, want_w = ops.argmax(A)
    offsets = cp.asarray(A.indptr.astype(np.int64))
    best, best_w = cp.empty(500, cp.int32), cp.empty(500, cp.float64)
    status, message = _core.ops_argmax_device(500, 400, offsets, cp.asarray(A.indices), cp.asarray(A.data), None,
                                              None, None, None, best, best_w, cp.cuda.get_current_stream().ptr)
    assert status == 0, message
    assert np.array_equal(cp.asnumpy(best), want) and np.array_equal(cp.asnumpy(best_w), want_w)


@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.int64, np.float32, np.float64])
def test_assign_equals_numpy(dtype):
    rng = np.random.default_rng(3)
    for n in (0, 1, 100000):
        out = rng.integers(0, 100, size=n).astype(dtype)
        values = rng.integers(0, 100, size=n).astype(dtype)
        mask = rng.random(n) < 0.3
        d_out = cp.asarray(out)
        ptr = d_out.data.ptr
        ops.assign(d_out, cp.asarray(mask), cp.asarray(values))
        out[mask] = values[mask]
        assert d_out.data.ptr == ptr and np.array_equal(cp.asnumpy(d_out), out)
        ops.assign(d_out, cp.asarray(mask), 7)
        out[mask] = 7
        assert np.array_equal(cp.asnumpy(d_out), out)


def test_select_equals_the_cpu():
    rng = np.random.default_rng(4)
    A = random_graph(400, 0.03, seed=4)
    mate = np.where(rng.random(400) < 0.4, rng.integers(0, 400, size=400), -1).astype(np.int32)
    want = ops.select(ops.Matrix(A), mate).to_scipy()
    got = ops.select(on_device(A), cp.asarray(mate))
    assert isinstance(got, csp.csr_matrix)
    assert (sp.csr_matrix(got.get()) != want).nnz == 0 and got.nnz == want.nnz


def test_the_tutorial_on_the_device():
    page = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "prototyping.md")
    code = re.search(r"```python\n(.*?)```", open(page).read(), re.S).group(1)
    # The page's GPU recipe: numpy -> cupy, scipy.sparse -> cupyx.scipy.sparse, G = A.
    code = (code.replace("import numpy as np", "import cupy as np")
                .replace("import scipy.sparse as sp", "import cupyx.scipy.sparse as sp")
                .replace("G = ops.Matrix(A)", "G = A")
                .replace("P = ops.Matrix(sp.csr_array(", "P = (sp.csr_matrix(")
                .replace("G.shape[0]", "G.shape[0]").replace("dtype=G.dtype", "dtype=G.data.dtype"))
    namespace = {}
    exec(compile(code, page + " (GPU)", "exec"), namespace)
    for seed in range(5):
        A = random_graph(300 + 100 * seed, 0.02, seed=seed, ties=3)
        expected, _ = matchblas.match(A, "greedy")
        assert np.array_equal(cp.asnumpy(namespace["suitor"](on_device(A))), expected), seed


def test_gpu_matchers_through_match():
    A = random_graph(2000, 0.005, seed=5, ties=4)
    expected, _ = matchblas.match(A, "greedy")
    for algo in ("suitor-gpu", "ld-gpu", "handshake-gpu"):
        mate, report = matchblas.match(A, algo)
        assert np.array_equal(mate, expected) and report.algo == algo
    mate, report = matchblas.match(A, "suitor", device="gpu")
    assert report.algo == "suitor-gpu" and np.array_equal(mate, expected)
