"""Every error path: each C status reaches Python as its exception (also the
builtin a caller expects) with the library's message; bad arguments caught
on the Python side; allocation failure; Ctrl-C."""

import _thread
import os
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest
import scipy.sparse as sp

import matchblas
from matchblas import errors
from conftest import available, random_graph


def graph():
    return random_graph(50, 0.1, seed=1)


def test_every_status_has_its_exception():
    expected = {-1: matchblas.InvalidInputError, -2: matchblas.InvalidInputError, -3: matchblas.InvalidInputError,
                -4: matchblas.InvalidInputError, -5: matchblas.InvalidInputError, -6: matchblas.InvalidInputError,
                -7: matchblas.InvalidInputError, -8: matchblas.InvalidInputError, -9: matchblas.InvalidInputError,
                -10: matchblas.OutOfMemoryError, -11: matchblas.InternalError, -12: matchblas.UnknownAlgorithmError,
                -13: matchblas.OptionError, -14: matchblas.UnavailableError, -15: matchblas.FileError,
                -16: matchblas.DeviceError, -17: matchblas.InvalidInputError}
    for status, cls in expected.items():
        with pytest.raises(cls) as e:
            errors.raise_for(status, "the message")
        assert e.value.status == status and e.value.message == "the message"
        assert e.value.status_name == matchblas._core.status_string(status) != "unknown status"
        assert str(e.value) == f"{e.value.status_name}: the message"
    with pytest.raises(KeyboardInterrupt):
        errors.raise_for(errors.INTERRUPTED, "interrupted")
    assert matchblas._core.status_string(errors.INTERRUPTED) == "interrupted"
    for status in (0, 1, 2):
        errors.raise_for(status, "fine")
    assert issubclass(matchblas.InvalidInputError, ValueError)
    assert issubclass(matchblas.OutOfMemoryError, MemoryError)
    assert issubclass(matchblas.MissingFileError, FileNotFoundError)


def raises(cls, pattern, f, *args, **kwargs):
    with pytest.raises(cls, match=pattern) as e:
        f(*args, **kwargs)
    return e.value


def test_bad_arrays():
    A = graph()
    B = A.copy()
    B.indptr[0] = 1
    raises(matchblas.InvalidInputError, "pointers", matchblas.match, B)
    B = A.copy()
    B.indptr[5], B.indptr[6] = B.indptr[6], B.indptr[5] - 1
    raises(matchblas.InvalidInputError, "pointers decrease at row", matchblas.match, B)
    B = A.copy()
    B.indices[3] = 1000
    e = raises(matchblas.InvalidInputError, "entry 3 has index 1000", matchblas.match, B)
    assert e.status == -6
    C = A.tocoo()
    C.row[4] = -1
    raises(matchblas.InvalidInputError, "entry 4 is", matchblas.match, C)
    B = A.copy()
    B.data[2] = np.nan
    assert raises(matchblas.InvalidInputError, "not finite", matchblas.match, B).status == -8
    D = np.ones((4, 4))
    D[1, 2] = np.inf
    raises(matchblas.InvalidInputError, r"dense entry \(1, 2\) is not finite", matchblas.match, D)
    raises(matchblas.InvalidInputError, "complex", matchblas.match, A.astype(np.complex128))
    raises(ValueError, "square", matchblas.match, np.ones((3, 4)))
    raises(TypeError, "expected a scipy.sparse", matchblas.match, [[1, 2], [3, 4]])


def test_bad_entries_of_large_inputs_are_named():
    # Over 2^18 entries the library copies the arrays in parallel and checks
    # each entry as it goes; the first bad one is still the one named.
    A = sp.random(60000, 60000, density=5 / 60000, format="csr", random_state=np.random.default_rng(4))
    assert A.nnz > 2**18
    B = A.copy()
    B.indices[-1], B.indices[-5] = 70000, 80000
    raises(matchblas.InvalidInputError, f"entry {A.nnz - 5} has index 80000", matchblas.match, B)
    B = A.copy()
    B.data[-3], B.data[7] = np.inf, np.nan
    raises(matchblas.InvalidInputError, "not finite", matchblas.match, B)
    C = A.tocoo(copy=True)  # (without copy, C's arrays are A's)
    row, col, nnz = C.row, C.col, C.nnz  # scipy checks the indices when asked for nnz
    col[-2], C.data[-4] = 60000, np.nan  # the NaN comes first
    raises(matchblas.InvalidInputError, rf"the entry \({row[-4]}, {col[-4]}\) is not finite", matchblas.match, C)
    C = A.tocoo(copy=True)
    row, nnz = C.row, C.nnz
    row[nnz // 2] = -7
    raises(matchblas.InvalidInputError, rf"entry {nnz // 2} is \(-7, ", matchblas.match, C)


def test_prepass_errors():
    A = graph()
    raises(matchblas.InvalidInputError, "job", matchblas.diagonal_permutation, A, job=7)
    e = raises(matchblas.InvalidInputError, "symmetric mode needs a square matrix", matchblas.diagonal_permutation,
               sp.csr_matrix(np.ones((2, 3))), job=5, symmetric=True)
    assert e.status == -9
    dup = sp.csr_matrix((np.ones(2), np.array([0, 0]), np.array([0, 2, 2])), shape=(2, 2))
    assert raises(matchblas.InvalidInputError, r"\(0, 0\)", matchblas.diagonal_permutation, dup).status == -7
    raises(TypeError, "scipy.sparse", matchblas.diagonal_permutation, np.eye(3))


def test_algorithm_and_option_errors():
    A = graph()
    raises(matchblas.UnknownAlgorithmError, "unknown matcher 'nope'", matchblas.match, A, "nope")
    raises(matchblas.UnknownAlgorithmError, "b-suitor", matchblas.match, A, "b-suitor")
    raises(matchblas.OptionError, "phases", matchblas.match, A, "suitor", phases=3)
    raises(matchblas.OptionError, "phases", matchblas.match, A, "roma-sparse", phases=-3)
    raises(matchblas.OptionError, "start", matchblas.match, A, "roma-sparse", start="bogus")
    raises(matchblas.OptionError, "no-such", matchblas.match, A, "roma-sparse", no_such=1)
    raises(matchblas.OptionError, "threads", matchblas.match, A, "suitor", threads=10**6)
    raises(matchblas.OptionError, "device", matchblas.match, A, "suitor", device="tpu")
    raises(matchblas.OptionError, "seed", matchblas.match, A, "suitor", seed=-1)
    raises(matchblas.OptionError, "precision", matchblas.match, A, "suitor", precision="half")
    raises(matchblas.OptionError, "view", matchblas.match, A, "suitor", view="sideways")
    raises(matchblas.OptionError, "complete", matchblas.match, np.ones((3, 3)), "greedy", view="general")
    raises(matchblas.InvalidInputError, "does not accept general graphs", matchblas.match, A, "roma")
    raises(matchblas.InvalidInputError, "sparse graphs", matchblas.b_match, np.ones((4, 4)), 1, "b-greedy")
    assert raises(matchblas.InvalidInputError, "b has 3 values", matchblas.b_match, A, [1, 2, 3]).status == -3
    raises(matchblas.InvalidInputError, "b\\[0\\] = -1", matchblas.b_match, A, -1)
    raises(matchblas.InvalidInputError, "list entry 0 is 5", matchblas.marry, [[5]], [[0]])
    raises(TypeError, "women", matchblas.marry, [[0]])


def test_arguments_the_library_cannot_check_are_checked_here():
    A = graph()
    # The C description has no entry count: a last pointer beyond the
    # indices (scipy checks it only when it builds the matrix) is refused
    # before the library reads past the arrays.
    for major in ("csr", "csc"):
        B = A.asformat(major, copy=True)
        B.indptr = B.indptr.copy()
        B.indptr[-1] = 10**7
        for call in (matchblas.match, lambda M: matchblas.b_match(M, 1), matchblas.louvain,
                     matchblas.diagonal_permutation, matchblas.ops.Matrix):
            e = raises(matchblas.InvalidInputError, "last index pointer is 10000000, outside 0..", call, B)
            assert e.status == -5
    B = A.copy()
    B.indices, B.data = B.indices[:0], B.data[:0]
    raises(matchblas.InvalidInputError, "outside 0..0", matchblas.match, B)
    raises(matchblas.InvalidInputError, "complex dense", matchblas.match, np.ones((3, 3)) * 1j)
    raises(matchblas.InvalidInputError, "square 2-D", matchblas.match, np.ones((3, 4)))
    # b: integers only, never truncated or wrapped.
    for b, what in ((1.5, r"b\[0\] is 1.5"), (np.nan, r"b\[0\] is nan"), ("2", "not '2'"), (None, "not None"),
                    (2**63, "beyond a 64-bit"), ([[1]], "1-D")):
        raises(matchblas.InvalidInputError, what, matchblas.b_match, A, b)
    assert matchblas.b_match(A, 2.0)[1].cardinality == matchblas.b_match(A, 2)[1].cardinality
    assert matchblas.b_match(A, np.full(50, 2, dtype=object))[1].cardinality == matchblas.b_match(A, 2)[1].cardinality
    raises(matchblas.InvalidInputError, "beyond a 64-bit", matchblas.b_match, A, [2**64])
    raises(matchblas.InvalidInputError, "beyond a 64-bit", matchblas.b_match, A, 2.0**63)
    # False for a flag of the twin that device runs is a flag (roma-gpu's bf16), not an error.
    D = np.ones((4, 4))
    if available("roma-gpu"):
        assert matchblas.match(D, "roma", device="gpu", bf16=False)[1].algo == "roma-gpu"
    else:
        raises(matchblas.UnavailableError, "roma-gpu", matchblas.match, D, "roma", device="gpu", bf16=False)
    # Run settings and options: one OptionError naming them.
    raises(matchblas.OptionError, "threads must be an integer", matchblas.match, A, threads=1.5)
    raises(matchblas.OptionError, "threads must be an integer", matchblas.match, A, threads=2**40)
    raises(matchblas.OptionError, "gpu must be an integer", matchblas.match, A, gpu=-1)
    raises(matchblas.OptionError, "seed must be an integer", matchblas.match, A, seed=True)
    raises(matchblas.OptionError, "phases=False", matchblas.match, A, "roma-sparse", phases=False)
    raises(matchblas.OptionError, "view must be one of", matchblas.match, A, view=[])
    raises(matchblas.UnknownAlgorithmError, "not None", matchblas.match, A, None)
    raises(matchblas.InvalidInputError, "job must be an integer", matchblas.diagonal_permutation, A, job=2**40)
    # numpy scalars as option values (NumPy 2's repr is np.float64(...)).
    mine = matchblas.match(A, "roma-sparse", min_gain=np.float64(1e-6), phases=np.int64(3))[1].weight
    assert mine == matchblas.match(A, "roma-sparse", min_gain=1e-6, phases=3)[1].weight
    assert matchblas.match(A, "roma-sparse", phases=None)[1].weight == matchblas.match(A, "roma-sparse")[1].weight


def test_errors_pickle():
    import pickle
    for cls in (matchblas.InvalidInputError, matchblas.OptionError, matchblas.OutOfMemoryError, matchblas.FileError):
        e = pickle.loads(pickle.dumps(cls(-8, "the message")))
        assert type(e) is cls and e.status == -8 and e.message == "the message" and str(e).endswith("the message")


def test_missing_file_error_is_an_oserror_with_its_fields():
    import errno
    import pickle
    e = raises(matchblas.MissingFileError, "no such file", matchblas.match, "/no/such/file.mtx")
    assert isinstance(e, FileNotFoundError) and e.errno == errno.ENOENT and e.filename == "/no/such/file.mtx"
    assert str(e) == "bad file: /no/such/file.mtx: no such file" == str(pickle.loads(pickle.dumps(e)))


def test_file_names_that_are_not_utf8(tmp_path):
    # Linux file names are bytes: a Latin-1 name comes through os.fsencode's
    # surrogateescape, and a message naming it shows the byte as \\xe9.
    folder = os.fsencode(tmp_path)
    good, bad = os.path.join(folder, b"gr\xe9ph.mtx"), os.path.join(folder, b"b\xe9d.mtx")
    with open(good, "wb") as f:
        f.write(b"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 3.0\n")
    with open(bad, "wb") as f:
        f.write(b"%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1.0\n")
    assert matchblas.match(os.fsdecode(good), "greedy")[0].tolist() == [1, 0]
    raises(matchblas.FileError, r"b\\xe9d.mtx:3: row index 3", matchblas.match, os.fsdecode(bad))
    marriage = os.path.join(folder, b"m\xe9.txt")
    with open(marriage, "wb") as f:
        f.write(b"stable-marriage 1 1\n0\n0\n")
    assert matchblas.marry(os.fsdecode(marriage))[0].tolist() == [0]


def test_ops_masks_and_vertex_ids_are_not_wrapped():
    A = sp.random(6, 6, density=0.5, random_state=1, format="csr")
    M = matchblas.ops.Matrix(A)
    # A mask is true where non-zero, whatever its dtype (256 is not 0).
    assert np.array_equal(matchblas.ops.argmax(M, row_mask=np.full(6, 256))[0], matchblas.ops.argmax(M)[0])
    assert np.array_equal(matchblas.ops.argmax(M, row_mask=np.full(6, 0.5))[0], matchblas.ops.argmax(M)[0])
    raises(matchblas.InvalidInputError, "entry 0 is 4294967295, not an integer of int32", matchblas.ops.select, M,
           np.full(6, 2**32 - 1))
    raises(matchblas.InvalidInputError, "entry 0 is 1.5", matchblas.ops.select, M, np.full(6, 1.5))
    floor = (np.zeros(6), np.full(6, 2**40))
    raises(matchblas.InvalidInputError, "not an integer of int32", matchblas.ops.argmax, M, floor=floor)
    out = np.zeros(3, dtype=np.int32)
    raises(matchblas.InvalidInputError, "not an integer of int32", matchblas.ops.assign, out, None,
           np.array([1, 2**40, 3]))
    assert np.array_equal(matchblas.ops.assign(out, None, np.array([1, 2, 3], dtype=np.int64)), [1, 2, 3])
    # Values are not masks: a uint8 out keeps them; the top of a range is checked in float64 (2.0**31 in
    # float32 equals int32's max there); a scalar value is checked too.
    assert matchblas.ops.assign(np.zeros(3, np.uint8), None, np.array([5, 7, 200])).tolist() == [5, 7, 200]
    raises(matchblas.InvalidInputError, "2147483648.0", matchblas.ops.assign, out, None,
           np.array([2.0**31, 1, 1], np.float32))
    raises(matchblas.InvalidInputError, "1099511627776", matchblas.ops.assign, out, None, np.int64(2**40))
    raises(matchblas.InvalidInputError, "1.5", matchblas.ops.assign, out, None, 1.5)
    assert matchblas.ops.select(M, np.full(6, -1, np.float16)).nnz == M.nnz


def test_unavailable():
    A = graph()
    if available("suitor-gpu"):
        pytest.skip("this machine has a GPU: suitor-gpu runs")
    e = raises(matchblas.UnavailableError, "cannot run here", matchblas.match, A, "suitor-gpu")
    assert isinstance(e, RuntimeError)
    raises(matchblas.UnavailableError, "suitor-gpu", matchblas.match, A, "suitor", device="gpu")


def test_files(tmp_path):
    missing = tmp_path / "missing.mtx"
    e = raises(matchblas.MissingFileError, "no such file", matchblas.match, missing)
    assert isinstance(e, FileNotFoundError)
    raises(FileNotFoundError, "no such file", matchblas.marry, str(missing))
    bad = tmp_path / "bad.mtx"
    bad.write_text("%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.0\n9 2 1.0\n")
    e = raises(matchblas.FileError, "bad.mtx:4", matchblas.match, bad)
    assert e.status == -15
    bad_marriage = tmp_path / "bad.txt"
    bad_marriage.write_text("stable-marriage 1 1\nx\n0\n")
    raises(matchblas.FileError, "bad.txt", matchblas.marry, bad_marriage)


def test_allocation_failure_is_memory_error():
    # A child whose address space is capped just above what it uses once
    # the input exists: the library's allocations fail, and the call must
    # raise MemoryError (OutOfMemoryError), not crash.
    script = textwrap.dedent("""
        import resource, sys
        import numpy as np, scipy.sparse as sp
        import matchblas
        n = 200000
        rng = np.random.default_rng(1)
        A = sp.random(n, n, density=20 / n, format="coo", random_state=rng)
        with open("/proc/self/status") as f:
            vm = next(int(l.split()[1]) for l in f if l.startswith("VmSize:")) * 1024
        resource.setrlimit(resource.RLIMIT_AS, (vm + (96 << 20), resource.RLIM_INFINITY))
        try:
            matchblas.match(A, "suitor", threads=1)
        except matchblas.OutOfMemoryError as e:
            print("MemoryError", e.status, e)
            sys.exit(0)
        print("no error")
        sys.exit(1)
    """)
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "MemoryError -10" in r.stdout


def test_threads_the_system_cannot_start_are_an_error_not_an_exit():
    # Each OpenMP thread asks for an 8 GiB stack under a 4 GiB address-space
    # limit: the OpenMP runtime would print "Thread creation failed" and end
    # the process; the call must raise instead, for any thread count, and a
    # one-thread call must still run.
    script = textwrap.dedent("""
        import resource, sys
        import matchblas
        from conftest import random_graph
        A = random_graph(200, 0.05, seed=2)
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, resource.RLIM_INFINITY))
        for threads in (2, 0):
            try:
                matchblas.match(A, "suitor-locks", threads=threads)
                print("no error", threads)
                sys.exit(1)
            except matchblas.OutOfMemoryError as e:
                assert "cannot start" in str(e), e
        mate, report = matchblas.match(A, "suitor-locks", threads=1)
        print("ok", report.cardinality)
    """)
    env = dict(os.environ, OMP_STACKSIZE="8G", OMP_NUM_THREADS="4")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env,
                       cwd=os.path.dirname(os.path.abspath(__file__)))
    assert r.returncode == 0 and "ok" in r.stdout, r.stdout + r.stderr


def test_ctrl_c_stops_a_long_run_and_the_next_call_works():
    # The pre-pass's job 5 polls between its searches; on this matrix it
    # runs for tens of seconds. A simulated Ctrl-C after 0.3 s must stop it
    # within a few seconds and raise KeyboardInterrupt.
    n = 100000
    A = sp.random(n, n, density=8 / n, format="csc", random_state=np.random.default_rng(1))
    timer = threading.Timer(0.3, _thread.interrupt_main)
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        matchblas.diagonal_permutation(A, job=5)
    elapsed = time.monotonic() - start
    timer.join()
    assert elapsed < 5.0, f"the interrupted call took {elapsed:.1f} s"
    mate, report = matchblas.match(graph(), "suitor")  # the flag does not outlive its call
    assert report.cardinality > 0


def test_calls_from_other_threads():
    A = graph()
    expected = matchblas.match(A, "suitor")[0]
    results = [None] * 4

    def work(i):
        results[i] = matchblas.match(A, "suitor", threads=1)[0]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(np.array_equal(r, expected) for r in results)


def test_the_gil_is_released_during_a_call():
    # While another thread's call runs in the library (the pre-pass, at least
    # 0.4 s: the matrix grows until one call takes that long on this machine),
    # this thread keeps running Python: the gaps between its loop's iterations
    # stay far below the call's length.
    n = 15000
    while True:
        A = sp.random(n, n, density=8 / n, format="csc", random_state=np.random.default_rng(2))
        t = time.monotonic()
        matchblas.diagonal_permutation(A, job=5)
        if time.monotonic() - t > 0.4 or n >= 960000:
            break
        n *= 2
    worker = threading.Thread(target=matchblas.diagonal_permutation, args=(A,), kwargs={"job": 5})
    start = time.monotonic()
    worker.start()
    last, largest_gap, iterations = start, 0.0, 0
    while worker.is_alive():
        now = time.monotonic()
        largest_gap, last = max(largest_gap, now - last), now
        iterations += 1
    worker.join()
    length = time.monotonic() - start
    assert length > 0.2, "the call was too short to tell"
    assert largest_gap < length / 4 and iterations > 1000, (largest_gap, length, iterations)
