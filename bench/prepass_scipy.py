#!/usr/bin/env python3
"""The pre-pass against its peers in one run: bench_prepass (matchblas's
bipartite registry entries and HSL MC64, SuperLU's copy) and scipy on the same
matrices, as ratios, with the objectives compared.

    prepass_scipy.py [--bench build/bin/bench_prepass] [--threads 1,2] [--reps 3]
                     [--no-scipy-sum] INPUT...

INPUT is what bench_prepass takes (a .mtx file or stencil2d:SIDE,
stencil3d:SIDE, circuit:N, heavy:N[:DEGREE]). scipy's peers:
maximum_bipartite_matching (Hopcroft-Karp) for job 1 and
min_weight_full_bipartite_matching (LAPJVsp) with maximize=True for job 4 on
|a| and job 5 on log|a| shifted to be positive (scipy drops zero weights; the
shift changes no full matching's order), as given and with one empty column
more (its setup stage is very slow on some square inputs; the answer is the
same), the faster of the two. Square structurally nonsingular
matrices only for LAPJVsp (it needs a full matching). Prints one table and,
with --json, one JSON object per matrix.
"""
import argparse
import json
import multiprocessing
import math
import os
import subprocess
import sys
import tempfile
import time

try:
    import numpy as np
    import scipy.sparse as sp
    from scipy.sparse.csgraph import maximum_bipartite_matching, min_weight_full_bipartite_matching
except ImportError as e:  # scripts/install_deps.sh installs python3-scipy
    sys.exit(f"prepass_scipy.py: needs numpy and scipy ({e}); try /usr/bin/python3")


def read_csr(path):
    with open(path, "rb") as f:
        rows, cols, nnz = np.fromfile(f, dtype="<i8", count=3)
        offsets = np.fromfile(f, dtype="<i8", count=rows + 1)
        indices = np.fromfile(f, dtype="<i4", count=nnz)
        values = np.fromfile(f, dtype="<f8", count=nnz)
    return sp.csr_matrix((values, indices, offsets), shape=(rows, cols))


def median_time(reps, f):
    times, out = [], None
    for _ in range(max(reps, 1)):
        start = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2], out


def in_child(timeout, f):
    """f() in a forked process: (seconds, result), or None past `timeout` s."""
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=lambda: queue.put(f()))
    child.start()
    try:
        return queue.get(timeout=timeout)
    except Exception:  # queue.Empty: too slow
        return None
    finally:
        child.kill()
        child.join()


def scipy_row(a, reps, with_sum, timeout):
    n = a.shape[0]
    row = {}
    pattern = a.copy()
    pattern.data = np.ones_like(pattern.data)

    def job1():
        s, match = median_time(reps, lambda: maximum_bipartite_matching(pattern, perm_type="column"))
        return s, int((match >= 0).sum())

    got = in_child(timeout, job1)
    row["scipy_job1_s"], row["scipy_job1_matched"] = got if got else (None, None)
    if a.shape[0] != a.shape[1]:
        return row
    absval = a.copy()
    absval.data = np.abs(absval.data)
    absval.eliminate_zeros()
    logs = absval.copy()
    logs.data = np.log(logs.data)
    shift = 1.0 - logs.data.min()
    logs.data += shift
    # scipy 1.10's LAPJVsp spends minutes in its setup stage on some square
    # inputs; one empty column more makes it skip that stage without
    # changing the answer (every row is still matched), but is slower on
    # others: both are timed and the faster counts, so the peer is measured
    # at its best.
    pad = sp.csr_matrix((n, 1))
    jobs = [(5, logs, -n * shift)] + ([(4, absval, 0.0)] if with_sum else [])
    for job, w, offset in jobs:
        best = None
        for weights in (w, sp.hstack([w, pad], format="csr")):
            def solve(weights=weights):
                try:
                    s, (r, c) = median_time(reps, lambda: min_weight_full_bipartite_matching(weights, maximize=True))
                    return s, float(weights[r, c].sum()) + offset
                except ValueError:  # no full matching of the nonzero weights
                    return None, None
            got = in_child(timeout, solve)
            if got and got[0] is not None and (best is None or got[0] < best[0]):
                best = got
        row[f"scipy_job{job}_s"], row[f"scipy_job{job}_objective"] = best if best else (None, None)
    return row


def same(x, y):
    return x is not None and y is not None and abs(x - y) <= 1e-9 * max(1.0, abs(x), abs(y))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="+")
    p.add_argument("--bench", default=os.path.join(os.path.dirname(__file__), "..", "build", "bin", "bench_prepass"))
    p.add_argument("--threads", default="1,2")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--algos", default="")
    p.add_argument("--no-scipy-sum", action="store_true", help="skip LAPJVsp on job 4 (slow on heavy tails)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--timeout", type=float, default=120, help="seconds a scipy call may take (longer: shown as >T)")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [args.bench, "--json", "--dump", tmp, "--threads", args.threads, "--reps", str(args.reps)]
        if args.algos:
            cmd += ["--algos", args.algos]
        ours = {}
        for inp in args.inputs:
            out = subprocess.run(cmd + [inp], check=True, capture_output=True, text=True).stdout
            for line in out.splitlines():
                r = json.loads(line)
                ours.setdefault(r["matrix"], []).append(r)
        print(f"{'matrix':24} {'n':>9} {'nnz':>10} {'what':34} {'seconds':>10} {'vs':>12} {'ratio':>7}  objective")
        for name, runs in ours.items():
            a = read_csr(os.path.join(tmp, name + ".csr"))
            peer = scipy_row(a, args.reps, not args.no_scipy_sum, args.timeout)
            n, nnz = a.shape[0], a.nnz

            def line(what, s, vs_name, vs_s, note=""):
                if vs_s is None:  # the peer ran past --timeout
                    ratio = f">{args.timeout / s:.0f}"
                else:
                    ratio = f"{vs_s / s:.2f}"
                print(f"{name:24} {n:9d} {nnz:10d} {what:34} {s:10.4f} {vs_name:>13} {ratio:>7}  {note}")

            for r in runs:
                what = f"{r['algo']} (job {r['job']}, {r['threads']} thr)"
                if r["job"] == 1:
                    ok = "= scipy" if r["matched"] == peer["scipy_job1_matched"] else \
                        "(scipy timed out)" if peer["scipy_job1_matched"] is None else "DIFFERS from scipy"
                    line(what, r["seconds"], "scipy HK", peer["scipy_job1_s"], f"matched {r['matched']} {ok}")
                if r["job"] in (2, 4, 5) and r["mc64_seconds"] is not None:
                    ok = "= MC64" if same(r["objective"], r["mc64_objective"]) else f"MC64 {r['mc64_objective']:.12g}"
                    if r["algo"] == "awpm" and r["mc64_objective"]:
                        ok = f"gap to MC64 {100 * (1 - r['objective'] / r['mc64_objective']):.3g}%"
                    line(what, r["seconds"], "MC64", r["mc64_seconds"], f"{r['objective']:.12g} {ok}")
                key = f"scipy_job{r['job']}_s"
                if r["job"] in (4, 5) and key in peer and r["algo"] != "awpm":
                    want = peer["scipy_job%d_objective" % r["job"]]
                    ok = "(scipy timed out)" if want is None else "= scipy" if same(r["objective"], want) else \
                        f"scipy {want:.12g}"
                    line(what, r["seconds"], "scipy LAPJVsp", peer[key], ok)
            if args.json:
                print(json.dumps({"matrix": name, "n": n, "nnz": nnz, "matchblas": runs, "scipy": peer}))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
