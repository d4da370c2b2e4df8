"""The ops matchblas's matchers are written in, for prototyping a matcher in
Python (docs/prototyping.md writes Suitor with them). The contracts are the
library's (include/matchblas/ops.h; ops/argmax.hpp, assign.hpp, select.hpp):

    best, best_weight = argmax(A, row_mask=None, col_mask=None, floor=None)
        per row u, the column v of the entry (u, v, w) first in the greedy
        order (heavier first, then the smaller v) among those with row u in
        row_mask, column v in col_mask and, with floor = (weights, vertices),
        w > weights[v] or (w == weights[v] and u < vertices[v]); -1 and 0
        where none qualifies.
    assign(out, mask, values)   out[i] = values[i] (or a scalar) where mask[i]
    select(A, mate)             the entries (u, v) of A with mate[u] == mate[v] == -1
    select(A, rows=, cols=)     the entries with rows[u] and cols[v]

Masks are true where non-zero (bool and uint8 read as they are). Vertex
ids are int32 (best, floor vertices, mate: other integer arrays are taken
when every value fits, else InvalidInputError names the first); weights
float32 or float64, used as given (no graph rules: A is any m x n matrix; for a graph
give both directions of every edge, as the library's graphs hold them).

On the CPU, A is a Matrix, the library's copy of a matrix: make one with
Matrix(A) and reuse it, since a scipy.sparse matrix given to an op is
converted at every call. On a GPU, A is a CuPy sparse matrix
(cupyx.scipy.sparse, CSR) and masks, floors and outputs are CuPy arrays: the
ops read and write them in place (through DLPack; CSR offsets are widened to
64 bits on the device) on CuPy's current stream. select on a GPU takes mate.
"""

import sys

import numpy as np
import scipy.sparse as sp

from . import _core, _inputs
from .errors import InvalidInputError, OptionError, raise_for

__all__ = ["Matrix", "argmax", "assign", "select"]

_BACKENDS = {"auto": 0, "plain": 1, "graphblas": 2}


class Matrix:
    """The library's copy of an m x n matrix for the CPU ops: rows of int32
    columns (64-bit offsets) and float32 or float64 weights (float32 stays
    float32; other dtypes become float64). From a scipy.sparse matrix or array
    (CSR as given, CSC by ascending column, other formats through CSR)."""

    def __init__(self, A):
        if isinstance(A, _core.OpsMatrix):
            self._m = A
            return
        if not sp.issparse(A):
            raise TypeError(f"Matrix takes a scipy.sparse matrix or array, not {type(A).__name__}")
        layout, indptr, indices, data = _inputs.compressed(A)
        status, message, m = _core.ops_matrix(A.shape[0], A.shape[1], layout, indptr, indices, data)
        raise_for(status, message)
        self._m = m

    @property
    def shape(self):
        return self._m.shape

    @property
    def nnz(self):
        return self._m.nnz

    @property
    def dtype(self):
        return np.dtype(np.float32 if self._m.single else np.float64)

    def arrays(self):
        """(offsets int64, columns int32, weights): read-only views of the library's CSR."""
        return self._m.arrays()

    def to_scipy(self):
        offsets, columns, weights = self.arrays()
        return sp.csr_array((weights.copy(), columns.copy(), offsets.copy()), shape=self.shape)

    def __repr__(self):
        return f"matchblas.ops.Matrix(shape={self.shape}, nnz={self.nnz}, dtype={self.dtype})"


def _on_gpu(x):
    """True for an array (or sparse matrix) in CUDA device memory."""
    data = getattr(x, "data", None) if not hasattr(x, "__dlpack_device__") else x
    probe = getattr(data, "__dlpack_device__", None)
    return probe is not None and probe()[0] in (2, 13)  # kDLCUDA, kDLCUDAManaged


def _cupy():
    return sys.modules.get("cupy") or __import__("cupy")


def _matrix(A):
    return A if isinstance(A, Matrix) else Matrix(A)


def _array(x, dtype, xp=np):
    """x as a contiguous array of dtype in xp (numpy or cupy). Into an
    integer dtype (vertex ids, assign's integers) only integral values
    within its range are taken: InvalidInputError names the first that is
    not, instead of a silent wrap."""
    a = xp.asarray(x)
    dtype = np.dtype(dtype)
    if dtype.kind in "iu" and a.dtype != dtype and a.size:
        if a.dtype.kind not in "iufb":
            raise InvalidInputError(-8, f"an array of {a.dtype} where integers ({dtype}) are expected")
        if found := _inputs.first_non_integer(a, dtype, xp):
            i = found[0]
            raise InvalidInputError(-6, f"entry {i} is {a.ravel()[i].item()!r}, not an integer of {dtype}")
    if a.dtype != dtype:
        a = a.astype(dtype)
    return a if a.flags.c_contiguous else xp.ascontiguousarray(a)


def _mask(x, xp=np):
    """A mask as the ops take it, uint8 in xp: uint8 as it is, bool viewed
    (no copy), any other dtype true where non-zero."""
    a = xp.asarray(x)
    if a.dtype != np.uint8:
        a = (a if a.dtype == np.bool_ else a != 0).view(np.uint8)
    return a if a.flags.c_contiguous else xp.ascontiguousarray(a)


def _device(x, dtype):
    return _array(x, dtype, _cupy())


def _device_mask(x):
    return _mask(x, _cupy())


def _backend(backend):
    try:
        return _BACKENDS[backend]
    except KeyError:
        raise OptionError(-13, f"backend must be one of {', '.join(_BACKENDS)}, not {backend!r}") from None


def _device_csr(A):
    if A.format != "csr":
        A = A.tocsr()
    offsets = A.indptr if A.indptr.flags.c_contiguous else _cupy().ascontiguousarray(A.indptr)
    columns = _device(A.indices, np.int32)
    _inputs.check_pointers(offsets, columns, A.shape[0])  # one value read back: the last pointer
    return A.shape[0], A.shape[1], offsets, columns, A.data


def argmax(A, row_mask=None, col_mask=None, floor=None, *, backend="auto"):
    """(best int32, best_weight) per row of A; see the module's help.
    backend (CPU): "auto", "plain" or "graphblas" (the reference path)."""
    if _on_gpu(A):
        cp = _cupy()
        rows, cols, offsets, columns, values = _device_csr(A)
        fw = fv = None
        if floor is not None:
            fw, fv = _device(floor[0], values.dtype), _device(floor[1], np.int32)
        best = cp.empty(rows, dtype=cp.int32)
        best_weight = cp.empty(rows, dtype=values.dtype)
        status, message = _core.ops_argmax_device(
            rows, cols, offsets, columns, values, None if row_mask is None else _device_mask(row_mask),
            None if col_mask is None else _device_mask(col_mask), fw, fv, best, best_weight,
            cp.cuda.get_current_stream().ptr)
        raise_for(status, message)
        return best, best_weight
    m = _matrix(A)
    fw = fv = None
    if floor is not None:
        fw, fv = _array(floor[0], m.dtype), _array(floor[1], np.int32)
    status, message, best, best_weight = _core.ops_argmax(
        m._m, None if row_mask is None else _mask(row_mask),
        None if col_mask is None else _mask(col_mask), fw, fv, _backend(backend))
    raise_for(status, message)
    return best, best_weight


def assign(out, mask, values):
    """out[i] = values[i] (values an array as long as out) or values (a
    scalar) for every i with mask[i] (mask None: every i); in place, on
    out's device. out: a contiguous uint8, int32, int64, float32 or float64
    array. Returns out."""
    if _on_gpu(out):
        cp = _cupy()
        m = None if mask is None else _device_mask(mask)
        if np.ndim(values) == 0 and not _on_gpu(values):
            vs, v = None, _array(np.atleast_1d(values), out.dtype)
        else:
            vs, v = _device(values, out.dtype), None
        status, message = _core.ops_assign_device(out, m, vs, v, cp.cuda.get_current_stream().ptr)
        raise_for(status, message)
        return out
    if not isinstance(out, np.ndarray):
        raise TypeError(f"assign writes into a numpy (or CuPy) array, not {type(out).__name__}")
    m = None if mask is None else _mask(mask)
    if np.ndim(values) == 0:
        vs, v = None, _array(np.atleast_1d(values), out.dtype)
    else:
        vs, v = _array(values, out.dtype), None
    status, message = _core.ops_assign(out, m, vs, v)
    raise_for(status, message)
    return out


def select(A, mate=None, *, rows=None, cols=None):
    """The entries of A with both endpoints free (mate[u] == mate[v] == -1,
    a square A), or with rows[u] and cols[v] (None: every row / column),
    in A's order. CPU: a Matrix; GPU (mate only): a CuPy CSR matrix."""
    if (mate is None) == (rows is None and cols is None):
        raise TypeError("select takes mate, or rows and / or cols")
    if _on_gpu(A):
        if mate is None:
            raise TypeError("select on a GPU takes mate (rows / cols masks are CPU only)")
        cp = _cupy()
        import cupyx.scipy.sparse as csp
        n_rows, n_cols, offsets, columns, values = _device_csr(A)
        status, message, c_offsets, c_columns, c_values = _core.ops_select_free_device(
            n_rows, n_cols, offsets, columns, values, _device(mate, np.int32), cp.cuda.get_current_stream().ptr)
        raise_for(status, message)
        if len(c_columns) >= 2**31:
            raise ValueError("the selection has more entries than CuPy's int32 CSR holds")
        return csp.csr_matrix((c_values, c_columns, c_offsets.astype(cp.int32)), shape=(n_rows, n_cols))
    m = _matrix(A)
    if mate is not None:
        status, message, c = _core.ops_select_free(m._m, _array(mate, np.int32))
    else:
        status, message, c = _core.ops_select(m._m, None if rows is None else _mask(rows),
                                              None if cols is None else _mask(cols))
    raise_for(status, message)
    return Matrix(c)
