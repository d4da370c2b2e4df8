"""The caller's matrix as a C graph description, copying only what must be.

Arrays whose types the C interface takes go through as they are (their
buffers' addresses are what the library reads; tests/test_zero_copy.py
checks it):
  - scipy.sparse CSR / CSC: indptr and indices of one dtype, int32 or int64,
    contiguous; data float32 or float64 (complex: the library refuses it
    for matchings, takes its modulus in the pre-pass);
  - scipy.sparse COO: row and col of one dtype, int32 or int64; data as above;
  - a 2-D numpy array (a complete graph): float32 or float64 with contiguous
    rows (C order, or the rows of a larger C-order array: its row stride is
    passed as the leading dimension).
Anything else is converted once, here: other index dtypes or mixed ones to
int64, other value dtypes (bool, integers, float16) to float64,
non-contiguous arrays to contiguous ones, other sparse formats (LIL, DOK,
BSR, DIA) to CSR.
"""

import os

import numpy as np
import scipy.sparse as sp

from . import _core
from .errors import InvalidInputError, MissingFileError, OptionError

VIEWS = {"auto": 0, "general": 1, "bipartite": 2, "complete": 3}
_INDEX_TYPES = (np.dtype(np.int32), np.dtype(np.int64))
_WEIGHT_TYPES = (np.dtype(np.float32), np.dtype(np.float64))
_COMPLEX_TYPES = (np.dtype(np.complex64), np.dtype(np.complex128))


def _contiguous(a):
    return a if a.flags.c_contiguous else np.ascontiguousarray(a)


def index_arrays(*arrays):
    """The index arrays in one dtype the library takes (as they are when they already share one)."""
    dtypes = {a.dtype for a in arrays}
    if len(dtypes) == 1 and arrays[0].dtype in _INDEX_TYPES:
        return tuple(_contiguous(a) for a in arrays)
    return tuple(np.ascontiguousarray(a, dtype=np.int64) for a in arrays)


def value_array(data, allow_complex):
    """The values as the library takes them (float32 / float64, complex where allowed)."""
    if data.dtype in _WEIGHT_TYPES or (allow_complex and data.dtype in _COMPLEX_TYPES):
        return _contiguous(data)
    if data.dtype in _COMPLEX_TYPES:
        return _contiguous(data)  # refused by the library with its message
    return np.ascontiguousarray(data, dtype=np.float64)


def single_precision(precision, values):
    """precision None: float when the weights are float32; "float" or "double" as said."""
    if precision is None:
        return values is not None and values.dtype == np.float32
    if precision in ("float", "single"):
        return True
    if precision == "double":
        return False
    raise OptionError(-13, f"precision must be 'float', 'double' or None, not {precision!r}")


def view_code(view):
    try:
        return VIEWS[view]
    except (KeyError, TypeError):
        raise OptionError(-13, f"view must be one of {', '.join(VIEWS)}, not {view!r}") from None


def compressed(A, allow_complex=False):
    """(layout, indptr, indices, data) of a CSR or CSC matrix (others become CSR)."""
    if len(A.shape) != 2:
        raise InvalidInputError(-3, f"a matrix is 2-D, not of shape {A.shape}")
    if A.format not in ("csr", "csc"):
        A = A.tocsr()
    indptr, indices = index_arrays(A.indptr, A.indices)
    check_pointers(indptr, indices, A.shape[0] if A.format == "csr" else A.shape[1])
    return (0 if A.format == "csr" else 1), indptr, indices, value_array(A.data, allow_complex)


def check_pointers(indptr, indices, major):
    """What the library cannot see: its CSR / CSC description has no entry
    count, so the last index pointer must lie within the indices given
    (scipy checks it only when it builds a matrix, not when its arrays are
    replaced). The pointers' order and each index are checked by the library."""
    if indptr.ndim != 1:
        raise InvalidInputError(-5, f"the index pointers must be 1-D, not of shape {indptr.shape}")
    if len(indptr) != major + 1:
        raise InvalidInputError(-5, f"the index pointers have {len(indptr)} entries, expected {major + 1} "
                                    "(one more than the compressed dimension)")
    last = int(indptr[-1])
    if last < 0 or last > len(indices):
        raise InvalidInputError(-5, f"the last index pointer is {last}, outside 0..{len(indices)} "
                                    f"(the {len(indices)} indices given)")


def first_non_integer(a, dtype, xp=np):
    """(i, why) for the first value of a (flattened) that dtype's integers
    cannot hold exactly, why "not an integer" or "out of range"; None when
    every value fits. a: an integer, float or bool array of numpy or cupy
    (xp). Floats are compared in float64, where the bounds of 32- and 64-bit
    integers are exact (in float32, 2.0**31 equals int32's maximum)."""
    info = np.iinfo(dtype)
    fraction = None
    if a.dtype.kind == "f":
        f = a.astype(np.float64)
        fraction = ~xp.isfinite(f) | (f != xp.floor(f))
        bad = fraction | (f < float(info.min)) | (f >= float(info.max) + 1)
    else:
        bad = (a < info.min) | (a > info.max)
    if not bool(bad.any()):
        return None
    i = int(xp.flatnonzero(bad)[0])
    return i, "not an integer" if fraction is not None and bool(fraction.ravel()[i]) else "out of range"


def graph(A, view="auto", precision=None):
    """The C graph description of A (a path, a scipy.sparse matrix or array,
    or a square 2-D numpy array); it keeps A's arrays alive."""
    code = view_code(view)
    if isinstance(A, (str, os.PathLike)):
        path = os.fspath(A)
        if path != "-" and not os.path.exists(path):
            raise MissingFileError(-15, f"{path}: no such file", path)
        return _core.file_graph(path, code, single_precision(precision, None))
    if sp.issparse(A):
        if len(A.shape) != 2:
            raise InvalidInputError(-3, f"a graph's matrix is 2-D, not of shape {A.shape}")
        rows, cols = A.shape
        if A.format == "coo":
            row, col = index_arrays(A.row, A.col)
            data = value_array(A.data, False)
            return _core.coordinate_graph(rows, cols, row, col, data, code, single_precision(precision, data))
        layout, indptr, indices, data = compressed(A)
        return _core.compressed_graph(rows, cols, layout, indptr, indices, data, code,
                                      single_precision(precision, data))
    if isinstance(A, np.ndarray):
        if A.ndim != 2 or A.shape[0] != A.shape[1]:
            raise InvalidInputError(-3, f"a dense graph is a square 2-D array, not one of shape {A.shape}")
        if A.dtype.kind == "c":
            raise InvalidInputError(-8, "a complex dense array: a graph's weights are real (give abs(A) or A.real)")
        if view not in ("auto", "complete"):
            raise OptionError(-13, f"a dense array is a complete graph (view 'complete'), not {view!r}")
        if A.dtype not in _WEIGHT_TYPES:
            A = np.ascontiguousarray(A, dtype=np.float64)
        item = A.itemsize
        rows_fit = A.shape[0] <= 1 or (A.strides[1] == item and A.strides[0] % item == 0
                                       and A.strides[0] >= A.shape[1] * item)
        if not rows_fit:
            A = np.ascontiguousarray(A)
        return _core.dense_graph(A, single_precision(precision, A))
    raise TypeError("expected a scipy.sparse matrix or array, a square 2-D numpy array or a Matrix Market path, "
                    f"not {type(A).__name__}")
