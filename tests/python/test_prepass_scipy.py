#!/usr/bin/env python3
"""`matchblas perm` (the diagonal pre-pass, MC64's jobs 1, 4, 5) against scipy.

    test_prepass_scipy.py MATCHBLAS [MATRICES_DIR] [--random N] [--seed S] [--only TEXT]
                          [--peer-timeout S] [--peer-budget S] [--max-work W] [--keep DIR]

Inputs: every .mtx / .mtx.gz of MATRICES_DIR (MATCHBLAS_MATRICES in the
environment overrides it), and N seeded random matrices written here (square
and rectangular; ties; explicit zeros; duplicates that cancel; empty rows and
columns; Hall violators; symmetric storage; pattern, integer, gzip; 0 x 0).
Each file is run as `MATCHBLAS perm FILE --job J --json --out PERM --threads 1`
for J = 1, 4, 5 (these jobs are sequential; one thread spares OpenMP's start-up
in each of the ~720 runs) and read by scipy.io.mmread (duplicates summed, explicit zeros kept, as
matchblas reads it). A complex file is refused by the tool ("complex matrices
are not supported"); then its modulus, written as a real file, is checked.
Peers (scipy.sparse.csgraph, each call in a forked child, time-boxed):
  all jobs  matched == maximum_bipartite_matching's count on the pattern,
            explicit zeros included (every job first matches as many as it can)
  job 4     when a full matching exists (min(m, n) matched, any shape): the
            objective == min_weight_full_bipartite_matching(maximize=True) on
            |a| (plus c = half the smallest nonzero on every entry when there
            are explicit zeros: scipy drops zero weights, and a shift common to
            all entries changes no full matching's order)
  job 5     the same on log|a| of the nonzero entries shifted to >= 1; where the
            nonzeros have no full matching the objective must be null (a zero
            had to be matched)
Objectives agree within 1e-9 relative (for job 5 relative to the sum of |log|
over the matching where that is larger; the largest gap seen is 8e-14).
Without a peer, on every run: PERM is a permutation (square) or distinct
columns and zeros (rectangular); the rows i with (i, perm i) an entry of A are
exactly `matched` many (a maximum matching leaves no entry between unmatched
rows and columns); structurally_singular; the objective recomputed from those
entries (count; sum |a|; sum log|a|, null iff one is an explicit zero) and
min_matched_abs. Exit 0: all agree; 1: a mismatch, each named with matrix, job
and numbers (random ones replay with --seed S --only NAME --keep DIR); 77:
scipy is missing.
"""
import argparse
import gzip
import json
import math
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time

try:
    import numpy as np
    import scipy.io
    import scipy.sparse as sp
    from scipy.sparse.csgraph import maximum_bipartite_matching, min_weight_full_bipartite_matching
except ImportError as e:  # scripts/install_deps.sh installs Debian's python3-scipy
    print(f"skipped: {sys.executable} cannot import scipy ({e}); install python3-scipy")
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from random_matrices import write_random_matrices, write_mtx  # noqa: E402

JOBS = (1, 4, 5)
REL = 1e-9


def read_abs(path):
    """|A| (the modulus of a complex A) as a CSR matrix of doubles with sorted indices: duplicates summed
    (signed, before |.|), explicit zeros kept; and whether the file was complex."""
    with (gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb")) as f:
        a = sp.csr_matrix(scipy.io.mmread(f))  # sums duplicates, keeps explicit zeros
    a.sort_indices()
    return sp.csr_matrix((np.abs(a.data).astype(np.float64), a.indices, a.indptr), shape=a.shape), \
        np.iscomplexobj(a.data)


def lookup(a, rows, cols):
    """(present, values): whether (rows[k], cols[k]) is an entry of the CSR matrix a (sorted indices), and |a| there."""
    keys = np.repeat(np.arange(a.shape[0], dtype=np.int64), np.diff(a.indptr)) * a.shape[1] + a.indices
    want = np.asarray(rows, dtype=np.int64) * a.shape[1] + np.asarray(cols, dtype=np.int64)
    at = np.minimum(np.searchsorted(keys, want), max(a.nnz - 1, 0))
    present = (keys[at] == want) if a.nnz else np.zeros(len(want), dtype=bool)
    return present, a.data[at[present]] if a.nnz else np.zeros(0)


# ---- the peers, each run in a forked child --------------------------------------------------
def peer_matched(a):
    pattern = a.copy()
    pattern.data = np.ones_like(pattern.data)
    return int((maximum_bipartite_matching(pattern, perm_type="column") >= 0).sum())


def lapjvsp(w):
    """min_weight_full_bipartite_matching(w, maximize=True) as (rows, cols), or None without a full matching.

    A square w gets one empty column: then scipy skips LAPJV's initial column
    and row reductions, whose floating-point loop does not end on some inputs
    (scipy 1.10: west0067, 67 x 67, runs for minutes; Chebyshev2 214 s), and
    goes straight to the shortest augmenting paths. An empty column changes no
    full matching (every row matched). Without a full matching (checked first
    by Hopcroft-Karp) scipy 1.10 does not end on a rectangular w either."""
    m, n = w.shape
    if peer_matched(w) < min(m, n):  # scipy 1.10 loops on a rectangular w without a full matching
        return None
    if m == n:
        w = sp.csr_matrix((w.data, w.indices, w.indptr), shape=(m, n + 1))
    return min_weight_full_bipartite_matching(w, maximize=True)


def peer_max_sum(a):
    """Job 4: (sum |a|, scale) of scipy's maximum-weight full matching, or 'nofull'."""
    w = a.copy()
    nonzero = w.data[w.data > 0]
    if len(nonzero) < len(w.data):  # explicit zeros: shift every entry by c
        w.data = w.data + (nonzero.min() / 2 if len(nonzero) else 1.0)
    got = lapjvsp(w)
    if got is None:
        return "nofull"
    present, values = lookup(a, *got)
    assert present.all()
    return math.fsum(values), 0.0


def peer_max_product(a):
    """Job 5: (sum log|a|, scale) of scipy's maximum-weight full matching on the nonzeros, or 'nofull'."""
    w = a.copy()
    w.eliminate_zeros()
    shift = 0.0
    if w.nnz:
        w.data = np.log(w.data)
        shift = 1.0 - w.data.min()
        w.data = w.data + shift
    got = lapjvsp(w)
    if got is None:
        return "nofull"
    present, values = lookup(a, *got)
    assert present.all() and (values > 0).all()
    logs = np.log(values)
    return math.fsum(logs), math.fsum(np.abs(logs))


class Peers:
    """scipy calls in forked children: each at most `timeout` s, all together at most `budget` s."""

    def __init__(self, timeout, budget, max_work):
        self.timeout, self.budget, self.max_work = timeout, budget, max_work
        self.spent = 0.0
        self.ctx = multiprocessing.get_context("fork")

    def run(self, fn, a):
        """fn(a), or a string saying why it was not run to the end."""
        if a.shape[0] * a.nnz > self.max_work:
            return f"skipped (n*nnz = {a.shape[0] * a.nnz:.3g} > --max-work {self.max_work:g})"
        timeout = min(self.timeout, self.budget - self.spent)
        if timeout <= 0:
            return f"skipped (the scipy budget of {self.budget:g} s is spent)"
        reader, writer = self.ctx.Pipe(duplex=False)

        def child():
            try:
                writer.send(("ok", fn(a)))
            except Exception as e:  # reported as a failure of the peer
                writer.send(("error", f"{type(e).__name__}: {e}"))

        start = time.perf_counter()
        p = self.ctx.Process(target=child)
        p.start()
        writer.close()
        try:
            if not reader.poll(timeout):
                return f"skipped (scipy's {fn.__name__} ran past {timeout:.1f} s)"
            status, value = reader.recv()
        except EOFError:
            status, value = "error", f"the child died (exit {p.exitcode})"
        finally:
            p.kill()
            p.join()
            self.spent += time.perf_counter() - start
        if status == "error":
            raise RuntimeError(f"scipy's {fn.__name__} failed: {value}")
        return value


# ---- one matrix -------------------------------------------------------------------------
def run_cli(cli, path, job, perm_path):
    p = subprocess.run([cli, "perm", path, "--job", str(job), "--json", "--out", perm_path, "--threads", "1"],
                       capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        return None, p.returncode, p.stderr.strip()
    with open(perm_path) as f:
        perm = [int(x) for x in f.read().split()]
    return (json.loads(p.stdout), perm), 0, p.stderr.strip()


def close(x, y, scale=0.0):
    return abs(x - y) <= REL * max(abs(x), abs(y), scale)


def self_check(a, job, report, perm, fail):
    """The checks that need no peer; returns the matched entries' |a| (row order)."""
    m, n = a.shape
    if len(perm) != m:
        return fail(f"PERM has {len(perm)} lines for {m} rows")
    p = np.asarray(perm, dtype=np.int64)
    if m == n:
        if sorted(perm) != list(range(1, n + 1)):
            return fail("PERM is not a permutation of 1..n")
        rows, cols = np.arange(m), p - 1
    else:
        taken = p[p != 0]
        if ((taken < 1) | (taken > n)).any() or len(np.unique(taken)) != len(taken):
            return fail("PERM's columns are out of range or repeated")
        rows, cols = np.nonzero(p)[0], taken - 1
    present, values = lookup(a, rows, cols)
    if m != n and not present.all():
        return fail("PERM matches a row to a column where A has no entry")
    matched = report["cardinality"]
    if len(values) != matched:
        return fail(f"PERM puts {len(values)} entries of A on the diagonal; the report says matched {matched}")
    if report["structurally_singular"] != (matched < min(m, n)):
        return fail(f"structurally_singular is {report['structurally_singular']} with {matched} of {min(m, n)}")
    if matched and report["min_matched_abs"] != values.min():
        return fail(f"min_matched_abs {report['min_matched_abs']!r}, PERM's entries give {values.min()!r}")
    got = report["objective"]
    if job == 1 and got != matched:
        return fail(f"objective {got} is not the matched count {matched}")
    if job == 4 and not close(got, math.fsum(values)):
        return fail(f"objective {got!r}, PERM's entries sum to {math.fsum(values)!r}")
    if job == 5:
        if (values == 0).any():
            if got is not None:
                return fail(f"objective {got!r} though PERM matches an explicit zero (expected null)")
        elif got is None:
            return fail("objective null though PERM matches no zero")
        else:
            logs = np.log(values)
            if not close(got, math.fsum(logs), math.fsum(np.abs(logs))):
                return fail(f"objective {got!r}, PERM's entries give sum log {math.fsum(logs)!r}")
    return values


def run_jobs(name, path, a, is_complex, cli, tmp, tally, failures, notes):
    """{job: report} of the runs that pass self_check. A complex file the tool refuses is run as its modulus."""
    runs = {}
    for job in JOBS:
        got, rc, err = run_cli(cli, path, job, os.path.join(tmp, "perm.txt"))
        if got is None and is_complex and rc == 1 and "complex" in err:
            notes.append("complex: refused by the tool, its modulus checked")
            path = os.path.join(tmp, os.path.basename(name) + ".abs.mtx")
            coo = a.tocoo()  # the modulus, explicit zeros too
            write_mtx(path, a.shape[0], a.shape[1], coo.row, coo.col, coo.data, "real")
            got, rc, err = run_cli(cli, path, job, os.path.join(tmp, "perm.txt"))
        if got is None:
            failures.append(f"{name} job {job}: matchblas exited {rc}: {err}")
            continue
        report, perm = got

        def fail(msg, job=job):
            failures.append(f"{name} job {job}: {msg}")

        if self_check(a, job, report, perm, fail) is not None:
            runs[job] = report
            tally["self"] += 1
    return runs


def compare_objectives(name, a, runs, peers, tally, failures, notes):
    """Jobs 4 and 5 against scipy on a matrix with a full matching."""
    m, n = a.shape
    for job, fn in ((4, peer_max_sum), (5, peer_max_product)):
        if job not in runs:
            continue
        want, got = peers.run(fn, a), runs[job]["objective"]
        if want == "nofull" and job == 4:
            failures.append(f"{name} job 4: scipy finds no full matching of {m} x {n}, matchblas matched "
                            f"{runs[job]['cardinality']}")
        elif want == "nofull":  # the nonzeros have no full matching: a zero must be matched
            tally["null5"] += 1
            notes.append("job 5 null = scipy (a zero must be matched)")
            if got is not None:
                failures.append(f"{name} job 5: objective {got!r}, but the nonzero entries have no full "
                                f"matching (scipy), so a zero must be matched and the objective be null")
        elif isinstance(want, str):
            notes.append(f"job {job}: min_weight_full_bipartite_matching {want}")
        else:
            tally[f"objective{job}"] += 1
            notes.append(f"job {job} = scipy")
            if got is None or not close(got, want[0], want[1]):
                failures.append(f"{name} job {job}: objective {got!r}, scipy's min_weight_full_bipartite_"
                                f"matching {want[0]!r} ({m} x {n}, {a.nnz} entries, matched "
                                f"{runs[job]['cardinality']})")


def check_file(name, path, cli, peers, tmp, tally, failures, verbose):
    a, is_complex = read_abs(path)
    m, n = a.shape
    notes = []
    runs = run_jobs(name, path, a, is_complex, cli, tmp, tally, failures, notes)
    matched = peers.run(peer_matched, a)
    if isinstance(matched, str):
        notes.append(f"maximum_bipartite_matching {matched}")
    else:
        notes.append("matched = scipy")
        for job, report in runs.items():
            tally[f"count{job}"] += 1
            if report["cardinality"] != matched:
                failures.append(f"{name} job {job}: matched {report['cardinality']}, scipy's maximum_bipartite_matching "
                                f"{matched} ({m} x {n}, {a.nnz} entries)")
    if matched == min(m, n) or (isinstance(matched, str) and runs.get(1, {}).get("cardinality") == min(m, n)):
        compare_objectives(name, a, runs, peers, tally, failures, notes)
    elif not isinstance(matched, str):
        tally["singular"] += 1
        notes.append("no full matching: no objective peer")
    if verbose:
        print(f"  {name:28} {m:6d} x {n:<6d} {a.nnz:7d} entries, matched {runs.get(1, {}).get('matched', '?'):>6}: "
              f"{'; '.join(notes)}", flush=True)
    elif any("skipped" in x for x in notes):
        print(f"  {name}: {'; '.join(x for x in notes if 'skipped' in x)}", flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("cli")
    p.add_argument("matrices", nargs="?", default="")
    p.add_argument("--random", type=int, default=200, help="seeded random matrices (default 200)")
    p.add_argument("--seed", type=int, default=20240611)
    p.add_argument("--only", default="", help="check only the matrices whose name contains TEXT")
    p.add_argument("--peer-timeout", type=float, default=5.0, help="seconds one scipy call may take")
    p.add_argument("--peer-budget", type=float, default=60.0, help="seconds all scipy calls may take")
    p.add_argument("--max-work", type=float, default=1e10, help="skip scipy where rows x entries exceeds W")
    p.add_argument("--keep", default="", help="write the random matrices to DIR and keep them")
    args = p.parse_args()
    start = time.perf_counter()
    folder = os.environ.get("MATCHBLAS_MATRICES") or args.matrices
    peers = Peers(args.peer_timeout, args.peer_budget, args.max_work)
    tally = {k: 0 for k in ("self", "count1", "count4", "count5", "objective4", "objective5", "null5", "singular")}
    failures = []
    shared = []
    if folder and os.path.isdir(folder):
        shared = sorted(f for f in os.listdir(folder) if f.endswith((".mtx", ".mtx.gz")) and args.only in f)
    else:
        print(f"  the shared matrices are not at '{folder}'; checking the random ones only")
    with tempfile.TemporaryDirectory() as tmp:
        if shared:
            print(f"shared matrices ({folder}):")
        for f in shared:
            check_file(f, os.path.join(folder, f), args.cli, peers, tmp, tally, failures, verbose=True)
        where = args.keep or os.path.join(tmp, "random")
        os.makedirs(where, exist_ok=True)
        randoms = [r for r in write_random_matrices(where, args.random, args.seed) if args.only in r]
        print(f"random matrices (seed {args.seed}): {len(randoms)}")
        for f in randoms:
            check_file(f, os.path.join(where, f), args.cli, peers, tmp, tally, failures, verbose=False)
    for msg in failures:
        print("MISMATCH " + msg)
    print(f"test_prepass_scipy: {len(shared)} shared + {len(randoms)} random matrices; matched = scipy's "
          f"maximum_bipartite_matching on {tally['count1']} (jobs 1, 4, 5); job 4 objective = scipy on "
          f"{tally['objective4']}, job 5 on {tally['objective5']} (+ null where a zero must be matched on "
          f"{tally['null5']}); {tally['singular']} structurally singular (no objective peer); "
          f"{tally['self']} runs self-checked; scipy {peers.spent:.1f} s; {len(failures)} mismatches; "
          f"{time.perf_counter() - start:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
