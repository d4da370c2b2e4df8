#!/usr/bin/env python3
"""Quality against time, phase by phase, from `matchblas match --phase-report`.

    plot_phases.py OUT.png REPORT [REPORT...] --optimum W [--optimum-seconds S] [--start-label T]

Each REPORT is the output of `matchblas match FILE --algo A --phase-report`
(its first line names the algorithm): the start is one point (its weight at
its seconds), each phase one more at the running total of seconds. The
y-axis is weight / optimum (W, e.g. `matchblas match FILE --algo exact
--json`'s weight); the optimum is drawn at S seconds when given. Log time.
"""
import re
import sys


def read_report(path):
    algo, points, elapsed = None, [], 0.0
    for line in open(path):
        m = re.match(r"^(\S+): weight", line)
        if m and algo is None:
            algo = m.group(1)
        f = line.split()
        if f and f[0] == "start" and f[3] != "weight":
            elapsed = float(f[4])
            points.append((elapsed, float(f[3]), "start"))
        elif f and f[0] == "phase" and f[1].isdigit():
            elapsed += float(f[5])
            points.append((elapsed, float(f[4]), f"phase {f[1]}"))
    return algo or path, points


def main():
    args = sys.argv[1:]
    if len(args) < 4 or "--optimum" not in args:
        sys.exit(__doc__)
    optimum = float(args[args.index("--optimum") + 1])
    opt_s = float(args[args.index("--optimum-seconds") + 1]) if "--optimum-seconds" in args else None
    start_label = args[args.index("--start-label") + 1] if "--start-label" in args else "start"
    reports = [a for i, a in enumerate(args[1:], 1) if not a.startswith("--") and args[i - 1] not in
               ("--optimum", "--optimum-seconds", "--start-label")]
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for path in reports:
        algo, pts = read_report(path)
        ax.plot([p[0] for p in pts], [100 * p[1] / optimum for p in pts], marker="o", label=algo)
        ax.annotate(start_label, (pts[0][0], 100 * pts[0][1] / optimum), textcoords="offset points", xytext=(6, -4),
                    fontsize="small")
    if opt_s:
        ax.scatter([opt_s], [100.0], marker="*", s=120, color="black", label="exact")
    ax.axhline(100.0, color="black", linewidth=0.6)
    ax.set_xscale("log")
    ax.set_xlabel("seconds (log)")
    ax.set_ylabel("weight, % of the optimum")
    ax.set_title("Quality against time, phase by phase")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small")
    fig.savefig(args[0], dpi=110, bbox_inches="tight")


if __name__ == "__main__":
    main()
