#!/usr/bin/env python3
"""matchblas's Louvain entries against NetworKit's PLM (parallel Louvain), in one run.

    build/python-venv/bin/pip install networkit     # (11.x; this script's alone)
    build/python-venv/bin/python bench/louvain_networkit.py
        [--graphs rmat:16,rmat:18,er:18,grid:512] [--threads 1,2] [--reps 3]
        [--cli build/bin/matchblas] [--dir /tmp]

Each graph is written once by `matchblas gen KIND N --seed 1` (Matrix Market;
rmat and er: N = 2^SCALE vertices, 16 edges per vertex; grid: N x N) and read
by both tools: matchblas by `cluster`, NetworKit from the same entries
(scipy.io.mmread, the graph rules: w(u,v) = max(a_uv, a_vu), diagonal
ignored) through GraphFromCoo. Times are the algorithm alone: `cluster
--json`'s time_s (the graph in memory; the final refinement included) and
PLM's run() (refine off, its defaults otherwise: turbo, recursion, gamma 1).
The median of REPS runs; each tool's modularity is its own report (the
same definition: matchblas's equals networkx's to 1e-12, tests). Prints one
markdown table: per graph and thread count the modularity of each, the
times and NetworKit / matchblas.
"""
import argparse
import json
import os
import statistics
import subprocess
import time

import networkit as nk
import numpy as np
import scipy.io
import scipy.sparse as sp


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--graphs", default="rmat:16,rmat:18,er:18,grid:512")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--cli", default="build/bin/matchblas")
    ap.add_argument("--dir", default="/tmp")
    a = ap.parse_args()
    threads = [int(t) for t in a.threads.split(",")]
    print("| graph | vertices | edges | threads | louvain Q | louvain s | louvain-omp Q | louvain-omp s | PLM Q | PLM s | PLM / louvain-omp |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for spec in a.graphs.split(","):
        kind, size = spec.split(":")
        n = int(size) if kind == "grid" else 1 << int(size)
        path = os.path.join(a.dir, f"louvain_{kind}_{size}.mtx")
        if not os.path.exists(path):
            subprocess.run([a.cli, "gen", kind, str(n), "--seed", "1", "--out", path], check=True)
        m = sp.csr_matrix(scipy.io.mmread(path), dtype=float)
        m.setdiag(0)
        m.eliminate_zeros()
        w = sp.triu(abs(m).maximum(abs(m).T), k=1).tocoo()
        g = nk.GraphFromCoo((w.data, (w.row.astype(np.uint64), w.col.astype(np.uint64))), n=m.shape[0],
                            weighted=True, directed=False)
        edges = g.numberOfEdges()

        def ours(algo, t):
            runs = []
            for _ in range(a.reps):
                r = subprocess.run([a.cli, "cluster", path, "--algo", algo, "--threads", str(t), "--json", "--quiet"],
                                   check=True, capture_output=True, text=True)
                runs.append(json.loads(r.stdout))
            return runs[0]["modularity"], statistics.median(x["time_s"] for x in runs)

        q1, s1 = ours("louvain", 1)
        for t in threads:
            qo, so = ours("louvain-omp", t)
            nk.setNumberOfThreads(t)
            times, qs = [], []
            for _ in range(a.reps):
                plm = nk.community.PLM(g, refine=False)
                start = time.perf_counter()
                plm.run()
                times.append(time.perf_counter() - start)
                qs.append(nk.community.Modularity().getQuality(plm.getPartition(), g))
            sn = statistics.median(times)
            print(f"| {spec} | {g.numberOfNodes()} | {edges} | {t} | {q1:.4f} | {s1:.3f} | {qo:.4f} | {so:.3f} | "
                  f"{statistics.median(qs):.4f} | {sn:.3f} | {sn / so:.2f} |", flush=True)


if __name__ == "__main__":
    main()
