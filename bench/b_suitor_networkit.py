#!/usr/bin/env python3
"""matchblas's b-Suitor against NetworKit's BSuitorMatcher, in one run.

    python3 -m venv build/networkit-venv
    build/networkit-venv/bin/pip install "networkit==11.1.post1" "numpy<2"
    build/networkit-venv/bin/python bench/b_suitor_networkit.py
        [--graph rmat|er] [--scale 20] [--edge-factor 8] [--file FILE.mtx]
        [--b 1,2,5] [--reps 3] [--inner 3] [--threads 1,2] [--dir DIR]
        [--bench build/bin/bench_b_matching] [--cli build/bin/matchblas]

NetworKit (BSuitorMatcher appears in 11.1; 11.1's wheels are built against
numpy 1.x) is this script's alone: the library and its tests never need it.

Writes the graph once with `matchblas gen KIND 2^SCALE --edge-factor F
--seed 1` (Matrix Market, weights with 17 significant digits) into DIR
(default /tmp), unless --file names one; both tools read that file, so
both hold the same double weights. NetworKit reads it with MTXGraphReader
and runs on one thread (setNumberOfThreads(1)); its time is BSuitorMatcher's
run() (wall and process CPU time; and, apart, its constructor, which
allocates the per-vertex offer lists, plus run()). matchblas's times are bench_b_matching's (--file: every
CPU b-matching entry of the registry, the OpenMP ones at each thread count,
the matcher call alone, its allocations included; wall and process CPU
time: on a machine shared with other work the CPU time of a one-thread run
leaves out the time it waited for a core). Each timed run follows an
untimed one of the same tool (--warmup; NetworKit run once more).
Interleaved: for each repetition and each b, NetworKit (the median of INNER
runs) then bench_b_matching (the median of INNER runs of each entry); the
median over repetitions of those; the load average (1 min) read before every pair. The b-matchings'
weights are compared (NetworKit's and b-greedy's; bench_b_matching checks
every matchblas entry against b-greedy edge for edge).
Prints one markdown table: per b the medians and the ratios the targets ask
for (NetworKit / b-suitor, b-suitor-omp 1 thread / 2 threads, b-greedy /
b-suitor).
"""
import argparse
import os
import statistics
import subprocess
import sys
import time
import warnings


def bench_rows(bench, path, b, threads, inner):
    """bench_b_matching's rows for one b: {(matcher, threads): (seconds, cpu seconds, edges, weight, same)}."""
    r = subprocess.run([bench, "--file", path, "--b", str(b), "--threads", threads, "--reps", str(inner),
                        "--warmup", "--no-gpu"],
                       check=True, capture_output=True, text=True)
    rows = {}
    for line in r.stdout.splitlines():
        f = line.split()
        if len(f) == 9 and f[0] == str(b):
            rows[(f[1], f[2])] = (float(f[3]), float(f[4]), int(f[6]), float(f[7]), f[8])
    if not rows:
        sys.exit("b_suitor_networkit: no rows from bench_b_matching:\n" + r.stdout + r.stderr)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--graph", choices=["rmat", "er"], default="rmat")
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--edge-factor", type=float, default=8)
    ap.add_argument("--file", default="")
    ap.add_argument("--b", default="1,2,5")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--inner", type=int, default=3)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--dir", default="/tmp")
    ap.add_argument("--bench", default="build/bin/bench_b_matching")
    ap.add_argument("--cli", default="build/bin/matchblas")
    a = ap.parse_args()
    warnings.filterwarnings("ignore")  # NetworKit's notice about pandas
    import networkit as nk

    path = a.file
    if not path:
        path = os.path.join(a.dir, f"b_suitor_{a.graph}{a.scale}_ef{a.edge_factor:g}.mtx")
        subprocess.run([a.cli, "gen", a.graph, str(1 << a.scale), "--edge-factor", f"{a.edge_factor:g}", "--seed", "1",
                        "--out", path], check=True)
    t0 = time.perf_counter()
    G = nk.graphio.MTXGraphReader().read(path)
    print(f"graph: {path}, {G.numberOfNodes()} vertices, {G.numberOfEdges()} edges; NetworKit {nk.__version__} "
          f"read it in {time.perf_counter() - t0:.1f} s", flush=True)
    nk.setNumberOfThreads(1)
    bs = [int(x) for x in a.b.split(",")]
    nk_s = {b: [] for b in bs}
    nk_total = {b: [] for b in bs}  # with the constructor (it allocates the offer lists)
    nk_cpu = {b: [] for b in bs}  # run()'s process CPU time
    mb = {b: {} for b in bs}
    weights = {}
    loads = []
    for rep in range(a.reps):
        for b in bs:
            loads.append(os.getloadavg()[0])
            nk.matching.BSuitorMatcher(G, b).run()  # warm-up, as bench_b_matching's --warmup
            runs, totals, cpus = [], [], []
            for _ in range(a.inner):
                t0 = time.perf_counter()
                m = nk.matching.BSuitorMatcher(G, b)
                t1, c1 = time.perf_counter(), time.process_time()
                m.run()
                runs.append(time.perf_counter() - t1)
                cpus.append(time.process_time() - c1)
                totals.append(time.perf_counter() - t0)
            nk_s[b].append(statistics.median(runs))
            nk_cpu[b].append(statistics.median(cpus))
            nk_total[b].append(statistics.median(totals))
            weights[b] = m.getBMatching().weight()
            for key, row in bench_rows(a.bench, path, b, a.threads, a.inner).items():
                mb[b].setdefault(key, []).append(row)
            print(f"rep {rep} b {b}: NetworKit {nk_s[b][-1]:.3f} s, "
                  + ", ".join(f"{k[0]}/{k[1]} {v[-1][0]:.3f} s" for k, v in mb[b].items()), flush=True)

    med = lambda rows, i=0: statistics.median(r[i] for r in rows)
    ts = a.threads.split(",")
    one, two = ts[0], ts[-1]
    print(f"\nload average (1 min) before each pair: min {min(loads):.2f}, median {statistics.median(loads):.2f}, "
          f"max {max(loads):.2f}; medians of {a.reps} pairs, each the median of {a.inner} runs")
    print(f"| b | NetworKit run() s (cpu s) | NetworKit with constructor s | b-suitor s (cpu s) "
          f"| NetworKit / b-suitor, wall (cpu) | b-suitor-omp {one}t s | b-suitor-omp {two}t s | omp {one}t / {two}t "
          f"| b-greedy s | b-greedy / b-suitor | weights equal |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for b in bs:
        r = mb[b]
        s, sc = med(r[("b-suitor", "1")]), med(r[("b-suitor", "1")], 1)
        o1, o2, gr = med(r[("b-suitor-omp", one)]), med(r[("b-suitor-omp", two)]), med(r[("b-greedy", "1")])
        nks, nkc = statistics.median(nk_s[b]), statistics.median(nk_cpu[b])
        ours = r[("b-greedy", "1")][-1][3]
        same = all(x[4] in ("yes", "ref") for rows in r.values() for x in rows)
        wsame = abs(ours - weights[b]) <= 1e-9 * max(1.0, abs(ours))
        print(f"| {b} | {nks:.3f} ({nkc:.3f}) | {statistics.median(nk_total[b]):.3f} | {s:.3f} ({sc:.3f}) "
              f"| {nks / s:.2f}x ({nkc / sc:.2f}x) | {o1:.3f} | {o2:.3f} | {o1 / o2:.2f}x | {gr:.3f} | {gr / s:.2f}x "
              f"| {'yes' if wsame and same else 'NO'} ({weights[b]:.6f}) |")


if __name__ == "__main__":
    main()
