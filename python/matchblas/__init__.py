"""matchblas: weighted matchings of graphs and sparse matrices, from Python.

    import matchblas, scipy.sparse as sp
    A = sp.random(1000, 1000, density=0.01, format="csr", random_state=1)
    mate, report = matchblas.match(A, "suitor")       # mate[u]: u's partner or -1
    mate, report = matchblas.match(A, "roma-sparse", phases=20, min_gain=1e-6)
    labels, report = matchblas.louvain(A, resolution=1.0)  # communities
    p = matchblas.diagonal_permutation(A, job=5)       # MC64-style pre-pass
    [a.name for a in matchblas.algorithms() if a.available]

Graphs come from matrices by the rules of the ``matchblas`` tool: a square
matrix is a general graph (vertex i = row i, weight max(|a_uv|, |a_vu|),
the diagonal ignored, zeros dropped), a rectangular one the bipartite view
(columns numbered after the rows), a square numpy array a complete graph.
Inputs are read in place where their types fit (_inputs.py says which);
the GIL is released while the library works; Ctrl-C (or an exception from
any Python signal handler) stops a call at the library's next check
(include/matchblas/interrupt.h says where); errors raise the exceptions of
matchblas.errors. The ops for prototyping are matchblas.ops.
"""

from dataclasses import dataclass
import os

import numpy as np
import scipy.sparse as sp

from . import _core, _inputs
from .errors import (DeviceError, Error, FileError, InternalError, InvalidInputError, MissingFileError, OptionError,
                     OutOfMemoryError, UnavailableError, UnknownAlgorithmError, raise_for)
from . import ops

__version__ = _core.version()
__all__ = ["match", "b_match", "marry", "louvain", "community_sets", "diagonal_permutation", "algorithms", "Report",
           "CommunityReport", "DiagonalPermutation",
           "Algorithm", "Option", "ops", "Error", "InvalidInputError", "UnknownAlgorithmError", "OptionError",
           "UnavailableError", "FileError", "MissingFileError", "OutOfMemoryError", "DeviceError", "InternalError"]


@dataclass(frozen=True)
class Report:
    """What a call did. setup_s: building the graph from the input (reading
    a file included); time_s: the algorithm alone (the tool's time_s)."""
    algo: str              # the algorithm that ran (the GPU / CPU twin when `device` chose one)
    graph: str             # "general", "bipartite", "complete" or "marriage"
    vertices: int          # of the graph (bipartite: rows + cols); marriage: men
    edges: int             # of the graph; marriage: the entries of the men's lists
    bipartite_rows: int    # bipartite view: vertices below it are rows, the rest columns; else 0
    weight: float          # of the matching (b-matching: of its edges); marriage: 0
    cardinality: int       # matched pairs (b-matching: edges; marriage: couples)
    phases: int            # the algorithm's phases where it counts them, else 0
    setup_s: float
    time_s: float

    @property
    def total_s(self):
        return self.setup_s + self.time_s


@dataclass(frozen=True, eq=False)  # holds arrays: compared and hashed by identity
class CommunityReport:
    """What a community detection call did (louvain). hierarchy[l][v]: the
    community of level l's vertex v, a vertex of level l + 1 (level 0: the
    input's vertices); the final moves of single vertices after the levels
    are in the labels only."""
    algo: str
    vertices: int
    edges: int             # undirected edges of the graph, loops aside
    resolution: float      # gamma
    modularity: float      # of the labels, at the resolution
    communities: int
    levels: int
    refine_moves: int      # moves of single vertices after the levels
    setup_s: float
    time_s: float
    hierarchy: tuple       # of numpy int64 arrays, one per level

    @property
    def total_s(self):
        return self.setup_s + self.time_s


@dataclass(frozen=True)
class Option:
    name: str              # as a keyword: dashes become underscores (min-gain: min_gain)
    type: str              # "integer", "real", "word", "flag" or "bytes"
    default: str
    words: tuple           # a word option's accepted words
    lo: float
    hi: float
    help: str


@dataclass(frozen=True)
class Algorithm:
    name: str
    problem: str           # "matching", "b-matching", "stable marriage", "bipartite" (the pre-pass) or
                           # "community detection"
    family: str
    device: str            # "cpu", "gpu" or "distributed" (the MPI entries, the tool's alone)
    twin: str              # the same algorithm on the other device, "" when none
    guarantee: str         # "greedy", "1/2", "2/3-eps", "exact", "maximal", ...
    summary: str
    graph_kinds: tuple     # ("general", "bipartite"), ...
    deterministic: bool
    threaded: bool
    job: int               # the pre-pass's MC64 job; else 0
    available: bool        # can run here (built, and a GPU present for GPU algorithms)
    unavailable: str       # why not
    options: tuple         # of Option


def _summary(a, k):
    """An array in a few characters: dtype[shape] and its first k values."""
    if a is None:
        return "None"
    a = np.asarray(a)
    text = f"{a.dtype}[{','.join(str(d) for d in a.shape)}]"
    if k == 0:
        return text
    head = [f"{x:.4g}" if a.dtype.kind == "f" else str(x) for x in a.reshape(-1)[:k].tolist()]
    return text + "(" + ", ".join(head + (["..."] if a.size > k else [])) + ")"


def _short(text, k=32):
    text = str(text)
    return repr(text if len(text) <= k else text[:k - 3] + "...")


@dataclass(frozen=True, repr=False, eq=False)  # as CommunityReport
class DiagonalPermutation:
    """The pre-pass's result (include/matchblas/prepass.h): perm[i] is the
    column matched to row i (square A; MC64's CPERM, SuperLU's perm_r), the
    mates are -1 where unmatched, and for job 5 the log scalings give
    |a_ij| exp(row_log_scale[i] + col_log_scale[j]) = 1 on the matching and
    <= 1 elsewhere. The arrays are numpy's, or CuPy's for a matrix on the
    GPU."""
    perm: object           # int64 (rows), None for a rectangular A
    row_mate: object
    col_mate: object
    row_log_scale: object  # float64 for job 5, else None
    col_log_scale: object
    status: int            # 0, 1 structurally singular (a maximum partial matching), 2 scalings near overflow
    job: int               # the job run
    matched: int
    objective: float
    min_matched_abs: float
    seconds: float
    message: str

    @property
    def structurally_singular(self):
        return self.status == 1

    def __repr__(self):
        # The scalars, then each array as dtype[shape] with its first values
        # (about 300 characters, a few hundred whatever n is); the fields hold them.
        return (f"DiagonalPermutation(job={self.job}, status={self.status}, matched={self.matched}, "
                f"objective={self.objective:.6g}, min_matched_abs={self.min_matched_abs:.4g}, "
                f"seconds={self.seconds:.3g}, message={_short(self.message)}, perm={_summary(self.perm, 3)}, "
                f"row_mate={_summary(self.row_mate, 0)}, col_mate={_summary(self.col_mate, 0)}, "
                f"row_log_scale={_summary(self.row_log_scale, 1)}, col_log_scale={_summary(self.col_log_scale, 1)})")


def _integer(value, name, lo, hi):
    """value as an int within lo..hi, else OptionError naming it (no bool, no float)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or not lo <= value <= hi:
        raise OptionError(-13, f"{name} must be an integer from {lo} to {hi}, not {value!r}")
    return int(value)


def _flags(algo):
    """The names (as keywords) of the flag options of the entries named algo
    and of their twins (which `device` may run instead)."""
    entries = {a.name: a for a in algorithms()}
    named = [a for a in entries.values() if a.name == algo]
    named += [entries[a.twin] for a in named if a.twin in entries]
    return {o.name for a in named for o in a.options if o.type == "flag"}


def _settings(algo, seed, threads, device, gpu, options):
    if not isinstance(algo, str):
        raise UnknownAlgorithmError(-12, f"the algorithm is named by a string, not {algo!r}")
    devices = {None: -1, "cpu": 0, "gpu": 1}
    if not isinstance(device, (str, type(None))) or device not in devices:
        raise OptionError(-13, f"device must be 'cpu', 'gpu' or None, not {device!r}")
    seed = _integer(seed, "seed", 0, 2**64 - 1)
    threads = _integer(threads, "threads", 0, 2**31 - 1)
    gpu = _integer(gpu, "gpu", 0, 2**31 - 1)
    listed = []
    for key, value in options.items():
        name = key.replace("_", "-")
        if value is None:
            continue  # not given: the default
        if isinstance(value, (bool, np.bool_)):
            if value:
                listed.append((name, ""))
            elif key.replace("-", "_") not in _flags(algo):
                raise OptionError(-13, f"{key}=False: False turns a flag off, and {key} is not a flag of {algo!r}")
        elif isinstance(value, (float, np.floating)):
            listed.append((name, repr(float(value))))
        else:
            listed.append((name, str(value)))
    return listed, seed, threads, devices[device], gpu


def _report(d):
    return Report(**d)


def match(A, algo="suitor", *, view="auto", precision=None, seed=1, threads=0, device=None, gpu=0, **options):
    """Runs a matching algorithm of the registry on A.

    A: a scipy.sparse matrix or array (CSR, CSC, COO, ...), a square 2-D
    numpy array (a complete graph) or a Matrix Market path. view: "auto",
    "general", "bipartite" or "complete". precision: "float" or "double"
    (None: float for float32 weights). options: the algorithm's own, as
    keywords (min_gain=1e-6 is --min-gain; True for a flag). threads: CPU
    threads (0: all); device: "cpu" or "gpu" runs that twin; gpu: its id.

    Returns (mate, report): mate[u] is u's partner, -1 when u is free
    (numpy int64, one per vertex), and a Report."""
    g = _inputs.graph(A, view, precision)
    status, message, mate, report = _core.match(g, algo, *_settings(algo, seed, threads, device, gpu, options))
    raise_for(status, message)
    return mate, _report(report)


def _b_values(b):
    """b as int64 (one value, or one per vertex: the library checks the
    count and the range); non-integral or non-numeric values refused."""
    if b is None or isinstance(b, (str, bytes)):
        raise InvalidInputError(-8, f"b must be an integer or an array of integers, not {b!r}")
    a = np.atleast_1d(np.asarray(b))
    if a.ndim != 1:
        raise InvalidInputError(-3, f"b must be one integer or a 1-D array, not of shape {a.shape}")
    if a.dtype.kind == "O":  # Python objects: ints only, converted exactly
        for i, x in enumerate(a.tolist()):
            if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
                raise InvalidInputError(-8, f"b[{i}] is {x!r}, not an integer")
            if not -2**63 <= x < 2**63:
                raise InvalidInputError(-8, f"b[{i}] is {x!r}, beyond a 64-bit integer")
        return np.array(a.tolist(), dtype=np.int64)
    if a.size and a.dtype.kind not in "iuf":
        raise InvalidInputError(-8, f"b must hold integers, not {a.dtype}")
    found = _inputs.first_non_integer(a, np.int64) if a.size else None
    if found:
        i, why = found
        why = "beyond a 64-bit integer" if why == "out of range" else why
        raise InvalidInputError(-8, f"b[{i}] is {a[i].item()!r}, {why}")
    return np.ascontiguousarray(a, dtype=np.int64)


def b_match(A, b, algo="b-suitor", *, view="auto", precision=None, seed=1, threads=0, device=None, gpu=0,
            **options):
    """A b-matching of A's graph: every vertex v in at most b[v] edges (b an
    int: the same for all). precision: "float" or "double" (None: float for
    float32 weights; b-suitor-gpu then compares offers as packed words, and
    placement="sorted" needs it). Returns (B, report): B a scipy.sparse
    csr_array of the graph's order whose row v holds v's partners (each edge
    in both rows), and a Report."""
    g = _inputs.graph(A, view, precision)
    bv = _b_values(b)
    status, message, offsets, partners, report = _core.b_match(
        g, algo, bv, *_settings(algo, seed, threads, device, gpu, options))
    raise_for(status, message)
    n = len(offsets) - 1
    B = sp.csr_array((np.ones(len(partners), dtype=np.int8), partners, offsets), shape=(n, n))
    return B, _report(report)


def louvain(A, algo="louvain-omp", *, resolution=1.0, threads=0, device=None, gpu=0, **options):
    """Communities of A's graph by the Louvain method (a community detection
    algorithm of the registry: "louvain", "louvain-omp" or "louvain-gpu").

    A: a square scipy.sparse matrix or array, a square 2-D numpy array or a
    Matrix Market path; its graph for community detection: w(u, v) =
    max(a_uv, a_vu), the values as given (a negative one raises
    InvalidInputError), a pattern's entries 1, the diagonal ignored.
    resolution: gamma (above 1: more, smaller communities). options: the
    algorithm's own as keywords (algorithms() lists each with its default):
    threshold, final_threshold, max_levels; coloring="on"|"off" for
    louvain-omp; refine="on"|"off" (off: the levels' partition without the
    final moves, no local optimum guarantee); together="strict"|"additive"|
    "drawn" for louvain-gpu (which neighbours move in one settling step).
    threads: CPU threads (0: all); gpu: the GPU's id. The Louvain entries
    have no twins: device is None or the entry's own ("gpu" for
    louvain-gpu); another raises OptionError.

    Returns (labels, report): labels[v] is v's community, 0..k-1 (numpy
    int64), and a CommunityReport (modularity, communities, hierarchy)."""
    g = _inputs.graph(A, "auto", "double")
    listed, _, threads, device, gpu = _settings(algo, 1, threads, device, gpu, options)
    listed.append(("resolution", repr(float(resolution))))
    status, message, labels, offsets, flat, report = _core.cluster(g, algo, listed, threads, device, gpu)
    raise_for(status, message)
    hierarchy = tuple(flat[offsets[l]:offsets[l + 1]] for l in range(len(offsets) - 1))
    return labels, CommunityReport(**report, hierarchy=hierarchy)


def community_sets(labels):
    """Labels as networkx's communities: a list of sets of vertices, one per
    community, in label order (networkx.community.modularity takes it)."""
    labels = np.asarray(labels)
    order = np.argsort(labels, kind="stable")
    bounds = np.flatnonzero(np.diff(labels[order])) + 1
    return [set(int(v) for v in part) for part in np.split(order, bounds)] if len(labels) else []


def _lists(lists):
    lengths = np.fromiter((len(x) for x in lists), dtype=np.int64, count=len(lists))
    offsets = np.zeros(len(lists) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    flat = np.fromiter((int(x) for row in lists for x in row), dtype=np.int64, count=int(offsets[-1]))
    return offsets, flat


def marry(men, women=None, algo="gale-shapley", *, seed=1, threads=0, device=None, gpu=0, **options):
    """The man-optimal stable matching. men[m]: man m's acceptable women,
    best first; women[w]: woman w's men (a pair counts when each lists the
    other). Or men a path to a file in the tool's format (women None).
    Returns (wife, husband, report), -1 for the single."""
    if isinstance(men, (str, os.PathLike)):
        if women is not None:
            raise TypeError("marry(path) takes no women lists")
        path = os.fspath(men)
        if path != "-" and not os.path.exists(path):
            raise MissingFileError(-15, f"{path}: no such file", path)
        empty = np.zeros(1, dtype=np.int64)
        args = (0, 0, empty, empty, empty, empty, path)
    else:
        if women is None:
            raise TypeError("marry(men, women): the women's lists are missing")
        mo, ml = _lists(men)
        wo, wl = _lists(women)
        args = (len(men), len(women), mo, ml, wo, wl, None)
    settings = _settings(algo, seed, threads, device, gpu, options)
    status, message, wife, husband, report = _core.marry(*args, algo, *settings)
    raise_for(status, message)
    return wife, husband, _report(report)


def diagonal_permutation(A, job=5, symmetric=False):
    """MC64's pre-pass on a sparse matrix (prepass.h): jobs 1 maximum
    cardinality, 2-3 bottleneck, 4 maximum sum, 5 maximum product with
    scalings, 0 none, -1 automatic. symmetric: job 5 on one triangle of a
    symmetric A (one scaling, in both). CSR and CSC are read in place; COO
    and other formats are converted to CSR first (duplicates summed).
    Returns a DiagonalPermutation; a structurally singular A is status 1,
    not an error. A cupyx.scipy.sparse A is read in place on its GPU
    (matchblas_prepass_device: job 1, and jobs 4-5 of a square A, wholly
    on the device) on that GPU's current CuPy stream, and the result's
    arrays are CuPy arrays there."""
    if isinstance(job, (bool, np.bool_)) or not isinstance(job, (int, np.integer)) or not -2**31 <= job < 2**31:
        raise InvalidInputError(-2, f"job must be an integer (-1 automatic, 0 to 5), not {job!r}")
    if ops._on_gpu(A) and hasattr(A, "format") and hasattr(A, "tocsr"):  # cupyx.scipy.sparse
        return _diagonal_permutation_on_device(A, job, symmetric)
    if not sp.issparse(A):
        raise TypeError("diagonal_permutation takes a scipy.sparse (or cupyx.scipy.sparse) matrix or array, "
                        f"not {type(A).__name__}")
    layout, indptr, indices, data = _inputs.compressed(A, allow_complex=True)
    g = _core.compressed_graph(A.shape[0], A.shape[1], layout, indptr, indices, data, 0, False)
    try:
        status, message, perm, row_mate, col_mate, row_scale, col_scale, info = _core.prepass(g, int(job),
                                                                                               bool(symmetric))
    except MemoryError as e:  # the outputs' allocation, before the library runs
        if isinstance(e, OutOfMemoryError):
            raise
        raise OutOfMemoryError(-10, f"the pre-pass's outputs for a {A.shape[0]} x {A.shape[1]} matrix: {e}") from None
    raise_for(status, message)
    scaled = info["job"] == 5
    return DiagonalPermutation(perm if A.shape[0] == A.shape[1] else None, row_mate, col_mate,
                               row_scale if scaled else None, col_scale if scaled else None, status, info["job"],
                               info["matched"], info["objective"], info["min_matched_abs"], info["seconds"], message)


def _diagonal_permutation_on_device(A, job, symmetric):
    with A.data.device:  # its GPU current: the outputs and the stream there
        return _diagonal_permutation_here(A, job, symmetric)


def _diagonal_permutation_here(A, job, symmetric):
    cp = ops._cupy()
    if A.format not in ("csr", "csc"):
        A = A.tocsr()
    rows, cols = A.shape
    index = np.int64 if max(A.indptr.dtype.itemsize, A.indices.dtype.itemsize) > 4 else np.int32
    indptr = cp.ascontiguousarray(A.indptr, dtype=index)
    indices = cp.ascontiguousarray(A.indices, dtype=index)
    _inputs.check_pointers(indptr, indices, rows if A.format == "csr" else cols)
    data = A.data if A.data.dtype in (np.float32, np.float64, np.complex64, np.complex128) else A.data.astype(np.float64)
    data = cp.ascontiguousarray(data)
    perm = cp.empty(rows, dtype=cp.int64) if rows == cols else None
    row_mate, col_mate = cp.empty(rows, dtype=cp.int64), cp.empty(cols, dtype=cp.int64)
    row_scale, col_scale = cp.empty(rows, dtype=cp.float64), cp.empty(cols, dtype=cp.float64)
    status, message, info = _core.prepass_device(rows, cols, 0 if A.format == "csr" else 1, indptr, indices, data,
                                                 int(job), bool(symmetric), perm, row_mate, col_mate, row_scale,
                                                 col_scale, cp.cuda.get_current_stream().ptr)
    raise_for(status, message)
    scaled = info["job"] == 5
    return DiagonalPermutation(perm, row_mate, col_mate, row_scale if scaled else None, col_scale if scaled else None,
                               status, info["job"], info["matched"], info["objective"], info["min_matched_abs"],
                               info["seconds"], message)


def algorithms():
    """The registry: every algorithm, in `matchblas list`'s order."""
    out = []
    for d in _core.algorithms():
        options = tuple(Option(o["name"].replace("-", "_"), o["type"], o["default"],
                               tuple(w for w in o["words"].split(",") if w), o["lo"], o["hi"], o["help"])
                        for o in d["options"])
        kinds = tuple(k for k in d["graph_kinds"].split(",") if k)
        out.append(Algorithm(d["name"], d["problem"], d["family"], d["device"], d["twin"], d["guarantee"],
                             d["summary"], kinds, d["deterministic"], d["threaded"], d["job"], d["available"],
                             d["unavailable"], options))
    return out
