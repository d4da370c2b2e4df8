#!/usr/bin/env python3
"""What calling matchblas through Python costs over the tool, in one run.

    PYTHONPATH=build/python build/python-venv/bin/python bench/python_overhead.py
        [--cli build/bin/matchblas] [--scale 20] [--algos suitor,greedy] [--reps 5]
        [--threads 0] [--form csr|coo] [--dir DIR]

Writes an R-MAT graph with `matchblas gen rmat 2^SCALE --seed 1` (kept in
DIR, default /tmp), reads it once with scipy.io.mmread into the form asked
(the arrays Python code would hold: CSR by default, int32 indices, float64
values), then for each algorithm alternates REPS runs of

    tool:    matchblas match FILE --algo A --json --threads T
             its setup_s + time_s: building the graph from the parsed matrix
             and matching (the file's parsing, read_s, excluded: the Python
             caller's matrix is already in memory)
    python:  matchblas.match(A, A, threads=T), the wall time of the whole
             call: the conversion of the caller's arrays, the same graph
             building, matching, the result handed back, the thread and the
             GIL handling; and its report's setup_s + time_s

and prints the medians, the mates compared (they must be equal), and the
ratio python wall / tool (setup_s + time_s): the overhead of the Python
route. One markdown row per algorithm (bench/RESULTS.md).

--tutorial also times docs/prototyping.md's Suitor (Python over
matchblas.ops) on the same matrix against matchblas.match(A, "suitor-bulk")
(the library's same algorithm over the same ops) and "suitor", mates
compared with greedy's.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np
import scipy.io

import matchblas


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cli", default="build/bin/matchblas")
    p.add_argument("--scale", type=int, default=20)
    p.add_argument("--algos", default="suitor,greedy")
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--form", choices=["csr", "coo"], default="csr")
    p.add_argument("--dir", default="/tmp")
    p.add_argument("--tutorial", action="store_true")
    a = p.parse_args()

    path = os.path.join(a.dir, f"rmat{a.scale}_seed1.mtx")
    if not os.path.exists(path):
        subprocess.run([a.cli, "gen", "rmat", str(2**a.scale), "--seed", "1", "--out", path], check=True)
    t = time.perf_counter()
    A = scipy.io.mmread(path)
    A = A.tocsr() if a.form == "csr" else A.tocoo()
    if a.form == "csr":
        A.indptr, A.indices = A.indptr.astype(np.int32), A.indices.astype(np.int32)
    print(f"# {path}: {A.shape[0]} x {A.shape[1]}, {A.nnz} stored entries ({a.form}), "
          f"read by scipy in {time.perf_counter() - t:.1f} s; threads {a.threads}; reps {a.reps}", flush=True)
    print("| algo | tool setup_s + time_s | python wall | python setup_s + time_s | ratio wall / tool | mates equal |")
    print("|---|---|---|---|---|---|")
    for algo in a.algos.split(","):
        tool, wall, inner = [], [], []
        mate_tool = mate_py = None
        for rep in range(a.reps):
            out = os.path.join(a.dir, f"python_overhead_{algo}.mate")
            r = subprocess.run([a.cli, "match", path, "--algo", algo, "--json", "--threads", str(a.threads)]
                               + (["--out", out] if rep == 0 else []), check=True, capture_output=True, text=True)
            j = json.loads(r.stdout)
            tool.append(j["setup_s"] + j["time_s"])
            if rep == 0:
                mate_tool = np.loadtxt(out, dtype=np.int64)
            t = time.perf_counter()
            mate_py, report = matchblas.match(A, algo, threads=a.threads)
            wall.append(time.perf_counter() - t)
            inner.append(report.setup_s + report.time_s)
        equal = bool(np.array_equal(mate_tool, mate_py))
        tm, wm, im = statistics.median(tool), statistics.median(wall), statistics.median(inner)
        print(f"| {algo} | {tm:.3f} s | {wm:.3f} s | {im:.3f} s | {wm / tm:.3f} | {equal} |", flush=True)
        print(f"#   {algo} all runs: tool {[round(x, 3) for x in tool]}, python wall {[round(x, 3) for x in wall]}")
        if not equal:
            sys.exit(f"{algo}: the tool's and Python's mates differ")
    if a.tutorial:
        tutorial(A, a.threads)


def tutorial(A, threads):
    import re
    page = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "prototyping.md")
    namespace = {}
    exec(re.search(r"```python\n(.*?)```", open(page).read(), re.S).group(1), namespace)
    greedy, _ = matchblas.match(A, "greedy", threads=threads)
    t = time.perf_counter()
    mate = namespace["suitor"](A)
    python_s = time.perf_counter() - t
    assert np.array_equal(mate, greedy), "the tutorial's matching differs from greedy's"
    print("| matcher | wall s | vs tutorial |")
    print("|---|---|---|")
    print(f"| docs/prototyping.md suitor (Python over matchblas.ops) | {python_s:.3f} | 1.00 |")
    for algo in ("suitor-bulk", "suitor"):
        t = time.perf_counter()
        m, r = matchblas.match(A, algo, threads=threads)
        wall = time.perf_counter() - t
        assert np.array_equal(m, greedy)
        print(f"| matchblas.match {algo} (time_s {r.time_s:.3f}) | {wall:.3f} | {wall / python_s:.2f} |")


if __name__ == "__main__":
    main()
