"""roma-sparse's gap to the optimum and its time on generated families of graphs.

The families: tie-heavy (ER and R-MAT, weights drawn from 3 or 4 values),
heavy-tailed (ER with log-normal weights exp(2.5 N(0,1)), R-MAT with Pareto
weights of shape 1.2), geometric (each random point joined to its k nearest,
the distance as the weight) and power-law (R-MAT). Two sets of graphs: `tune`
(the graphs the defaults were chosen on) and `held-out` (other seeds and
sizes, never used to choose anything). Each graph is written once into
DIR/graphs by `matchblas gen` (the heavy-tailed ones reweighted here, seeded);
`matchblas eval --exact` runs every configuration on every graph (LEMON's
optimum, cached) and this script prints, per configuration and set, the mean
and the worst gap to the optimum in percent, and the geometric mean and the
largest ratio of its compute time to the first configuration's on the same
graph (the medians of --reps runs).

    python3 bench/roma_sparse_quality.py --cli build/bin/matchblas --dir /tmp/rsq \\
        --algos roma-sparse:length=2,roma-sparse --reps 3
"""
import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys

# name: (kind, n, gen options, reweighting, seed)
SETS = {
    "tune": {
        "er20k_ties4": ("er", 20000, ["--ties", "4"], None, 1),
        "er50k": ("er", 50000, [], None, 1),
        "er50k_lognormal": ("er", 50000, [], "lognormal", 1),
        "er50k_ties3": ("er", 50000, ["--ties", "3"], None, 2),
        "knn100k": ("knn", 100000, ["--edge-factor", "8"], None, 1),
        "knn50k_k16": ("knn", 50000, ["--edge-factor", "16"], None, 2),
        "rmat16": ("rmat", 65536, [], None, 1),
        "rmat16_pareto": ("rmat", 65536, [], "pareto", 1),
        "rmat16_ties3": ("rmat", 65536, ["--ties", "3"], None, 2),
    },
    "held-out": {
        "er30k_ties3": ("er", 30000, ["--ties", "3"], None, 11),
        "er40k_ef24": ("er", 40000, ["--edge-factor", "24"], None, 12),
        "er40k_lognormal": ("er", 40000, [], "lognormal", 13),
        "knn80k_k12": ("knn", 80000, ["--edge-factor", "12"], None, 14),
        "knn60k_k6_ties": ("knn", 60000, ["--edge-factor", "6"], None, 15),
        "rmat15_ties4": ("rmat", 32768, ["--ties", "4"], None, 16),
        "rmat16_ef8": ("rmat", 65536, ["--edge-factor", "8"], None, 17),
        "rmat15_pareto": ("rmat", 32768, [], "pareto", 18),
        "rmat16_ties2": ("rmat", 65536, ["--ties", "2"], None, 19),
    },
}


def reweight(path, how, seed):
    """Rewrites the weights of a generated Matrix Market file in place."""
    with open(path) as f:
        lines = f.read().splitlines()
    body = next(i for i, line in enumerate(lines) if not line.startswith("%")) + 1
    rng = random.Random(seed)
    count = len(lines) - body
    if how == "lognormal":
        w = [rng.lognormvariate(0.0, 2.5) for _ in range(count)]
    else:  # pareto, shape 1.2, scale 1
        w = [rng.paretovariate(1.2) for _ in range(count)]
    lines[body - 2] += f" (weights: {how}, seed {seed})" if lines[body - 2].startswith("%") else ""
    out = lines[:body]
    for line, x in zip(lines[body:], w):
        u, v, _ = line.split()
        out.append(f"{u} {v} {x:.17g}")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def make_graphs(cli, folder, sets):
    os.makedirs(folder, exist_ok=True)
    paths = {}
    for s in sets:
        for name, (kind, n, opts, how, seed) in SETS[s].items():
            path = os.path.join(folder, name + ".mtx")
            if not os.path.exists(path):
                tmp = path + ".part"
                subprocess.run([cli, "gen", kind, str(n), "--seed", str(seed), *opts, "--out", tmp], check=True)
                if how:
                    reweight(tmp, how, seed)
                os.replace(tmp, path)
            paths[name] = (s, path)
    return paths


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cli", default="build/bin/matchblas")
    ap.add_argument("--dir", default="roma-sparse-quality")
    ap.add_argument("--algos", default="roma-sparse:length=2,roma-sparse",
                    help="configurations (eval's --algos); the first is the time reference")
    ap.add_argument("--sets", default="tune,held-out")
    ap.add_argument("--threads", default="1")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--cache", help="eval's --cache: where the optima are kept (computed on a machine with LEMON, "
                    "then read on one without)")
    a = ap.parse_args()
    sets = a.sets.split(",")
    for s in sets:
        if s not in SETS:
            sys.exit(f"roma_sparse_quality.py: unknown set '{s}' (known: {', '.join(SETS)})")
    graphs = make_graphs(a.cli, os.path.join(a.dir, "graphs"), sets)
    listing = os.path.join(a.dir, "graphs.tsv")
    with open(listing, "w") as f:
        f.write("file\n" + "".join(path + "\n" for _, path in graphs.values()))
    out = os.path.join(a.dir, "eval")
    subprocess.run([a.cli, "eval", listing, "--algos", a.algos, "--threads", a.threads, "--reps", str(a.reps),
                    "--exact", "--timeout", str(a.timeout), "--out", out, "--no-plots", "--resume", "--quiet",
                    *(["--cache", a.cache] if a.cache else [])],
                   check=True)
    runs = {}
    with open(os.path.join(out, "runs.jsonl")) as f:
        for line in f:
            r = json.loads(line)
            if r["status"] != "ok":
                sys.exit(f"roma_sparse_quality.py: {r['algo']} on {r['matrix']}: {r['status']} {r['message']}")
            if r.get("gto_percent") is None:
                sys.exit(f"roma_sparse_quality.py: no optimum for {r['matrix']} (eval's message above)")
            runs.setdefault((r["algo"], os.path.basename(r["matrix"])[:-4]), []).append(r)
    algos = a.algos.split(",")
    print(f"{'configuration':<40} {'set':<9} {'mean gap %':>10} {'worst %':>8} {'time ratio':>10} {'worst':>6}")
    for s in sets:
        for algo in algos:
            gaps, ratios = [], []
            for name in SETS[s]:
                rows = runs[(algo, name)]
                gaps.append(rows[0]["gto_percent"])
                t = statistics.median(r["compute_s"] for r in rows)
                t0 = statistics.median(r["compute_s"] for r in runs[(algos[0], name)])
                ratios.append(t / t0)
            geo = math.exp(statistics.mean(math.log(x) for x in ratios))
            print(f"{algo:<40} {s:<9} {statistics.mean(gaps):>10.2f} {max(gaps):>8.2f} {geo:>10.2f} {max(ratios):>6.2f}")
    print("\nper graph: gap % (median compute s)")
    for s in sets:
        for name in SETS[s]:
            cells = []
            for algo in algos:
                rows = runs[(algo, name)]
                cells.append(f"{rows[0]['gto_percent']:.2f} ({statistics.median(r['compute_s'] for r in rows):.3f})")
            print(f"{name:<16} " + " | ".join(cells))


if __name__ == "__main__":
    main()
