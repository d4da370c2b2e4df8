#!/usr/bin/env python3
"""The thresholds study of Naim, Manne, Halappanavar and Tumeo (Community
detection on the GPU, IPDPS 2017, Figure 1) on matchblas's Louvain entries:
the modularity and time of each entry when a level's moves stop at a gain
below th_bin (--threshold), the last levels at th_final (--final-threshold),
relative to the sequential `louvain` with both at 1e-6 (the reference).

    PYTHONPATH=build-cpu/python build/python-venv/bin/python bench/louvain_thresholds.py
        [--graphs rmat:16,er:16,grid:256] [--algos louvain,louvain-omp] [--threads 0]
        [--bins 1e-1,1e-2,1e-3,1e-4,1e-6] [--final 1e-6] [--cli build-cpu/bin/matchblas] [--dir /tmp]

Each graph is written once by `matchblas gen KIND N --seed 1` (rmat and er:
N = 2^SCALE vertices, 16 edges per vertex; grid: N x N) and read through
matchblas.louvain. One run per point (the entries are deterministic); the
time is the algorithm's own (report.time_s). Prints one markdown table:
per graph, entry and th_bin the modularity, its ratio to the reference's,
the levels, the time and its ratio to the reference's.
"""
import argparse

import matchblas

from generated_graph import graph_file


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--graphs", default="rmat:16,er:16,grid:256")
    ap.add_argument("--algos", default="louvain,louvain-omp")
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--bins", default="1e-1,1e-2,1e-3,1e-4,1e-6")
    ap.add_argument("--final", type=float, default=1e-6)
    ap.add_argument("--cli", default="build-cpu/bin/matchblas")
    ap.add_argument("--dir", default="/tmp")
    a = ap.parse_args()
    bins = [float(x) for x in a.bins.split(",")]
    print("| graph | edges | entry | th_bin | Q | Q / reference | levels | s | s / reference |")
    print("|---|--:|---|--:|--:|--:|--:|--:|--:|")
    for spec in a.graphs.split(","):
        path = graph_file(spec, a.cli, a.dir)
        _, ref = matchblas.louvain(path, "louvain", threshold=a.final, final_threshold=a.final)
        for algo in a.algos.split(","):
            for th in bins:
                _, r = matchblas.louvain(path, algo, threads=a.threads, threshold=th,
                                         final_threshold=min(a.final, th))
                print(f"| {spec} | {r.edges} | {algo} | {th:g} | {r.modularity:.5f} | "
                      f"{r.modularity / ref.modularity:.4f} | {r.levels} | {r.time_s:.3f} | "
                      f"{r.time_s / ref.time_s:.3f} |", flush=True)


if __name__ == "__main__":
    main()
