#!/usr/bin/env python3
"""matchblas's Louvain entries against NetworKit's PLM (parallel Louvain), in one run.

    build/python-venv/bin/pip install networkit     # (11.x; this script's alone)
    build/python-venv/bin/python bench/louvain_networkit.py
        [--graphs rmat:16,rmat:18,er:18,grid:512,lfr:1000000:0.3] [--threads 1,2] [--reps 3]
        [--algos louvain,louvain-omp,louvain-gpu/refine=off] [--cli build/bin/matchblas] [--dir /tmp]

Each graph is written once by `matchblas gen KIND N --seed 1` (Matrix Market;
rmat and er: N = 2^SCALE vertices, 16 edges per vertex; grid: N x N) and read
by both tools (lfr:N:MU, an LFR graph with planted communities, is drawn by
NetworKit's generator: generated_graph.py): matchblas by `cluster`, NetworKit from the same entries
(scipy.io.mmread, the graph rules: w(u,v) = max(a_uv, a_vu), diagonal
ignored) through GraphFromCoo. Times are the algorithm alone: `cluster
--json`'s time_s (the graph in memory; the final refinement included) and
PLM's run() (refine off, its defaults otherwise: turbo, recursion, gamma 1).
An entry may carry option values after slashes (louvain-gpu/refine=off:
`--refine off`). `louvain` runs on one thread, `louvain-omp` and PLM at each thread count,
`louvain-gpu` once (time_s includes the graph's upload and the input check
on the host; "stages" is the levels' and the final moves' time alone, the
graph on the device). The median of REPS runs; each tool's modularity is its
own report (the same definition: matchblas's equals networkx's to 1e-12,
tests). Prints one markdown table: per graph a row per tool and thread
count: modularity, seconds, the final moves' seconds, first-level edges
per second (by time_s), and the ratios to PLM on the most threads listed:
modularity, and PLM's time over the row's (above 1: faster than PLM).
"""
import argparse
import json
import statistics
import subprocess
import time

import networkit as nk
import numpy as np
import scipy.io
import scipy.sparse as sp

from generated_graph import graph_file


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--graphs", default="rmat:16,rmat:18,er:18,grid:512")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--algos", default="louvain,louvain-omp")
    ap.add_argument("--cli", default="build/bin/matchblas")
    ap.add_argument("--dir", default="/tmp")
    a = ap.parse_args()
    threads = [int(t) for t in a.threads.split(",")]
    print("| graph | vertices | edges | tool | threads | Q | s | refine s | stages s | Medges/s | Q / PLM's | PLM s / s |")
    print("|---|--:|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|")
    for spec in a.graphs.split(","):
        path = graph_file(spec, a.cli, a.dir)
        m = sp.csr_matrix(scipy.io.mmread(path), dtype=float)
        m.setdiag(0)
        m.eliminate_zeros()
        w = sp.triu(abs(m).maximum(abs(m).T), k=1).tocoo()
        g = nk.GraphFromCoo((w.data, (w.row.astype(np.uint64), w.col.astype(np.uint64))), n=m.shape[0],
                            weighted=True, directed=False)
        edges = g.numberOfEdges()
        rows = []  # (tool, threads, Q, s, refine s, stages s)

        def ours(entry, t):
            algo, *settings = entry.split("/")  # "louvain-gpu/refine=off": an option's value
            runs = []
            for _ in range(a.reps):
                extra = ["--threads", str(t)] if t else []
                for setting in settings:
                    name, value = setting.split("=")
                    extra += ["--" + name, value]
                r = subprocess.run([a.cli, "cluster", path, "--algo", algo, *extra, "--json", "--quiet"],
                                   check=True, capture_output=True, text=True)
                runs.append(json.loads(r.stdout))
            stages = [sum(x["time_s"] for x in r["levels"]) + r["refine_s"] for r in runs]
            rows.append((entry, t, runs[0]["modularity"], statistics.median(x["time_s"] for x in runs),
                         statistics.median(x["refine_s"] for x in runs), statistics.median(stages)))

        for entry in a.algos.split(","):
            algo = entry.split("/")[0]
            for t in threads if algo == "louvain-omp" else [1 if algo == "louvain" else 0]:
                ours(entry, t)
        for t in threads:
            nk.setNumberOfThreads(t)
            times, qs = [], []
            for _ in range(a.reps):
                plm = nk.community.PLM(g, refine=False)
                start = time.perf_counter()
                plm.run()
                times.append(time.perf_counter() - start)
                qs.append(nk.community.Modularity().getQuality(plm.getPartition(), g))
            rows.append(("PLM", t, statistics.median(qs), statistics.median(times), None, None))
        plm_q, plm_s = rows[-1][2], rows[-1][3]
        for tool, t, q, s, refine, stages in rows:
            cell = lambda x: "-" if x is None else f"{x:.3f}"
            print(f"| {spec} | {g.numberOfNodes()} | {edges} | {tool} | {t if t else '-'} | {q:.4f} | {s:.3f} | "
                  f"{cell(refine)} | {cell(stages)} | {edges / s / 1e6:.1f} | {q / plm_q:.4f} | {plm_s / s:.2f} |",
                  flush=True)


if __name__ == "__main__":
    main()
