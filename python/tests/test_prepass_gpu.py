"""matchblas.diagonal_permutation on a matrix in GPU memory (cupyx.scipy.sparse:
matchblas_prepass_device, read in place, results as CuPy arrays) against
the same call on the host: every job's matched count and objective, a
matching of entries, job 5's scaling bounds, jobs 1, 4 and 5 wholly on the
device (the message says so), a structurally singular matrix
as status 1 and bad input as the host's errors. Skipped without CuPy or a
GPU; on the GPU machine:

    PYTHONPATH=build/python python3 -m pytest -q -rs python/tests/test_prepass_gpu.py
"""

import numpy as np
import pytest
import scipy.sparse as sp

import matchblas
from conftest import cupy_or_skip

cp, csp = cupy_or_skip("max-product-gpu")


def nonsingular(rng, n, density, dtype=np.float64):
    """A random n x n matrix with a full diagonal, moduli over many decades."""
    A = sp.random(n, n, density=density, format="csr", random_state=rng) + sp.eye(n, format="csr")
    A.data = (np.exp(rng.normal(0, 4, A.nnz)) * rng.choice([-1.0, 1.0], A.nnz)).astype(dtype)
    return A.tocsr()


def check_matching(A, r):
    A = sp.csr_matrix(A)
    row_mate = cp.asnumpy(r.row_mate)
    col_mate = cp.asnumpy(r.col_mate)
    matched = 0
    for i, j in enumerate(row_mate):
        if j < 0:
            continue
        matched += 1
        assert col_mate[j] == i
        assert (A.indices[A.indptr[i]:A.indptr[i + 1]] == j).any()  # an entry
    assert matched == r.matched
    if r.perm is not None and r.matched == A.shape[0]:
        assert (cp.asnumpy(r.perm) == row_mate).all()


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
def test_every_job_equals_the_host_call(fmt, dtype):
    rng = np.random.default_rng(7)
    for n in (1, 40, 700):
        A = nonsingular(rng, n, 0.02 if n > 100 else 0.1, dtype).asformat(fmt)
        D = csp.csr_matrix(A) if fmt == "csr" else csp.csc_matrix(A)
        for job in (1, 4, 5):
            host = matchblas.diagonal_permutation(A, job=job)
            got = matchblas.diagonal_permutation(D, job=job)
            assert isinstance(got.row_mate, cp.ndarray)
            assert got.status == host.status == 0
            assert got.matched == host.matched == n
            assert got.objective == pytest.approx(host.objective, rel=1e-9, abs=1e-9)
            check_matching(A, got)
            assert "on the device arrays" in got.message
            if job == 5:
                Ad = sp.csr_matrix(abs(A))
                r, c = cp.asnumpy(got.row_log_scale), cp.asnumpy(got.col_log_scale)
                rows = np.repeat(np.arange(n), np.diff(Ad.indptr))
                scaled = Ad.data * np.exp(r[rows] + c[Ad.indices])
                assert (scaled <= 1 + 1e-5).all()
                mates = cp.asnumpy(got.row_mate)
                on = Ad.indices == mates[rows]
                assert np.allclose(scaled[on], 1, rtol=1e-5)


def test_singular_and_rectangular_and_bad_input():
    rng = np.random.default_rng(3)
    A = nonsingular(rng, 50, 0.05).tolil()
    A[4, :] = 0  # an empty row
    A = A.tocsr()
    A.eliminate_zeros()
    got = matchblas.diagonal_permutation(csp.csr_matrix(A), job=5)
    assert got.structurally_singular and got.matched == 49
    got = matchblas.diagonal_permutation(csp.csr_matrix(A), job=1)
    assert got.structurally_singular and got.matched == 49 and "on the device arrays" in got.message
    check_matching(A, got)
    perm = cp.asnumpy(got.perm)
    assert sorted(perm) == list(range(50))  # the unmatched row takes the free column
    R = sp.random(30, 60, density=0.1, format="csr", random_state=rng)
    host = matchblas.diagonal_permutation(R, job=4)
    got = matchblas.diagonal_permutation(csp.csr_matrix(R), job=4)
    assert got.perm is None and got.matched == host.matched
    assert got.objective == pytest.approx(host.objective, rel=1e-9)
    got = matchblas.diagonal_permutation(csp.csr_matrix(R), job=1)
    assert got.matched == matchblas.diagonal_permutation(R, job=1).matched and "on the device arrays" in got.message
    check_matching(R, got)
    with pytest.raises(TypeError, match="cupyx.scipy.sparse"):
        matchblas.diagonal_permutation(cp.eye(3))  # a dense CuPy array
    B = nonsingular(rng, 20, 0.2)
    B.data[3] = np.nan
    with pytest.raises(matchblas.InvalidInputError, match="not finite"):
        matchblas.diagonal_permutation(csp.csr_matrix(B), job=5)
