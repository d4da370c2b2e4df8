#!/usr/bin/env python3
"""What calling matchblas through Python costs over the tool, in one run.

    PYTHONPATH=build/python build/python-venv/bin/python bench/python_overhead.py
        [--cli build/bin/matchblas] [--scale 20] [--algos suitor,greedy] [--reps 3]
        [--threads 0] [--form csr|coo] [--dir DIR] [--pairings "same entries,as stored"] [--tutorial]

Writes an R-MAT graph with `matchblas gen rmat 2^SCALE --seed 1` (a
symmetric file: one triangle stored) and the same matrix as a general file
holding both triangles (scipy.io.mmwrite), both kept in DIR (default /tmp);
reads the matrix once with scipy.io.mmread (both triangles) as the arrays a
Python caller holds (CSR with int32 indices and float64 values by default).
Then for each algorithm it alternates REPS runs of

    tool:    matchblas match FILE --algo A --json --threads T, its
             setup_s + time_s: the graph rules on the parsed matrix and the
             matcher (parsing the file, read_s, excluded: a Python caller's
             matrix is already in memory)
    python:  matchblas.match(M, A, threads=T), the wall time of the whole
             call: reading the caller's arrays into the library's matrix,
             the same graph rules and matcher, the result handed back, the
             worker thread and the GIL; and its report's setup_s + time_s

on two pairings:
    same entries   the tool on the general file, Python on both triangles:
                   the same entries reach the same graph rules (the target's
                   comparison: python wall / tool setup_s + time_s)
    as stored      the tool on the symmetric file, Python on its lower
                   triangle (the entries the file stores; the rules then take
                   different paths: informative only)
The mates must be equal. One markdown row per algorithm and pairing
(bench/RESULTS.md).

--tutorial also times docs/prototyping.md's Suitor (Python over
matchblas.ops, on both triangles as given) against the library's
suitor-bulk (the same algorithm over the same ops) and suitor (time_s),
mates compared with greedy's.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

import numpy as np
import scipy.io
import scipy.sparse

import matchblas


def tool_run(cli, path, algo, threads, out=None):
    r = subprocess.run([cli, "match", path, "--algo", algo, "--json", "--threads", str(threads)]
                       + (["--out", out] if out else []), check=True, capture_output=True, text=True)
    j = json.loads(r.stdout)
    return j["setup_s"] + j["time_s"]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cli", default="build/bin/matchblas")
    p.add_argument("--scale", type=int, default=20)
    p.add_argument("--algos", default="suitor,greedy")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--form", choices=["csr", "coo"], default="csr")
    p.add_argument("--dir", default="/tmp")
    p.add_argument("--pairings", default="same entries,as stored")
    p.add_argument("--tutorial", action="store_true")
    a = p.parse_args()

    symmetric = os.path.join(a.dir, f"rmat{a.scale}_seed1.mtx")
    general = os.path.join(a.dir, f"rmat{a.scale}_seed1_general.mtx")
    if not os.path.exists(symmetric):
        subprocess.run([a.cli, "gen", "rmat", str(2**a.scale), "--seed", "1", "--out", symmetric], check=True)
    t = time.perf_counter()
    both = scipy.io.mmread(symmetric)
    read_s = time.perf_counter() - t
    if not os.path.exists(general):
        scipy.io.mmwrite(general, both, symmetry="general")

    def form(M):
        M = M.tocsr() if a.form == "csr" else M.tocoo()
        if a.form == "csr":
            M.indptr, M.indices = M.indptr.astype(np.int32), M.indices.astype(np.int32)
        return M

    pairings = {"same entries": (general, form(both)), "as stored": (symmetric, form(scipy.sparse.tril(both)))}
    pairings = {k: v for k, v in pairings.items() if k in a.pairings.split(",")}
    print(f"# {symmetric}: {both.shape[0]} x {both.shape[1]}, {both.nnz} entries (both triangles), read by scipy "
          f"in {read_s:.1f} s; Python input {a.form}; threads {a.threads}; reps {a.reps}", flush=True)
    print("| algo | pairing | tool setup_s + time_s | python wall | python setup_s + time_s "
          "| ratio python wall / tool | mates equal |")
    print("|---|---|---|---|---|---|---|")
    for algo in a.algos.split(","):
        for pairing, (path, M) in pairings.items():
            tool, wall, inner = [], [], []
            out = os.path.join(a.dir, f"python_overhead_{algo}.mate")
            for rep in range(a.reps):
                tool.append(tool_run(a.cli, path, algo, a.threads, out if rep == 0 else None))
                t = time.perf_counter()
                mate, report = matchblas.match(M, algo, threads=a.threads)
                wall.append(time.perf_counter() - t)
                inner.append(report.setup_s + report.time_s)
            equal = bool(np.array_equal(np.loadtxt(out, dtype=np.int64), mate))
            tm, wm, im = statistics.median(tool), statistics.median(wall), statistics.median(inner)
            print(f"| {algo} | {pairing} | {tm:.3f} s | {wm:.3f} s | {im:.3f} s | {wm / tm:.3f} | {equal} |",
                  flush=True)
            print(f"#   {algo}, {pairing}, all runs: tool {[round(x, 3) for x in tool]}, "
                  f"python wall {[round(x, 3) for x in wall]}", flush=True)
            if not equal:
                sys.exit(f"{algo}: the tool's and Python's mates differ")
    if a.tutorial:
        tutorial(form(both), a.threads)


def tutorial(A, threads):
    page = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "prototyping.md")
    namespace = {}
    exec(re.search(r"```python\n(.*?)```", open(page).read(), re.S).group(1), namespace)
    greedy, _ = matchblas.match(A, "greedy", threads=threads)
    t = time.perf_counter()
    mate = namespace["suitor"](A)
    python_s = time.perf_counter() - t
    assert np.array_equal(mate, greedy), "the tutorial's matching differs from greedy's"
    print("| matcher | seconds |")
    print("|---|---|")
    print(f"| docs/prototyping.md's suitor in Python over matchblas.ops (wall, ops.Matrix(A) included) "
          f"| {python_s:.3f} |")
    for algo in ("suitor-bulk", "suitor"):
        m, r = matchblas.match(A, algo, threads=threads)
        assert np.array_equal(m, greedy)
        print(f"| the library's {algo} (report time_s: the matcher alone) | {r.time_s:.3f} |", flush=True)


if __name__ == "__main__":
    main()
