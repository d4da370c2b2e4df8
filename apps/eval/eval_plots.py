#!/usr/bin/env python3
"""The pictures of `matchblas eval` (called by it; also runnable alone).

    eval_plots.py DIR [--baseline NAME]

Reads DIR/runs.csv and writes, as PNG and SVG:
  profile_time      Dolan-More performance profile of the matcher's time:
                    for each algorithm, the fraction of matrices it solves
                    within a factor tau of the fastest (Dolan and More,
                    "Benchmarking optimization software with performance
                    profiles", Math. Programming, 2002);
  profile_quality   the fraction of matrices on which each algorithm's
                    optimum / weight is within tau, where the optimum is
                    known (`eval --exact`): the profile against the optimum
                    rather than against the best algorithm;
  quality_time      per algorithm, the mean gap to the optimum (or to the
                    best weight found) against the geometric-mean time
                    (every gap equal, e.g. all 0 %: a 1 %-high y-range from
                    there, and a note saying so);
  speedup           per matrix (sorted by edges), each algorithm's speed-up
                    over the baseline (time of baseline / time of it).
Exit status: 0 done, 3 matplotlib missing, 1 anything else.
"""
import csv
import math
import os
import statistics
import sys


def fail(message, status=1):
    print(f"eval_plots: {message}", file=sys.stderr)
    sys.exit(status)


def load(path):
    """(matrix -> edges, (algo, matrix) -> (median time, weight, optimum)) of the ok runs; a
    community detection evaluation's rows have their modularity in place of the weight."""
    times, weights, optimum, edges, algos = {}, {}, {}, {}, []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["algo"] not in algos:
                algos.append(row["algo"])
            if row["status"] != "ok":
                continue
            key = (row["algo"], row["matrix"])
            times.setdefault(key, []).append(max(float(row["compute_s"]), 1e-9))
            weights[key] = float(row["weight"] or row.get("modularity") or "nan")
            edges[row["matrix"]] = int(row["edges"])
            if row["optimum"]:
                optimum[row["matrix"]] = float(row["optimum"])
    cells = {k: (statistics.median(v), weights[k]) for k, v in times.items()}
    return algos, edges, cells, optimum


MARKERS = "os^vD<>pP*Xh"
STYLES = ["-", "--", "-.", ":"]


def look(algos, a):
    """The colour, marker and line style of algorithm a: distinct for up to 48 algorithms."""
    import matplotlib
    i = algos.index(a)
    colour = matplotlib.colormaps["tab20"](i % 20) if len(algos) > 10 else matplotlib.colormaps["tab10"](i % 10)
    return colour, MARKERS[i % len(MARKERS)], STYLES[(i // 12) % len(STYLES)] if len(algos) > 12 else STYLES[i % 2]


def profile(ax, algos, matrices, measure, xlabel, title, against_best=True):
    """Dolan-More profile of measure(algo, matrix) (lower is better; None: unsolved):
    the ratio to the best algorithm's measure on each matrix, or, when
    against_best is False, the measure itself (already a ratio >= 1)."""
    ratios = {a: [] for a in algos}
    for m in matrices:
        values = {a: measure(a, m) for a in algos}
        solved = [v for v in values.values() if v is not None]
        if not solved:
            continue
        best = min(solved) if against_best else 1.0
        for a in algos:
            v = values[a]
            ratios[a].append(math.inf if v is None else (v / best if best > 0 else (1.0 if v == 0 else math.inf)))
    count = max((len(r) for r in ratios.values()), default=0)
    if count == 0:
        return False
    finite = [x for r in ratios.values() for x in r if math.isfinite(x)]
    top = max(finite + [1.0]) * 1.05
    for a in algos:
        r = sorted(ratios[a])
        xs, ys = [1.0], [0.0]
        for i, x in enumerate(r):
            if not math.isfinite(x):
                break
            xs += [x, x]
            ys += [ys[-1], (i + 1) / count]
        xs.append(top)
        ys.append(ys[-1])
        colour, _, style = look(algos, a)
        ax.step(xs, ys, where="post", label=a, linewidth=1.6, color=colour, linestyle=style)
    ax.set_xscale("log")
    if top < 20:  # a narrow range: plain tick labels, not powers of ten
        from matplotlib.ticker import ScalarFormatter
        ax.xaxis.set_major_formatter(ScalarFormatter())
        ax.xaxis.set_minor_formatter(ScalarFormatter())
    ax.set_xlim(1.0, top)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(f"fraction of the {count} matrices")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize="small")
    return True


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        fail("usage: eval_plots.py DIR [--baseline NAME]")
    folder, baseline = args[0], "greedy"
    if len(args) >= 3 and args[1] == "--baseline":
        baseline = args[2]
    try:
        import matplotlib
        matplotlib.use("Agg")
        matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text in the SVGs (searchable, smaller)
        import matplotlib.pyplot as plt
    except ImportError:
        fail("matplotlib is missing (apt-get install python3-matplotlib, or pip install matplotlib)", 3)
    runs = os.path.join(folder, "runs.csv")
    if not os.path.exists(runs):
        fail(f"{runs}: no such file")
    algos, edges, cells, optimum = load(runs)
    with open(runs, newline="") as f:
        quality_name = "modularity" if any(r.get("modularity") for r in csv.DictReader(f)) else "weight"
    matrices = sorted(edges, key=lambda m: (edges[m], m))
    # The algorithms that solved any matrix (one skipped everywhere, e.g. a
    # matcher of complete graphs on sparse ones, has nothing to draw).
    algos = [a for a in algos if any((a, m) in cells for m in matrices)]
    if not matrices:
        print("eval_plots: no successful run, no pictures")
        return
    written = []

    def save(fig, name):
        for ext in ("png", "svg"):
            path = os.path.join(folder, f"{name}.{ext}")
            fig.savefig(path, dpi=120, bbox_inches="tight")
            written.append(path)
        plt.close(fig)

    def time_of(a, m):
        return cells[(a, m)][0] if (a, m) in cells else None

    fig, ax = plt.subplots(figsize=(7, 4.5))
    if profile(ax, algos, matrices, time_of, "tau: time / fastest time (log)", "Performance profile: time"):
        save(fig, "profile_time")

    exact = [m for m in matrices if m in optimum and optimum[m] > 0]
    if exact:
        def quality(a, m):
            if (a, m) not in cells or cells[(a, m)][1] <= 0:
                return None
            return optimum[m] / cells[(a, m)][1]
        fig, ax = plt.subplots(figsize=(7, 4.5))
        if profile(ax, algos, exact, quality, "tau: optimum / weight (log)",
                   "Performance profile: quality against the optimum", against_best=False):
            ax.set_xlabel("tau: optimum / weight (log); 1 is optimal")
            save(fig, "profile_quality")

    # Quality against time, one point per algorithm over the matrices every one solved.
    common = [m for m in matrices if all((a, m) in cells for a in algos)]
    if common:
        fig, ax = plt.subplots(figsize=(7, 4.5))
        use_opt = all(m in optimum and optimum[m] > 0 for m in common)
        mean_gaps = []
        for a in algos:
            t = math.exp(statistics.fmean(math.log(cells[(a, m)][0]) for m in common))
            gaps = []
            for m in common:
                ref = optimum[m] if use_opt else max(cells[(b, m)][1] for b in algos)
                gaps.append(100.0 * (ref - cells[(a, m)][1]) / ref if ref > 0 else 0.0)
            mean_gaps.append(statistics.fmean(gaps))
            colour, marker, _ = look(algos, a)
            ax.scatter([t], [mean_gaps[-1]], s=70, label=a, color=colour, marker=marker,
                       edgecolors="black", linewidths=0.5, clip_on=False)
        low, high = min(mean_gaps), max(mean_gaps)
        if high - low <= 1e-9 * max(1.0, abs(high)):
            # One value: matplotlib would centre a tiny range on it (-0.04 to
            # 0.04 for 0); a gap is >= 0, so 1 % around it, from 0 at least.
            base = max(0.0, low - 0.5)
            ax.set_ylim(base, base + 1.0)
            reached = "the optimum" if use_opt else f"the best {quality_name} found"
            note = (f"every algorithm reached {reached}: every gap is 0 %" if abs(high) <= 1e-9
                    else f"every algorithm's mean gap is {high:.4g} %")
            ax.text(0.5, 0.9, note, transform=ax.transAxes, ha="center", fontsize="small")
        ax.set_xscale("log")
        ax.set_xlabel(f"geometric-mean time over {len(common)} matrices, s (log)")
        ax.set_ylabel("mean gap to the optimum, %" if use_opt else f"mean gap to the best {quality_name} found, %")
        ax.set_title("Quality against time (lower left is better)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize="small")
        save(fig, "quality_time")

    if any((baseline, m) in cells for m in matrices):
        fig, ax = plt.subplots(figsize=(max(7, 0.25 * len(matrices)), 4.5))
        xs = list(range(len(matrices)))
        for a in algos:
            if a == baseline:
                continue
            ys = [cells[(baseline, m)][0] / cells[(a, m)][0] if (a, m) in cells and (baseline, m) in cells
                  else math.nan for m in matrices]
            colour, marker, style = look(algos, a)
            ax.plot(xs, ys, marker=marker, markersize=4, linewidth=1, label=a, color=colour, linestyle=style)
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_yscale("log")
        ax.set_xticks(xs)
        ax.set_xticklabels(matrices, rotation=90, fontsize="x-small")
        ax.set_xlabel("matrix (by edges)")
        ax.set_ylabel(f"speed-up over {baseline} (log)")
        ax.set_title(f"Speed-up over {baseline}, per matrix")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize="small")
        save(fig, "speedup")
    for path in written:
        print(f"eval_plots: wrote {path}")


if __name__ == "__main__":
    try:
        main()
    except SystemExit:
        raise
    except Exception as e:  # one line, no traceback
        fail(f"{type(e).__name__}: {e}")
