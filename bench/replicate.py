#!/usr/bin/env python3
"""The sources' experiments, re-run on the machine at hand and written up
side by side with what the sources report.

    bench/replicate.py [--source NAME[,NAME...]|all] [--quick|--full]
                       [--build DIR] [--out DIR] [--resume] [--render-only]

Each study runs matchblas's own binaries (DIR/bin: matchblas, bench_*),
appends its raw rows to OUT/data/SOURCE.jsonl as they are measured (the
first line of a run names the machine, the git revision, the command and the
mode), then renders from those files only: OUT/data/SOURCE.csv, the plots
OUT/SOURCE-*.svg (matplotlib) and the page OUT/SOURCE.md, which sets every
row beside the source's own figure where the source states one
(bench/replication/SOURCE.csv, typed from the source's tables and text, with
the place each value comes from) and says where our conclusion differs.
OUT/README.md lists the pages, and the studies not yet replicated with why;
docs/PERFORMANCE.md (OUT/PERFORMANCE.md for another --out) gathers every
page's conclusions beside the source's, drawn from the pages alone.

--quick: small sizes, seconds per study (CI runs it: every study runs and
its plots and pages are made). --full: the sources' sizes (hours on a large
machine are acceptable). --resume: rows of an earlier run of the same mode
and revision in OUT/data are kept, not re-measured (a long --full run cut
short goes on where it stopped). --render-only: no runs; the CSV, plots and
pages again from OUT/data.

Exit status: 0 done; 1 a study failed (named on stderr; the other studies
still run and render); 2 a bad command line.
"""

import argparse
import csv
import datetime
import json
import math
import os
import platform
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SOURCES_DIR = os.path.join(HERE, "replication")


class StudyFailed(Exception):
    pass


class Stopped(BaseException):
    """SIGTERM or SIGINT during a run (a time limit's `timeout`, Ctrl-C): the
    rows so far are kept, marked as a run stopped before its end."""


# ---- the run's context ------------------------------------------------------

def machine():
    """The CPU model, its cores and any NVIDIA GPU, in one line."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    text = "%s, %d cores" % (model, os.cpu_count() or 1)
    if shutil.which("nvidia-smi"):
        try:
            gpus = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                                  capture_output=True, text=True, timeout=30).stdout.split("\n")
            gpus = [g.strip() for g in gpus if g.strip()]
            if gpus:
                text += ", " + " + ".join(gpus)
        except (OSError, subprocess.TimeoutExpired):
            pass
    return text


def revision():
    """The git revision of the code that runs ("-dirty": with uncommitted
    changes); MATCHBLAS_REVISION overrides it (a copy of a tree whose .git is
    not its own)."""
    if os.environ.get("MATCHBLAS_REVISION"):
        return os.environ["MATCHBLAS_REVISION"]
    try:
        rev = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                             timeout=30).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=30).stdout.strip()
        return (rev or "unknown") + ("-dirty" if dirty else "")
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"


class Context:
    """What a study needs: the binaries, the mode, and its rows' file."""

    def __init__(self, args):
        self.build = os.path.abspath(args.build)
        self.out = os.path.abspath(args.out)
        self.quick = args.quick
        self.mode = "quick" if args.quick else "full"
        self.resume = args.resume
        self.machine = machine()
        self.revision = revision()
        self.command = " ".join(shlex.quote(a) for a in sys.argv)
        self.cores = os.cpu_count() or 1
        self.scratch = tempfile.mkdtemp(prefix="matchblas-replicate-")
        self.rows = []
        self.known = {}
        self.path = None

    def binary(self, name):
        path = os.path.join(self.build, "bin", name)
        if not os.access(path, os.X_OK):
            raise StudyFailed("%s is not built (looked for %s; build it, or pass --build DIR)" % (name, path))
        return path

    def start(self, source):
        """Opens OUT/data/SOURCE.jsonl for this run; with --resume, the rows of
        an earlier run of the same mode and revision are kept."""
        os.makedirs(os.path.join(self.out, "data"), exist_ok=True)
        self.path = os.path.join(self.out, "data", source + ".jsonl")
        self.rows, self.known = [], {}
        header = {"kind": "run", "source": source, "mode": self.mode, "machine": self.machine,
                  "revision": self.revision, "command": self.command,
                  "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}
        kept = []
        if self.resume and os.path.exists(self.path):
            old_header, old_rows = read_rows(self.path)
            if old_header and old_header.get("mode") == self.mode and old_header.get("revision") == self.revision:
                header = {k: v for k, v in old_header.items() if k != "stopped"}  # going on: no longer stopped
                kept = old_rows
        with open(self.path, "w") as f:
            f.write(json.dumps(header) + "\n")
            for row in kept:
                f.write(json.dumps(row) + "\n")
        for row in kept:
            self.known[row["key"]] = row
            self.rows.append(row)

    def stopped(self):
        """Marks the open run as stopped before its end; `--resume` at the
        same revision drops the mark and goes on."""
        if self.path:
            with open(self.path, "a") as f:
                f.write(json.dumps({"kind": "stopped", "date": datetime.datetime.now(
                    datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}) + "\n")

    def measure(self, key, run):
        """The rows of `key`: kept from a resumed run, or run() (a list of
        dicts) measured now and appended to the file at once."""
        if key in self.known:
            return [r for r in self.rows if r["key"] == key]
        print("  measuring %s" % key, file=sys.stderr, flush=True)
        rows = run()
        with open(self.path, "a") as f:
            for row in rows:
                row = dict(row, kind="row", key=key)
                f.write(json.dumps(row) + "\n")
                self.rows.append(row)
        self.known[key] = True
        return rows


def read_rows(path):
    header, rows = None, []
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            record = json.loads(line)
            if record.get("kind") == "run":
                header = record
            elif record.get("kind") == "stopped":
                if header is not None:
                    header = dict(header, stopped=record["date"])
            else:
                rows.append(record)
    return header, rows


def run(cmd, ctx, env=None, timeout=None):
    """Runs cmd (a list); its standard output, or StudyFailed naming the
    command and the end of its error output."""
    full_env = dict(os.environ, **(env or {}))
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=full_env, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise StudyFailed("timed out after %s s: %s" % (timeout, " ".join(cmd)))
    if p.returncode != 0:
        raise StudyFailed("exit %d: %s\n%s" % (p.returncode, " ".join(cmd), (p.stderr or p.stdout)[-2000:]))
    return p.stdout


def source_values(source):
    """The source's own figures (bench/replication/SOURCE.csv): a list of
    dicts with figure, quantity, setting, value, unit, where, note."""
    path = os.path.join(SOURCES_DIR, source + ".csv")
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return [row for row in csv.DictReader(f) if not row["figure"].startswith("#")]


def write_csv(path, rows):
    columns = []
    for row in rows:
        for k in row:
            if k not in columns and k != "kind":
                columns.append(k)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
        w.writeheader()
        for row in rows:
            w.writerow(row)


def pyplot():
    try:
        import matplotlib
    except ImportError:
        raise StudyFailed("the plots need matplotlib (Debian: apt-get install python3-matplotlib)")
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "matchblas"  # the same ids on every drawing
    import matplotlib.pyplot as plt
    return plt


def save_figure(plt, fig, path):
    """Lays fig out and writes it as SVG without a date, so that drawing
    the same rows again writes the same file."""
    fig.tight_layout()
    fig.savefig(path, metadata={"Date": None})
    plt.close(fig)


def graphs_in_order(rows):
    """The rows' graphs, each once, in the order they were measured."""
    return list(dict.fromkeys(r["graph"] for r in rows))


def md_table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for r in rows:
        lines.append("| " + " | ".join(str(x) for x in r) + " |")
    return "\n".join(lines)


def fmt_s(x):
    if x is None or x == "":
        return "-"
    x = float(x)
    return "%.3g s" % x if x >= 1 else "%.3g ms" % (x * 1e3)


def run_cores(header, ctx):
    """The cores of the machine a run's rows come from (its header names
    them), not of the machine rendering them; this machine's when unnamed."""
    m = re.search(r"(\d+) cores", header.get("machine", ""))
    return int(m.group(1)) if m else ctx.cores


def run_state(header):
    """A run's mode, and whether it was stopped before its end."""
    return header["mode"] + (" (stopped before its end: partial rows)" if header.get("stopped") else "")


def page_head(title, citation, header, rows_file):
    return ("# %s\n\n*Source:* %s\n\n*This run:* %s, revision %s, mode %s, %s.  \n*Command:* `%s`  \n"
            "*Raw rows:* [data/%s.csv](data/%s.csv) (and `.jsonl`); the plots and tables below are drawn from "
            "them alone (`bench/replicate.py --render-only` draws them again).\n"
            % (title, citation, header["machine"], header["revision"], run_state(header), header["date"],
               header["command"], rows_file, rows_file))


# ---- Thorsen and Merkey 2010: the four distributed variants, and Luby ------

THORSEN = "A. Thorsen, P. Merkey, *Approximating Weighted Matchings Using the Partitioned Global Address Space " \
          "Model*, Tech. Report CS-TR-10-02, Michigan Technological University, 2010, sec. 6, Figures 2-3"


def thorsen_graphs(ctx):
    """(label, bench_distributed graph spec, what it stands for). crankseg
    (52,804 vertices, 5.28M edges, from the SuiteSparse collection) is not
    reachable here: a k-nearest-neighbour graph of the same vertex count
    and about its edge count stands in (geometric locality, near-uniform
    degrees: each vertex joined to its 190 nearest, about 5.3M edges once
    symmetrised)."""
    if ctx.quick:
        knn_n, knn_k = 3000, 20
        return [("grid 32x32", "grid:32", "the 256x256 grid, scaled down"),
                ("K_32,32", "bipartite:32", "the complete bipartite graph on 2048 vertices, scaled down"),
                ("knn %d, k=%d" % (knn_n, knn_k), ("knn", knn_n, knn_k), "crankseg, scaled down")]
    return [("grid 256x256", "grid:256", "65,536 vertices, 130,560 edges (as the source)"),
            ("K_1024,1024", "bipartite:1024", "2,048 vertices, 1,048,576 edges (the source says 130,560 edges)"),
            ("knn 52804, k=190", ("knn", 52804, 190), "crankseg's vertex count and about its 5.28M edges")]


def thorsen_ranks(ctx):
    if ctx.quick:
        return [1, 2]
    top = max(1, min(16, ctx.cores))
    return [p for p in (1, 2, 4, 8, 16) if p <= top]


def thorsen_run(ctx):
    if not shutil.which("mpirun"):
        raise StudyFailed("mpirun is not on PATH: the distributed variants need MPI (Debian: openmpi-bin)")
    bench = ctx.binary("bench_distributed")
    cli = ctx.binary("matchblas")
    cpu = ctx.binary("bench_cpu_matchers")
    env = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_rmaps_base_oversubscribe": "1", "OMP_NUM_THREADS": "1"}
    reps = 3 if ctx.quick else 5
    for label, spec, _ in thorsen_graphs(ctx):
        if isinstance(spec, tuple):  # a generated file
            _, n, k = spec
            path = os.path.join(ctx.scratch, "knn_%d_%d.mtx" % (n, k))
            if not os.path.exists(path):
                run([cli, "gen", "knn", str(n), "--edge-factor", str(k), "--seed", "1", "--out", path], ctx)
            spec = path
        for p in thorsen_ranks(ctx):
            def measure(p=p, spec=spec, label=label):
                out = run(["mpirun", "--bind-to", "none", "-np", str(p), bench, "--graphs", spec, "--reps", str(reps),
                           "--peers", "greedy,ld-rounds,luby,suitor-cas", "--threads", str(p)], ctx, env=env,
                          timeout=3600)
                size = re.search(r"; (\d+) vertices, (\d+) edges;", out)
                rows = []
                for m in re.finditer(r"^# \S+ (ld-mpi-[\w-]+): ([0-9.eE+-]+) s \(slowest rank, median of \d+\), "
                                     r"(\d+) rounds", out, re.M):
                    rows.append({"graph": label, "ranks": p, "algorithm": m.group(1), "time_s": float(m.group(2)),
                                 "rounds": int(m.group(3))})
                for m in re.finditer(r"^# \S+ (greedy|ld-rounds|luby|suitor-cas): ([0-9.eE+-]+) s \(rank 0", out,
                                     re.M):
                    rows.append({"graph": label, "ranks": p, "algorithm": m.group(1), "time_s": float(m.group(2)),
                                 "threads": 1 if m.group(1) == "greedy" else p})
                for r in rows:
                    if size:
                        r["vertices"], r["edges"] = int(size.group(1)), int(size.group(2))
                if " NO " in out or "differs" in out:
                    raise StudyFailed("a distributed variant's matching differs from greedy's on %s:\n%s"
                                      % (label, out[-2000:]))
                if len(rows) < 8:
                    raise StudyFailed("bench_distributed printed %d of its 8 timings on %s:\n%s"
                                      % (len(rows), label, out[-2000:]))
                return rows
            ctx.measure("%s np=%d" % (label, p), measure)
        # Luby's weight against greedy's on the same graph (one thread).
        def weights(spec=spec, label=label):
            if not os.path.exists(spec):
                kind, side = spec.split(":")
                path = os.path.join(ctx.scratch, "%s_%s.mtx" % (kind, side))
                run([cli, "gen", kind, side, "--seed", "1", "--out", path], ctx)
            else:
                path = spec
            rows = cpu_matchers(ctx, cpu, ["--file", path], ["greedy", "ld-rounds", "luby"], [1])
            for r in rows:
                r["graph"] = label
                r["study"] = "weights"
            return rows
        ctx.measure("%s weights" % label, weights)


def cpu_matchers(ctx, cpu, graph_args, names, threads, reps=3):
    """bench_cpu_matchers' rows: algorithm, threads, time_s, weight,
    of_greedy, equals_greedy (None for the entries that do not promise it)."""
    out = run([cpu] + graph_args + ["--only", ",".join(names), "--threads", ",".join(map(str, threads)),
                                    "--reps", str(reps)], ctx, timeout=7200)
    rows = []
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 8 and f[0] in names and re.match(r"^\d+$", f[2]):
            rows.append({"algorithm": f[0], "threads": int(f[2]), "time_s": float(f[3]), "weight": float(f[5]),
                         "of_greedy": float(f[6]), "equals_greedy": {"yes": True, "NO": False}.get(f[7])})
    if not rows:
        raise StudyFailed("bench_cpu_matchers printed no rows:\n" + out[-2000:])
    return rows


def thorsen_render(ctx, header, rows):
    plt = pyplot()
    graphs = graphs_in_order(rows)
    timing = [r for r in rows if r.get("study") != "weights"]
    variants = ["ld-mpi-sync-poll", "ld-mpi-async-poll", "ld-mpi-sync-notify", "ld-mpi-async-notify"]
    fig, axes = plt.subplots(1, len(graphs), figsize=(4.2 * len(graphs), 3.6), squeeze=False)
    for ax, g in zip(axes[0], graphs):
        for name in variants + ["ld-rounds", "luby"]:
            pts = sorted((r["ranks"], r["time_s"]) for r in timing if r["graph"] == g and r["algorithm"] == name)
            if pts:
                ax.plot([p for p, _ in pts], [t for _, t in pts], marker="o",
                        linestyle="-" if name.startswith("ld-mpi") else "--",
                        label=name.replace("ld-mpi-", "") + ("" if name.startswith("ld-mpi") else " (threads)"))
        ax.set_title(g)
        ax.set_xlabel("ranks (threads for the shared-memory rows)")
        ax.set_ylabel("seconds")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
    axes[0][0].legend(fontsize=7)
    save_figure(plt, fig, os.path.join(ctx.out, "thorsen-variants.svg"))

    text = [page_head("Thorsen and Merkey 2010: parallel greedy matching in four distributed forms, and Luby",
                      THORSEN, header, "thorsen")]
    text.append("\n## Figures 2-3: running time of the four variants against the process count\n")
    text.append("The source ran Unified Parallel C on a Cray X1 (shared memory, vector) and a Cray XT4 "
                "(distributed memory) with 1-16 processes; matchblas runs the same four variants over MPI-3 "
                "one-sided windows (`ld-mpi-*`) on this machine, with the shared-memory `ld-rounds` and `luby` "
                "on as many threads beside them. The `ld-mpi-*` times are the matching alone: each rank's part of "
                "the graph is built and its rows sorted in the greedy order beforehand (bench_distributed's input "
                "step, not counted), so a vertex finds its next candidate without rescanning its row; the "
                "shared-memory rows start from the unsorted graph and count all of their work. The source gives its "
                "times only as plots; its conclusions are in the table at the end.\n")
    text.append("![the four variants against the rank count](thorsen-variants.svg)\n")
    sizes = {}
    for r in timing:
        if "vertices" in r:
            sizes[r["graph"]] = (r["vertices"], r["edges"])
    quick = type("Mode", (), {"quick": header["mode"] == "quick"})()
    table = [[label, "%d / %d" % sizes[label] if label in sizes else "-", stands]
             for label, _, stands in thorsen_graphs(quick)]
    text.append("\nThe graphs (crankseg, from the SuiteSparse collection, is not reachable here: a k-nearest-"
                "neighbour graph of random points with its vertex count stands in, geometric and local like a "
                "finite-element mesh, with near-uniform degrees):\n\n")
    text.append(md_table(["graph", "vertices / edges", "the source's graph"], table) + "\n")
    for g in graphs:
        ranks = sorted({r["ranks"] for r in timing if r["graph"] == g})
        table = []
        for name in variants + ["greedy", "ld-rounds", "suitor-cas", "luby"]:
            by_p = {r["ranks"]: r for r in timing if r["graph"] == g and r["algorithm"] == name}
            if not by_p:
                continue
            cells = []
            for p in ranks:
                r = by_p.get(p)
                rounds = "" if r is None or "rounds" not in r else \
                    " (%d round%s)" % (r["rounds"], "" if r["rounds"] == 1 else "s")
                cells.append("-" if r is None else fmt_s(r["time_s"]) + rounds)
            table.append([("`%s`" % name) + ("" if name.startswith("ld-mpi") else
                                             " (1 thread)" if name == "greedy" else " (threads = ranks)")] + cells)
        text.append("\n### %s\n\n" % g)
        text.append(md_table(["algorithm"] + ["%d" % p for p in ranks], table) + "\n")
    # The conclusions, ours beside the source's.
    text.append("\n## The conclusions, side by side\n")
    text.append(thorsen_conclusions(timing, graphs, source_values("thorsen")) + "\n")
    # Luby.
    weights = [r for r in rows if r.get("study") == "weights"]
    text.append("\n## Luby's algorithm against the parallel greedy (sec. 3)\n")
    text.append("The source relates the parallel greedy matching to Luby's maximal independent set algorithm run on "
                "the line graph, whose values are drawn afresh every round instead of being the fixed weights. "
                "`luby` is that algorithm: a maximal matching that never reads the weights, so its weight is a "
                "random maximal matching's. On one thread, the same graphs:\n")
    table = []
    for g in graphs:
        for r in weights:
            if r["graph"] == g:
                table.append([g, "`%s`" % r["algorithm"], fmt_s(r["time_s"]), "%.4g" % r["weight"],
                              "%.3f" % r["of_greedy"]])
    text.append(md_table(["graph", "algorithm", "time", "weight", "of greedy's"], table) + "\n")
    with open(os.path.join(ctx.out, "thorsen.md"), "w") as f:
        f.write("\n".join(text))


def thorsen_conclusions(timing, graphs, source):
    """The source's conclusions (bench/replication/thorsen.csv, kind
    'claim') and whether this run agrees, with the numbers that say so."""
    def t(g, name, p):
        for r in timing:
            if r["graph"] == g and r["algorithm"] == name and r["ranks"] == p:
                return r["time_s"]
        return None
    rows = []
    for claim in source:
        if claim["quantity"] != "claim":
            continue
        verdict = "-"
        if claim["figure"] == "poll-beats-notify":
            wins, total = 0, 0
            for g in graphs:
                for p in sorted({r["ranks"] for r in timing if r["graph"] == g}):
                    poll = [t(g, "ld-mpi-%s-poll" % s, p) for s in ("sync", "async")]
                    notify = [t(g, "ld-mpi-%s-notify" % s, p) for s in ("sync", "async")]
                    if None in poll + notify:
                        continue
                    total += 1
                    wins += min(poll) < min(notify)
            verdict = "%s: the faster poll variant beats the faster notify variant in %d of %d (graph, ranks) " \
                      "points" % ("agrees" if wins * 2 > total else "differs", wins, total)
        elif claim["figure"].startswith("speedup-"):
            g = graphs[{"speedup-grid": 0, "speedup-bipartite": 1, "speedup-sparse": 2}[claim["figure"]]]
            ranks = sorted({r["ranks"] for r in timing if r["graph"] == g})
            if len(ranks) > 1:
                best = min((t(g, "ld-mpi-%s" % v, ranks[-1]) or 1e30) for v in
                           ("sync-poll", "async-poll", "sync-notify", "async-notify"))
                one = min((t(g, "ld-mpi-%s" % v, 1) or 1e30) for v in
                          ("sync-poll", "async-poll", "sync-notify", "async-notify"))
                speedup = one / best
                verdict = "%s on %s: %.2fx from 1 to %d ranks (the fastest variant at each)" % (
                    "speeds up" if speedup > 1.05 else "does not speed up", g, speedup, ranks[-1])
                if len(ranks) < 3:
                    verdict += " (only %d rank counts on this machine)" % len(ranks)
        rows.append([claim["setting"], claim["note"] + " (" + claim["where"] + ")", verdict])
    return md_table(["setting", "the source", "this run"], rows)


# ---- Mazankiewicz's assignment: LD and Suitor, sequential and parallel -----

ASSIGNMENT = "A. Mazankiewicz, *Approximated Maximum Weighted Matching in Weighted Complete Undirected Graphs*, " \
             "course assignment, Exercise 3 (3.2-3.5)"

ASSIGNMENT_SEQUENTIAL = ["ld", "suitor", "suitor-heavy", "gpa", "greedy", "luby"]
ASSIGNMENT_PARALLEL = ["ld-omp", "suitor-locks", "suitor-cas", "luby"]


def assignment_graphs(ctx):
    if ctx.quick:
        return [("R-MAT 2^12", ["--scale", "12"]), ("complete n=300", ("complete-uniform", 300))]
    return [("R-MAT 2^21", ["--scale", "21"]), ("Erdos-Renyi 2^21", ["--scale", "21", "--er", "1"]),
            ("complete n=4096", ("complete-uniform", 4096))]


def assignment_threads(ctx):
    if ctx.quick:
        return [1, 2]
    return sorted({t for t in (1, 2, 4, 8, 16, 32, 64) if t <= ctx.cores} | {ctx.cores})


def assignment_run(ctx):
    cpu = ctx.binary("bench_cpu_matchers")
    cli = ctx.binary("matchblas")
    for label, spec in assignment_graphs(ctx):
        if isinstance(spec, tuple):  # a complete graph, as a sparse file: every pair an edge
            kind, n = spec
            path = os.path.join(ctx.scratch, "%s_%d.mtx" % (kind, n))
            if not os.path.exists(path):
                run([cli, "gen", kind, str(n), "--seed", "1", "--out", path], ctx)
            spec = ["--file", path]

        def sequential(spec=spec, label=label):
            rows = cpu_matchers(ctx, cpu, spec, ASSIGNMENT_SEQUENTIAL, [1])
            return [dict(r, graph=label, study="sequential") for r in rows]

        def parallel(spec=spec, label=label):
            rows = cpu_matchers(ctx, cpu, spec, ASSIGNMENT_PARALLEL, assignment_threads(ctx))
            return [dict(r, graph=label, study="parallel") for r in rows]
        ctx.measure("%s sequential" % label, sequential)
        ctx.measure("%s parallel" % label, parallel)


def assignment_render(ctx, header, rows):
    plt = pyplot()
    graphs = graphs_in_order(rows)
    text = [page_head("Mazankiewicz: Locally-Dominant and Suitor, sequential and parallel", ASSIGNMENT, header,
                      "assignment")]
    text.append("\nThe assignment sets the questions and reports no numbers of its own: its graphs were to be "
                "generated. Here the matchers are matchblas's entries of the same names (`ld`, `ld-omp`, "
                "`suitor`, `suitor-locks`, `suitor-cas`, `suitor-heavy` for Suitor's heavy matching), with `gpa` "
                "and `greedy` beside them and `luby` (Luby's algorithm, which reads no weights) as the randomized "
                "baseline. Complete graphs are given as sparse graphs holding every pair.\n")
    # 3.2 sequential.
    text.append("\n## 3.2 Sequential runtime\n")
    table = []
    for g in graphs:
        for r in rows:
            if r["graph"] == g and r["study"] == "sequential":
                table.append([g, "`%s`" % r["algorithm"], fmt_s(r["time_s"]), "%.4f" % r["of_greedy"]])
    text.append(md_table(["graph", "algorithm", "time (1 thread)", "weight / greedy's"], table) + "\n")
    # 3.3 parallel: runtime, speedup, efficiency.
    text.append("\n## 3.3 Parallel runtime, absolute speedup and efficiency\n")
    text.append("Absolute speedup: the fastest sequential matcher's time (`suitor`) over the parallel one's; "
                "efficiency: speedup over threads.\n")
    fig, axes = plt.subplots(1, len(graphs), figsize=(4.2 * len(graphs), 3.6), squeeze=False)
    for ax, g in zip(axes[0], graphs):
        seq = {r["algorithm"]: r["time_s"] for r in rows if r["graph"] == g and r["study"] == "sequential"}
        base = seq.get("suitor")
        table = []
        for name in ASSIGNMENT_PARALLEL:
            pts = sorted((r["threads"], r["time_s"]) for r in rows
                         if r["graph"] == g and r["study"] == "parallel" and r["algorithm"] == name)
            if not pts:
                continue
            for t, s in pts:
                speedup = base / s if base else None
                table.append(["`%s`" % name, t, fmt_s(s), "-" if speedup is None else "%.2f" % speedup,
                              "-" if speedup is None else "%.2f" % (speedup / t)])
            if base:
                ax.plot([t for t, _ in pts], [base / s for _, s in pts], marker="o", label=name)
        ax.set_title(g)
        ax.set_xlabel("threads")
        ax.set_ylabel("speedup over sequential suitor")
        text.append("\n### %s\n\n" % g)
        text.append(md_table(["algorithm", "threads", "time", "absolute speedup", "efficiency"], table) + "\n")
    axes[0][0].legend(fontsize=7)
    save_figure(plt, fig, os.path.join(ctx.out, "assignment-speedup.svg"))
    text.append("\n![absolute speedup against threads](assignment-speedup.svg)\n")
    # 3.4 quality.
    text.append("\n## 3.4 Quality: does parallelism reduce it?\n")
    differ = ["%s on %s, %d threads" % (r["algorithm"], r["graph"], r["threads"]) for r in rows
              if r["study"] == "parallel" and r["algorithm"] != "luby" and r.get("equals_greedy") is not True]
    text.append("No: every parallel LD and Suitor run returns greedy's matching, mate for mate, on every graph and "
                "thread count (checked by the benchmark), as the tie rule of the greedy order makes them do; "
                "`suitor-heavy` and `gpa` are heavier. "
                if not differ else "Yes, here: %s did not return greedy's matching. " % ", ".join(differ))
    text.append("`luby` does not read weights and is lighter: %s.\n" % ", ".join(
        "%.3f of greedy's on %s" % (r["of_greedy"], r["graph"]) for r in rows
        if r["algorithm"] == "luby" and r["study"] == "sequential"))
    # 3.5 trade-off.
    text.append("\n## 3.5 Trade-off: quality against speed\n")
    fig, axes = plt.subplots(1, len(graphs), figsize=(4.2 * len(graphs), 3.6), squeeze=False)
    verdicts = []
    for ax, g in zip(axes[0], graphs):
        heavy = [r for r in rows if r["graph"] == g and r["algorithm"] == "suitor-heavy"]
        ref = heavy[0]["weight"] if heavy else None
        pts = []
        for r in rows:
            if r["graph"] != g or not ref:
                continue
            name = r["algorithm"] + ("" if r["study"] == "sequential" else " x%d" % r["threads"])
            if r["study"] == "parallel" and r["threads"] == 1:
                continue
            pts.append((r["time_s"], r["weight"] / ref, name))
        for s, q, name in pts:
            ax.scatter([s], [q])
            ax.annotate(name, (s, q), fontsize=6)
        ax.set_xscale("log")
        ax.set_title(g)
        ax.set_xlabel("seconds")
        ax.set_ylabel("weight / suitor-heavy's")
        dominant = [p for p in pts if not any(o[0] <= p[0] and o[1] >= p[1] and o != p and
                                              (o[0] < p[0] or o[1] > p[1]) for o in pts)]
        verdicts.append("%s: the non-dominated runs are %s" % (
            g, ", ".join("%s (%s, %.3f)" % (n, fmt_s(s), q) for s, q, n in sorted(dominant))))
    save_figure(plt, fig, os.path.join(ctx.out, "assignment-tradeoff.svg"))
    text.append("![quality against time](assignment-tradeoff.svg)\n\n")
    text.append("Is there a dominant implementation? " + "; ".join(verdicts) + ".\n")
    with open(os.path.join(ctx.out, "assignment.md"), "w") as f:
        f.write("\n".join(text))


# ---- the handshaking course project: one matching for any thread count -----

HANDSHAKE = "*Parallel graph matching*, a course project on handshaking matching on GPUs (no author named), " \
            "its results section"


def handshake_run(ctx):
    cli = ctx.binary("matchblas")
    graphs = [("R-MAT 2^12", "rmat", 1 << 12), ("grid 64x64", "grid", 64)] if ctx.quick else \
        [("R-MAT 2^19", "rmat", 1 << 19), ("grid 724x724", "grid", 724), ("Erdos-Renyi 2^19", "er", 1 << 19)]
    threads = assignment_threads(ctx)
    devices = ["cpu"]
    if subprocess.run([cli, "list"], capture_output=True, text=True).stdout.find("handshake-gpu") >= 0 and \
            shutil.which("nvidia-smi"):
        devices.append("gpu")
    for label, kind, n in graphs:
        path = os.path.join(ctx.scratch, "%s_%d.mtx" % (kind, n))
        if not os.path.exists(path):
            run([cli, "gen", kind, str(n), "--seed", "1", "--ties", "4", "--out", path], ctx)

        def measure(path=path, label=label):
            rows, first = [], None
            for device in devices:
                # GPU: --threads is about how many threads each kernel
                # launches (the project's -threads); 0: one per item.
                for t in threads if device == "cpu" else [0, 1024, 65536]:
                    mates = os.path.join(ctx.scratch, "mates_%s_%d.txt" % (device, t))
                    out = run([cli, "match", path, "--algo", "handshake", "--device", device, "--threads", str(t),
                               "--json", "--out", mates], ctx, timeout=3600)
                    report = json.loads(out)
                    with open(mates) as f:
                        text = f.read()
                    first = text if first is None else first
                    rows.append({"graph": label, "device": device, "threads": t, "time_s": report["time_s"],
                                 "weight": report["weight"], "cardinality": report["cardinality"],
                                 "same_as_first": text == first})
            return rows
        ctx.measure(label, measure)


def handshake_render(ctx, header, rows):
    plt = pyplot()
    graphs = graphs_in_order(rows)
    text = [page_head("The handshaking course project: one matching for every thread count and device",
                      HANDSHAKE, header, "handshake")]
    claims = [c for c in source_values("handshake") if c["quantity"] == "claim"]
    for c in claims:
        text.append("\n*The source:* %s (%s)\n" % (c["note"], c["where"]))
    same = all(r["same_as_first"] for r in rows)
    runs = []
    cpu_threads = sorted({r["threads"] for r in rows if r["device"] == "cpu"})
    gpu_threads = sorted({r["threads"] for r in rows if r["device"] == "gpu"})
    if cpu_threads:
        runs.append("on the CPU at %s threads" % ", ".join(map(str, cpu_threads)))
    if gpu_threads:
        runs.append("on the GPU with kernels of %s" % ", ".join(
            "one thread per item" if t == 0 else "about %d threads" % t for t in gpu_threads))
    text.append("\n*This run:* %s: on every graph (weights drawn from 4 values, so ties are everywhere) the mate "
                "arrays written by `matchblas match --algo handshake` %s are %s, byte for byte.\n" % (
                    "agrees" if same else "DIFFERS", " and ".join(runs), "identical" if same else "not all identical"))
    table = [[r["graph"], r["device"], r["threads"] if r["threads"] else "one per item" if r["device"] == "gpu" else
              "all", fmt_s(r["time_s"]), "%.6g" % r["weight"], r["cardinality"], "yes" if r["same_as_first"] else "NO"]
             for r in rows]
    text.append("\n## Timing\n\n" + md_table(["graph", "device", "threads", "time", "weight", "cardinality",
                                              "same matching"], table) + "\n")
    text.append("\nThe source gives no times of its own (its program prints the time it spent). On the tie-heavy "
                "R-MAT graph the CPU's passes are many: the smallest-index tie-break sends most vertices' strongest "
                "neighbour to a few low-numbered hubs, so each pass matches few pairs and every pass filters and "
                "compacts the remaining edges.\n")
    fig, ax = plt.subplots(figsize=(5, 3.6))
    for g in graphs:
        pts = sorted((r["threads"], r["time_s"]) for r in rows if r["graph"] == g and r["device"] == "cpu")
        ax.plot([t for t, _ in pts], [s for _, s in pts], marker="o", label=g)
    ax.set_xlabel("threads")
    ax.set_ylabel("seconds")
    ax.legend(fontsize=7)
    save_figure(plt, fig, os.path.join(ctx.out, "handshake-threads.svg"))
    text.append("\n![handshake's time against threads](handshake-threads.svg)\n")
    with open(os.path.join(ctx.out, "handshake.md"), "w") as f:
        f.write("\n".join(text))


# ---- Hovland 2020, ch. 5: sequential ROMA on complete graphs --------------

HOVLAND = "N. H. Hovland, *Maximum weighted matching on a GPU*, Master's thesis, University of Bergen, 2020, " \
          "sec. 5.4 (Table 5.1, Figures 5.2-5.5, Tables 5.2-5.4)"
HOVLAND_DISTS = ["uniform", "exponential", "geometric"]
# The thesis's names of the weight distributions.
HOVLAND_NAMES = {"uniform": "random", "exponential": "exponential", "geometric": "geometric"}


def hovland_plan(ctx):
    """(sizes, seeds, exact up to by distribution, phase-table size). The
    thesis: n = 1024 ... 90112, 5 graphs x 5 runs, the exact optimum up to
    32768 (geometric: 16384), the phase tables at 16384. Here: the sizes
    whose dense float graph fits in half the memory, 3 graphs (a run is a
    function of its seed: one run each), LEMON's optimum on the first graph
    up to 8192 (geometric: 2048; LEMON took over 8 minutes on the geometric
    graph of 4096 on a 2-core machine) and the auction's bound above."""
    if ctx.quick:
        return [512, 1024], [1], {d: 512 for d in HOVLAND_DISTS}, 1024
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        memory = 16 << 30
    sizes = [n for n in (1024, 2048, 4096, 8192, 16384, 32768, 57344, 73728, 90112) if 4 * n * n < memory / 2]
    return sizes, [1, 2, 3], {"uniform": 8192, "exponential": 8192, "geometric": 2048}, 16384


def hovland_run(ctx):
    bench = ctx.binary("bench_roma")
    sizes, seeds, exact_up_to, _ = hovland_plan(ctx)
    for dist in HOVLAND_DISTS:
        for n in sizes:
            for seed in seeds:
                def measure(dist=dist, n=n, seed=seed):
                    cmd = [bench, "--n", str(n), "--dists", dist, "--runs", "cpu", "--start", "neighbour",
                           "--phases", "8", "--seed", str(seed)]
                    if seed == seeds[0]:
                        limit = exact_up_to[dist]
                        cmd += ["--exact-up-to", str(limit)] if n <= limit else ["--upper-bound"]
                    out = run(cmd, ctx, timeout=6 * 3600)
                    summary = re.search(r"^summary run=cpu .*$", out, re.M)
                    if not summary:
                        raise StudyFailed("bench_roma printed no summary:\n" + out[-2000:])
                    fields = dict(kv.split("=", 1) for kv in summary.group(0).split()[1:] if "=" in kv)
                    row = {"study": "run", "dist": dist, "n": n, "seed": seed, "time_s": float(fields["total_s"]),
                           "phases": int(fields["phases"]), "weight": float(fields["weight"])}
                    if "optimum" in fields:
                        row["optimum"] = float(fields["optimum"])
                    if "bound" in fields:
                        row["upper_bound"] = float(fields["bound"])
                    rows = [row]
                    start = re.search(r"^ start\s+-\s+-\s+([0-9.]+)", out, re.M)
                    previous = float(start.group(1)) if start else None
                    for m in re.finditer(r"^\s+(\d+)\s+(\d+)\s+\d+\s+([0-9.]+)\s+([0-9.]+)", out, re.M):
                        weight = float(m.group(3))
                        rows.append({"study": "phase", "dist": dist, "n": n, "seed": seed, "phase": int(m.group(1)),
                                     "flips": int(m.group(2)), "start_weight": previous, "weight": weight,
                                     "time_s": float(m.group(4))})
                        previous = weight
                    return rows
                ctx.measure("%s n=%d seed=%d" % (dist, n, seed), measure)


def hovland_render(ctx, header, rows):
    plt = pyplot()
    runs = [r for r in rows if r["study"] == "run"]
    phases = [r for r in rows if r["study"] == "phase"]
    source = source_values("hovland")
    quick = type("Mode", (), {"quick": header["mode"] == "quick"})()
    sizes, seeds, exact_up_to, table_n = hovland_plan(quick)
    sizes = sorted({r["n"] for r in runs})
    seeds = sorted({r["seed"] for r in runs})

    def mean(values):
        values = [v for v in values if v is not None]
        return sum(values) / len(values) if values else None

    def src(figure, setting, quantity):
        for v in source:
            if v["figure"] == figure and v["setting"] == setting and v["quantity"] == quantity and v["value"]:
                return float(v["value"])
        return None

    text = [page_head("Hovland 2020: sequential ROMA on complete graphs", HOVLAND, header, "hovland")]
    text.append("\nThe thesis ran its sequential ROMA on a Xeon Platinum 8168 (3.7 GHz turbo) and averaged 5 graphs x 5 "
                "runs per point; here `roma` runs from the thesis's neighbour start (0-1, 2-3, ...), at most 8 "
                "phases, flips gaining more than 1e-5, on %d graph%s per point (seeds %s; a run is a function of its "
                "seed, so one run each), sizes %s.\n" % (len(seeds), "" if len(seeds) == 1 else "s",
                                                        ", ".join(map(str, seeds)), ", ".join(map(str, sizes))))
    # Table 5.1 and Figure 5.2: time; Figure 5.3: phases.
    text.append("\n## Table 5.1: runtimes of the random (uniform) graphs\n")
    table, previous = [], {}
    for n in sizes:
        t = mean(r["time_s"] for r in runs if r["dist"] == "uniform" and r["n"] == n)
        theirs = src("Table 5.1", str(n), "runtime")
        half = previous.get(n // 2) if n % 2 == 0 else None
        table.append([n, "%.4g s" % theirs if theirs else "-", "%.4g s" % t,
                      "%.2f" % (theirs / t) if theirs else "-", "%.2f" % (t / half) if half else "-"])
        previous[n] = t
    text.append(md_table(["n", "thesis", "this run", "thesis / this run", "ratio to n/2's time"], table) + "\n")
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.6))
    for dist in HOVLAND_DISTS:
        pts = [(n, mean(r["time_s"] for r in runs if r["dist"] == dist and r["n"] == n)) for n in sizes]
        axes[0].plot([n for n, _ in pts], [t for _, t in pts], marker="o", label=HOVLAND_NAMES[dist])
        pts = [(n, mean(r["phases"] for r in runs if r["dist"] == dist and r["n"] == n)) for n in sizes]
        axes[1].plot([n for n, _ in pts], [p for _, p in pts], marker="o", label=HOVLAND_NAMES[dist])
    theirs = [(int(v["setting"]), float(v["value"])) for v in source if v["figure"] == "Table 5.1" and v["value"]]
    if theirs:
        axes[0].plot([n for n, _ in theirs], [t for _, t in theirs], marker="x", linestyle=":", color="black",
                     label="thesis, random")
    axes[0].set_xscale("log", base=2)
    axes[0].set_yscale("log")
    axes[0].set_xlabel("n")
    axes[0].set_ylabel("seconds")
    axes[0].set_title("Figure 5.2: runtime")
    axes[1].set_xscale("log", base=2)
    axes[1].set_xlabel("n")
    axes[1].set_ylabel("phases")
    axes[1].set_title("Figure 5.3: phases")
    axes[0].legend(fontsize=7)
    save_figure(plt, fig, os.path.join(ctx.out, "hovland-runtime.svg"))
    text.append("\n![Figures 5.2 and 5.3: runtime and phases against n](hovland-runtime.svg)\n")
    table = []
    for dist in HOVLAND_DISTS:
        table.append([HOVLAND_NAMES[dist]] + ["%.1f" % mean(r["phases"] for r in runs if r["dist"] == dist and
                                                           r["n"] == n) for n in sizes])
    text.append("\nPhases used (Figure 5.3; the last one finds no flip):\n\n" +
                md_table(["distribution"] + [str(n) for n in sizes], table) + "\n")
    # Tables 5.2 and 5.3: flips and weight increase per phase at one size.
    n_table = table_n if table_n in sizes else sizes[-1]
    text.append("\n## Tables 5.2-5.3 and Figures 5.4-5.5: flips and weight per phase, n = %d\n" % n_table)
    if n_table != 16384:
        text.append("(The thesis measured n = 16384; this run's largest phase table is n = %d.)\n" % n_table)
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.6))
    flips_rows, gain_rows = [], []
    for dist in HOVLAND_DISTS:
        mine = [r for r in phases if r["dist"] == dist and r["n"] == n_table]
        top = max([r["phase"] for r in mine], default=-1)
        for p in range(top + 1):
            f = mean(r["flips"] for r in mine if r["phase"] == p)
            gain = mean(100.0 * (r["weight"] - r["start_weight"]) / r["start_weight"] for r in mine
                        if r["phase"] == p and r["start_weight"])
            f_src, g_src = src("Table 5.2", "%s phase %d" % (HOVLAND_NAMES[dist], p), "flips"), \
                src("Table 5.3", "%s phase %d" % (HOVLAND_NAMES[dist], p), "weight increase")
            flips_rows.append([HOVLAND_NAMES[dist], p, "-" if f_src is None else "%g" % f_src, "%.1f" % f])
            gain_rows.append([HOVLAND_NAMES[dist], p, "-" if g_src is None else "%.5f%%" % g_src,
                              "-" if gain is None else "%.5f%%" % gain])
        axes[0].plot(range(top + 1), [mean(r["flips"] for r in mine if r["phase"] == p) for p in range(top + 1)],
                     marker="o", label=HOVLAND_NAMES[dist])
        axes[1].plot(range(top + 1), [mean(r["start_weight"] for r in mine if r["phase"] == p)
                                      for p in range(top + 1)], marker="o", label=HOVLAND_NAMES[dist])
    for ax, title, label in ((axes[0], "Figure 5.4: flips per phase", "flips"),
                             (axes[1], "Figure 5.5: weight at each phase's start", "weight")):
        ax.set_title(title)
        ax.set_xlabel("phase")
        ax.set_ylabel(label)
    axes[0].set_yscale("symlog")
    axes[0].legend(fontsize=7)
    save_figure(plt, fig, os.path.join(ctx.out, "hovland-phases.svg"))
    text.append("\n![Figures 5.4 and 5.5](hovland-phases.svg)\n")
    text.append("\nTable 5.2, flips per phase (mean over the graphs):\n\n" +
                md_table(["distribution", "phase", "thesis (n = 16384)", "this run"], flips_rows) + "\n")
    text.append("\nTable 5.3, weight increase in the phase, percent of its start weight:\n\n" +
                md_table(["distribution", "phase", "thesis (n = 16384)", "this run"], gain_rows) + "\n")
    # Table 5.4: the gap to optimality.
    text.append("\n## Table 5.4: gap to optimality (GTO)\n")
    text.append("1 - weight / optimum, in percent, on the first graph of each size: LEMON's blossom algorithm up "
                "to n = %s (the thesis: Edmonds' algorithm from LEMON up to 32768, geometric to 16384); above it "
                "the auction's upper bound on the optimum, so the value is an upper bound on the gap (\u2264).\n\n"
                % ", ".join("%d (%s)" % (exact_up_to[d], HOVLAND_NAMES[d]) for d in HOVLAND_DISTS))
    table = []
    for n in sizes:
        cells = [n]
        for dist in HOVLAND_DISTS:
            r = [x for x in runs if x["dist"] == dist and x["n"] == n and x["seed"] == seeds[0]]
            theirs = src("Table 5.4", "%s %d" % (HOVLAND_NAMES[dist], n), "GTO")
            mine = "-"
            if r and r[0].get("optimum"):
                mine = "%.5f%%" % (100 * (1 - r[0]["weight"] / r[0]["optimum"]))
            elif r and r[0].get("upper_bound"):
                mine = "\u2264 %.5f%%" % (100 * (1 - r[0]["weight"] / r[0]["upper_bound"]))
            cells += ["-" if theirs is None else "%.5f%%" % theirs, mine]
        table.append(cells)
    header_cells = ["n"]
    for dist in HOVLAND_DISTS:
        header_cells += ["%s: thesis" % HOVLAND_NAMES[dist], "this run"]
    text.append(md_table(header_cells, table) + "\n")
    text.append("\n## Where this run differs\n")
    text.append(hovland_differences(runs, sizes, source) + "\n")
    text.append("- Here, at n = %d, the first phase makes %s of the flips.\n" % (n_table,
                                                                              first_phase_shares(phases, n_table)))
    with open(os.path.join(ctx.out, "hovland.md"), "w") as f:
        f.write("\n".join(text))


def hovland_differences(runs, sizes, source):
    """Sentences comparing the shapes the thesis reports with this run's."""
    notes = []
    uniform = {n: [r["time_s"] for r in runs if r["dist"] == "uniform" and r["n"] == n] for n in sizes}
    ratios = [sum(uniform[b]) / len(uniform[b]) / (sum(uniform[a]) / len(uniform[a]))
              for a, b in zip(sizes, sizes[1:]) if b == 2 * a and uniform[a] and uniform[b]]
    if ratios:
        notes.append("- Doubling n multiplies the time by %.2f-%.2f here (the thesis: 4.20-5.05, its Table 5.1): "
                     "O(phases x n^2) in both." % (min(ratios), max(ratios)))
    slowest = {d: sum(r["time_s"] for r in runs if r["dist"] == d) for d in HOVLAND_DISTS}
    notes.append("- The slowest distribution here is %s (the thesis: exponential, which needs the most phases); "
                 "the fastest is %s (the thesis: geometric)." % (HOVLAND_NAMES[max(slowest, key=slowest.get)],
                                                                HOVLAND_NAMES[min(slowest, key=slowest.get)]))
    for v in source:
        if v["quantity"] == "claim":
            notes.append("- The thesis (%s): %s." % (v["where"], v["note"]))
    return "\n".join(notes)


def first_phase_shares(phases, n):
    """The share of each distribution's flips made in phase 0 at size n."""
    shares = []
    for dist in HOVLAND_DISTS:
        mine = [r for r in phases if r["dist"] == dist and r["n"] == n]
        total = sum(r["flips"] for r in mine)
        if total:
            shares.append("%.2f%% (%s)" % (100.0 * sum(r["flips"] for r in mine if r["phase"] == 0) / total,
                                           HOVLAND_NAMES[dist]))
    return ", ".join(shares)


# ---- the studies ------------------------------------------------------------

# name: (title, citation, run, render) or (title, citation, None, why pending)
# ---- Naim 2017, Paper IV: stable marriage ---------------------------------

NAIM4 = "F. Manne, M. Naim, H. Lerring, M. Halappanavar, *On stable marriages and greedy matchings*, SIAM CSC " \
        "2016 (Paper IV of M. Naim's PhD thesis, Bergen, 2017), sec. 4, Figures 1-8"


def naim4_plan(ctx):
    """(easy sizes, hard sizes, thread counts): the paper's easy sizes (n =
    5M-25M; it ran 1, 9, 18, 27 and 36 threads) and hard ones up to 50K
    (the paper's reach 500K: a hard instance takes n(n + 1) / 2 proposals,
    and every algorithm and thread count of n = 50K took 158 s on the H200
    machine's 16 cores, so 100K takes over 10 minutes, more than one call
    of a device session, and 500K over four hours), or small ones for
    --quick."""
    c = ctx.cores
    if ctx.quick:
        return [50000, 100000], [1000, 2000], sorted({1, c})
    return ([5000000, 10000000, 15000000, 20000000, 25000000], [25000, 50000],
            sorted({1, max(1, c // 4), max(1, c // 2), max(1, 3 * c // 4), c}))


def parse_marriage(out):
    """bench_marriage's rows: case, n, algorithm, threads (0: the GPU's
    kernels), time, rank sum (both sides), MTEPS, and whether the matching
    is the first row's."""
    rows, n = [], None
    for line in out.splitlines():
        m = re.match(r"(easy|hard): n = (\d+)", line)
        if m:
            n = int(m.group(2))
            continue
        f = line.split()
        if len(f) == 7 and f[0] in ("easy", "hard") and f[2].isdigit():
            rows.append({"case": f[0], "n": n, "algorithm": f[1], "threads": int(f[2]), "time_s": float(f[3]),
                         "rank_sum": int(f[4]), "mteps": float(f[5]), "same_as_first": f[6] == "yes"})
    if not rows:
        raise StudyFailed("bench_marriage printed no rows:\n" + out[-1000:])
    return rows


def naim4_run(ctx):
    bench = ctx.binary("bench_marriage")
    easy, hard, threads = naim4_plan(ctx)
    # eps 0.5: every man's list has the paper's mean length (its men draw
    # each their own eps from [0, 1]).
    common = ["--threads", ",".join(map(str, threads)), "--reps", "1" if not ctx.quick else "3", "--eps", "0.5"]
    for case, sizes in (("easy", easy), ("hard", hard)):
        for n in sizes:
            args = ["--easy", str(n), "--hard", "0"] if case == "easy" else ["--easy", "0", "--hard", str(n)]
            ctx.measure("%s %d" % (case, n),
                        lambda args=args: parse_marriage(run([bench] + args + common, ctx, timeout=6 * 3600)))


def naim4_render(ctx, header, rows):
    plt = pyplot()
    top = max(r["threads"] for r in rows)
    names = {"gale-shapley": "Gale-Shapley", "mcvitie-wilson": "McVitie-Wilson", "gale-shapley-omp":
             "Gale-Shapley OpenMP", "mcvitie-wilson-omp": "McVitie-Wilson OpenMP", "mcvitie-wilson-gpu":
             "McVitie-Wilson GPU"}
    text = [page_head("Naim 2017, Paper IV: stable marriage by Gale-Shapley and McVitie-Wilson", NAIM4, header,
                      "naim-4")]
    text.append("\nThe paper's two random data sets, as `bench_marriage` draws them: *easy*, each man ranks "
                "ceil(1.5 ln n) random women (`--eps 0.5`; the paper draws each man's eps from [0, 1], lists of "
                "(1 + eps) ln n, the same length on average) and each woman the men who rank her; "
                "*hard*, every man has the same complete random list and so has every woman (n(n + 1) / 2 "
                "proposals). Every row's matching is checked stable and equal to the first row's. TEPS here is "
                "`bench_marriage`'s: the ranks of the final partners summed over both sides, over the time, "
                "about twice the paper's (which sums the men's side only). The GPU rows time the kernels alone "
                "(the instance already on the device).\n")
    same = all(r["same_as_first"] for r in rows)
    text.append("\n*Every algorithm, thread count and device gave %s.*\n" % (
        "the same stable matching" if same else "NOT always the same matching"))
    easy, hard, _ = naim4_plan(type("Plan", (), {"quick": header["mode"] == "quick",
                                                 "cores": run_cores(header, ctx)})())
    measured = {case: {r["n"] for r in rows if r["case"] == case} for case in ("easy", "hard")}
    missing = ["%s n = %s" % (case, ", ".join(str(n) for n in sizes if n not in measured[case]))
               for case, sizes in (("easy", easy), ("hard", hard)) if set(sizes) - measured[case]]
    if missing:
        text.append("\n*Not measured in this run* (planned for its mode): %s.\n" % "; ".join(missing))
    for case, reference in (("easy", "gale-shapley"), ("hard", "mcvitie-wilson")):
        sizes = sorted({r["n"] for r in rows if r["case"] == case})
        if not sizes:
            continue
        table = []
        for n in sizes:
            at = [r for r in rows if r["case"] == case and r["n"] == n]
            base = next((r["time_s"] for r in at if r["algorithm"] == reference and r["threads"] == 1), None)
            for r in sorted(at, key=lambda r: (r["algorithm"], r["threads"])):
                speedup = "%.2fx" % (base / r["time_s"]) if base and r["time_s"] > 0 else "-"
                table.append([n, names.get(r["algorithm"], r["algorithm"]), r["threads"] or "GPU",
                              fmt_s(r["time_s"]), speedup, "%.0f" % r["mteps"]])
        text.append("\n## The %s data set\n\n" % case + md_table(
            ["n", "algorithm", "threads", "time", "speedup over sequential " + names[reference], "MTEPS"], table)
            + "\n")
    text.append("\n## Beside the paper\n\nThe paper ran 36 threads of two Xeon E5-2699 and a Tesla K40m; it "
                "states these values in its text (its figures are plots):\n")
    for v in source_values("naim-4"):
        text.append("- %s (%s): %s." % (v["figure"], v["setting"], v["note"]))
    largest = {case: max((r["n"] for r in rows if r["case"] == case), default=None) for case in ("easy", "hard")}
    mine, differ = [], []

    def t(case, algorithm, threads):
        return next((r["time_s"] for r in rows if r["case"] == case and r["n"] == largest[case] and
                     r["algorithm"] == algorithm and r["threads"] == threads), None)
    if largest["easy"]:
        gs, mw, seq = t("easy", "gale-shapley-omp", top), t("easy", "mcvitie-wilson-omp", top), \
            t("easy", "gale-shapley", 1)
        if gs and mw and seq:
            mine.append("easy n = %d, %d threads: Gale-Shapley OpenMP %s, McVitie-Wilson OpenMP %s (%s is faster "
                        "by %.0f%%), Gale-Shapley OpenMP %.1fx the sequential Gale-Shapley" % (
                            largest["easy"], top, fmt_s(gs), fmt_s(mw),
                            "Gale-Shapley" if gs < mw else "McVitie-Wilson", abs(mw / gs - 1) * 100, seq / gs))
    for case in ("easy", "hard"):
        gpu, omp = t(case, "mcvitie-wilson-gpu", 0), t(case, "gale-shapley-omp", top)
        if largest[case] and gpu and omp:
            mine.append("%s n = %d: McVitie-Wilson GPU %s (kernels alone), %.0fx Gale-Shapley OpenMP on %d threads"
                        % (case, largest[case], fmt_s(gpu), omp / gpu, top))
    if largest["hard"]:
        gs, mw, seq_mw, seq_gs = t("hard", "gale-shapley-omp", top), t("hard", "mcvitie-wilson-omp", top), \
            t("hard", "mcvitie-wilson", 1), t("hard", "gale-shapley", 1)
        if gs and mw and seq_mw and seq_gs:
            mine.append("hard n = %d, %d threads: McVitie-Wilson OpenMP %s (%.1fx the sequential McVitie-Wilson), "
                        "Gale-Shapley OpenMP %s (%.1fx it); the sequential Gale-Shapley %.0f%% %s than the "
                        "sequential McVitie-Wilson" % (largest["hard"], top, fmt_s(mw), seq_mw / mw, fmt_s(gs),
                                                       seq_mw / gs, abs(seq_gs / seq_mw - 1) * 100,
                                                       "slower" if seq_gs > seq_mw else "faster"))
            if seq_mw / mw < 5:
                differ.append(
                    "On the hard data set our OpenMP McVitie-Wilson gains %.1fx over the sequential one on %d threads, "
                    "where the paper's gains about 22x on 36. Taken in the order of their numbers, men of random rank "
                    "enter a prefix of women held in rank order: a new man takes his place and every worse man moves "
                    "one woman down, so about half of the n(n + 1) / 2 proposals are accepted offers, each a write to a "
                    "woman's word that the other threads are reading. The paper's parallel Gale-Shapley stays under "
                    "2.5x the sequential McVitie-Wilson, as ours does (%.1fx); there McVitie-Wilson is the one that "
                    "scales, here it is not" % (seq_mw / mw, top, seq_mw / gs))
            if seq_gs < seq_mw:
                differ.append(
                    "The paper's sequential Gale-Shapley is 109%% slower than its sequential McVitie-Wilson on the hard "
                    "set, ours %.0f%% faster. Both make exactly n(n + 1) / 2 proposals there (a man of rank r "
                    "proposes to the first r + 1 women, in either order), so the difference is the cost of a "
                    "proposal in each implementation, not the algorithms' work" % ((1 - seq_gs / seq_mw) * 100))
    text.append("\n*This run* (%s, at most %d threads):\n" % (header["machine"], top))
    text.extend("- %s." % m for m in mine)
    if differ:
        text.append("\n**Where we differ.** " + " ".join("%s." % d for d in differ) + "\n")
    text.append("\n`--full` runs the paper's easy sizes and thread counts, and hard instances up to n = 50K (the "
                "paper's go to 500K: n(n + 1) / 2 proposals each; every algorithm and thread count of 50K took 158 s "
                "on the H200 machine, so 100K needs over 10 minutes and 500K over four hours); a "
                "run on fewer cores shows less speedup, and a quick run's small instances mostly the threads' "
                "start-up.\n")
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.6))
    for ax, case in zip(axes, ("easy", "hard")):
        for algorithm in names:
            pts = sorted((r["n"], r["time_s"]) for r in rows if r["case"] == case and r["algorithm"] == algorithm
                         and r["threads"] in (top, 0 if algorithm.endswith("-gpu") else top))
            if pts:
                ax.plot([n for n, _ in pts], [x for _, x in pts], marker="o", label=names[algorithm])
        ax.set_title("%s data set (%d threads)" % (case, top), fontsize=9)
        ax.set_xlabel("n")
        ax.set_ylabel("seconds")
        if ax.lines:
            ax.legend(fontsize=6)
        else:
            ax.text(0.5, 0.5, "not measured in this run", ha="center", va="center", transform=ax.transAxes)
    save_figure(plt, fig, os.path.join(ctx.out, "naim-4-time.svg"))
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.6))
    for ax, (case, reference) in zip(axes, (("easy", "gale-shapley"), ("hard", "mcvitie-wilson"))):
        n = largest[case]
        base = next((r["time_s"] for r in rows if r["case"] == case and r["n"] == n and r["algorithm"] == reference
                     and r["threads"] == 1), None)
        for algorithm in ("gale-shapley-omp", "mcvitie-wilson-omp"):
            pts = sorted((r["threads"], r["time_s"]) for r in rows if r["case"] == case and r["n"] == n and
                         r["algorithm"] == algorithm)
            if pts and base:
                ax.plot([p for p, _ in pts], [base / x for _, x in pts], marker="o", label=names[algorithm])
        ax.set_title("%s, n = %s: over the sequential %s" % (case, n, names[reference]), fontsize=9)
        ax.set_xlabel("threads")
        ax.set_ylabel("speedup")
        if ax.lines:
            ax.legend(fontsize=6)
        else:
            ax.text(0.5, 0.5, "not measured in this run", ha="center", va="center", transform=ax.transAxes)
    save_figure(plt, fig, os.path.join(ctx.out, "naim-4-speedup.svg"))
    text.append("\n![time against n (the paper's Figures 1, 3 and 5)](naim-4-time.svg)\n")
    text.append("\n![speedup against threads (the paper's Figures 2, 4 and 6)](naim-4-speedup.svg)\n")
    with open(os.path.join(ctx.out, "naim-4.md"), "w") as f:
        f.write("\n".join(text))


# ---- Naim 2017, Paper III: Louvain on the GPU -----------------------------

NAIM3 = "M. Naim, F. Manne, M. Halappanavar, A. Tumeo, *Community detection on the GPU*, IPDPS 2017 (Paper III " \
        "of M. Naim's PhD thesis, Bergen, 2017), sec. 5, Figures 1-7"
NAIM3_BIN = [1e-1, 1e-2, 1e-3, 1e-4]     # the paper's th_bin: 10^k, k = -1 .. -4
NAIM3_FINAL = [1e-3, 1e-4, 1e-5, 1e-6, 1e-7]  # th_final: 10^l, l = -3 .. -7


def naim3_plan(ctx):
    """(graphs as (label, gen arguments), the th_final values of the
    threshold grid). The paper's 56 graphs (Florida, SNAP, Koblenz; each at
    least 10 s for the sequential Louvain) are not reachable here: generated
    R-MAT, ER and grid graphs stand in."""
    if ctx.quick:
        return [("rmat 2^13", ["rmat", "8192"]), ("grid 64", ["grid", "64"])], [1e-3, 1e-6]
    # About 20 runs a graph (the grid, the sequential entries, PLM): these
    # three fit a GPU machine's session; --resume goes on where one stopped.
    return ([("rmat 2^20", ["rmat", "1048576"]), ("er 2^20", ["er", "1048576"]), ("grid 1024", ["grid", "1024"])],
            NAIM3_FINAL)


def naim3_parallel(ctx, cli):
    """The entry standing for the paper's GPU code: louvain-gpu where this
    build and machine run it (tried on a small grid), else louvain-omp on
    every core."""
    probe = os.path.join(ctx.scratch, "probe.mtx")
    run([cli, "gen", "grid", "8", "--out", probe], ctx, timeout=60)
    try:
        run([cli, "cluster", probe, "--algo", "louvain-gpu", "--quiet"], ctx, timeout=600)
        return "louvain-gpu"
    except StudyFailed:
        return "louvain-omp"


def naim3_cluster(ctx, cli, path, algo, th_bin, th_final):
    out = run([cli, "cluster", path, "--algo", algo, "--json", "--quiet", "--threads", str(ctx.cores),
               "--threshold", repr(th_bin), "--final-threshold", repr(th_final)], ctx, timeout=6 * 3600)
    r = json.loads(out)
    return {"algo": algo, "th_bin": th_bin, "th_final": th_final, "modularity": r["modularity"],
            "communities": r["communities"], "time_s": r["time_s"], "refine_s": r.get("refine_s", 0.0),
            "levels": [{"vertices": l["vertices"], "entries": l["entries"], "passes": l["passes"],
                        "time_s": l["time_s"], "move_s": l.get("move_s")} for l in r["levels"]]}


def naim3_plm(path, threads):
    """NetworKit's PLM (refine off, its defaults) on the file's graph, or
    None without networkit."""
    try:
        import networkit as nk
        import scipy.io
        import scipy.sparse as sp
    except ImportError:
        return None
    import time
    a = sp.coo_matrix(scipy.io.mmread(path))
    a = sp.coo_matrix(a.maximum(a.T))
    keep = a.row < a.col
    g = nk.GraphFromCoo((a.data[keep], (a.row[keep].astype("uint64"), a.col[keep].astype("uint64"))),
                        n=a.shape[0], weighted=True, directed=False)
    nk.setNumberOfThreads(threads)
    plm = nk.community.PLM(g, refine=False)
    t = time.perf_counter()
    plm.run()
    seconds = time.perf_counter() - t
    return {"algo": "plm", "threads": threads, "modularity": nk.community.Modularity().getQuality(
        plm.getPartition(), g), "time_s": seconds}


def naim3_run(ctx):
    cli = ctx.binary("matchblas")
    graphs, finals = naim3_plan(ctx)
    parallel = naim3_parallel(ctx, cli)
    for label, spec in graphs:
        path = os.path.join(ctx.scratch, label.replace(" ", "_").replace("^", "") + ".mtx")
        run([cli, "gen"] + spec + ["--seed", "1", "--out", path], ctx, timeout=3600)
        # The sequential Louvain as the paper ran it (one threshold, 1e-6),
        # and adaptive (th_bin 1e-2 until a level gains less).
        ctx.measure("%s sequential" % label, lambda path=path, label=label: [dict(
            naim3_cluster(ctx, cli, path, "louvain", 1e-6, 1e-6), graph=label, role="sequential")])
        ctx.measure("%s adaptive" % label, lambda path=path, label=label: [dict(
            naim3_cluster(ctx, cli, path, "louvain", 1e-2, 1e-6), graph=label, role="adaptive")])
        ctx.measure("%s grid" % label, lambda path=path, label=label, parallel=parallel: [dict(
            naim3_cluster(ctx, cli, path, parallel, b, f), graph=label, role="grid")
            for b in NAIM3_BIN for f in finals if f <= b])  # the tool refuses th_final > th_bin
        if parallel == "louvain-gpu":  # the paper's OpenMP peer (Lu et al.'s code): louvain-omp here
            ctx.measure("%s openmp" % label, lambda path=path, label=label: [dict(
                naim3_cluster(ctx, cli, path, "louvain-omp", 1e-2, 1e-6), graph=label, role="openmp")])
        ctx.measure("%s plm" % label, lambda path=path, label=label: [
            dict(r, graph=label, role="plm") for r in [naim3_plm(path, ctx.cores)] if r is not None])


def naim3_render(ctx, header, rows):
    plt = pyplot()
    graphs = graphs_in_order(rows)
    grid = [r for r in rows if r["role"] == "grid"]
    parallel = grid[0]["algo"] if grid else "louvain-gpu"
    finals = sorted({r["th_final"] for r in grid}, reverse=True)

    def one(graph, role, **match):
        return next((r for r in rows if r["graph"] == graph and r["role"] == role and
                     all(r.get(k) == v for k, v in match.items())), None)
    text = [page_head("Naim 2017, Paper III: Louvain on the GPU", NAIM3, header, "naim-3")]
    stand_in = parallel != "louvain-gpu"
    text.append("\nThe paper's 56 graphs (Florida, SNAP and Koblenz collections, each at least 10 s for the "
                "sequential Louvain) are not reachable here: generated R-MAT, ER and grid graphs stand in "
                "(`matchblas gen KIND N --seed 1`). *The paper's GPU code* is `%s` in this run%s; *the "
                "sequential Louvain* is `louvain` with one threshold of 1e-6 (the original code's), *adaptive* "
                "with th_bin 1e-2 (the tool's rule: th_bin until a level gains less than it, th_final after, as "
                "Lu et al.'s stages; the paper switches at 100,000 vertices); *Lu et al.'s OpenMP code* is "
                "`louvain-omp` (a "
                "colouring-based OpenMP Louvain after Lu et al.) and *PLM* is NetworKit's (refine off), both on "
                "%d threads. Times are the algorithm's alone (the graph in memory), modularity each run's own.\n"
                % (parallel, " (no usable GPU: `louvain-omp` on every core stands in, so the speedups below are "
                   "of the CPU entry)" if stand_in else "", run_cores(header, ctx)))
    # Figures 1-2: the threshold grid, averaged over the graphs.
    table, heat_q, heat_s = [], [], []
    best = {g: max((1.0 / r["time_s"] for r in grid if r["graph"] == g), default=None) for g in graphs}
    for b in NAIM3_BIN:
        line_q, line_s = [], []
        for f in finals:
            rel_q, rel_s = [], []
            for g in graphs:
                r, seq = one(g, "grid", th_bin=b, th_final=f), one(g, "sequential")
                if r and seq and seq["modularity"] > 0:
                    rel_q.append(r["modularity"] / seq["modularity"])
                    rel_s.append((1.0 / r["time_s"]) / best[g])
            q = sum(rel_q) / len(rel_q) if rel_q else float("nan")
            s = sum(rel_s) / len(rel_s) if rel_s else float("nan")
            line_q.append(q)
            line_s.append(s)
            if rel_q:
                table.append(["%g" % b, "%g" % f, "%.2f%%" % (100 * q), "%.0f%%" % (100 * s)])
        heat_q.append(line_q)
        heat_s.append(line_s)
    text.append("\n## Thresholds (the paper's Figures 1 and 2)\n\nMean over the graphs of `%s`'s modularity "
                "over the sequential Louvain's, and of its speed over its fastest threshold pair on the same "
                "graph (pairs with th_final above th_bin, which the paper also ran, are refused by the tool "
                "and left out):\n\n" % parallel + md_table(["th_bin", "th_final", "modularity / sequential",
                                                    "speed / best"], table) + "\n")
    # Figures 3, 4 and 7, and PLM: per graph at the paper's choice (1e-2, 1e-6).
    table = []
    for g in graphs:
        seq, ada, par = one(g, "sequential"), one(g, "adaptive"), one(g, "grid", th_bin=1e-2, th_final=1e-6)
        omp, plm = one(g, "openmp"), one(g, "plm")
        if not (seq and ada and par):
            continue
        table.append([g, "%.4f" % seq["modularity"], "%.4f" % ada["modularity"], "%.4f" % par["modularity"],
                      fmt_s(seq["time_s"]), fmt_s(ada["time_s"]), fmt_s(par["time_s"]),
                      "%.1fx" % (seq["time_s"] / par["time_s"]), "%.1fx" % (ada["time_s"] / par["time_s"]),
                      "%.1fx" % (omp["time_s"] / par["time_s"]) if omp else "-",
                      "%.1fx / %+.1f%%" % (plm["time_s"] / par["time_s"],
                                           100 * (par["modularity"] / plm["modularity"] - 1)) if plm else "-"])
    text.append("\n## Speedups (the paper's Figures 3, 4 and 7, and PLM)\n\nAt the paper's thresholds "
                "(th_bin 1e-2, th_final 1e-6); speedups are the other entry's time over `%s`'s:\n\n" % parallel
                + md_table(["graph", "Q sequential", "Q adaptive", "Q " + parallel, "sequential", "adaptive",
                            parallel, "over sequential", "over adaptive", "over louvain-omp",
                            "over PLM / Q vs PLM"], table) + "\n")
    # Figures 5-6: time per level on the largest graph.
    g = graphs[-1] if graphs else None
    par = one(g, "grid", th_bin=1e-2, th_final=1e-6) if g else None
    if par:
        levels = par["levels"]
        total = sum(l["time_s"] for l in levels) + par["refine_s"]
        split = bool(levels) and all(l.get("move_s") is not None for l in levels)  # older rows lack it
        share = lambda t: "%.0f%%" % (100 * t / total if total else 0)
        table = [[i, l["vertices"], l["entries"], l["passes"], fmt_s(l["time_s"])]
                 + ([fmt_s(l["move_s"]), fmt_s(l["time_s"] - l["move_s"])] if split else [])
                 + [share(l["time_s"])] for i, l in enumerate(levels)]
        table.append(["final moves", "", "", "", fmt_s(par["refine_s"])] + (["", ""] if split else [])
                     + [share(par["refine_s"])])
        heads = ["level", "vertices", "entries", "rounds", "time"] + (["moves", "aggregation"] if split else [])
        if split:
            moves = sum(l["move_s"] for l in levels)
            aggregation = sum(l["time_s"] - l["move_s"] for l in levels)
            pct = lambda t: "%.0f%%" % (100 * t / (moves + aggregation) if moves + aggregation else 0)
            what = ("Each level's time split into its moves (the optimization phase) and the rest (renumbering, "
                    "scoring and aggregation); over the levels, %s in the moves and %s in the aggregation "
                    "(the paper: about 70%% and 30%%):" % (pct(moves), pct(aggregation)))
        else:
            what = "Each level's moves and its aggregation together (these rows predate the split):"
        text.append("\n## Time per level (the paper's Figures 5 and 6), %s\n\n%s\n\n" % (g, what) +
                    md_table(heads + ["share"], table) + "\n")
    # Beside the paper.
    text.append("\n## Beside the paper\n\nThe paper ran a Tesla K40m (sequential: Blondel et al.'s code on a "
                "3.3 GHz Xeon i5-6600; OpenMP: two 10-core Xeon E5-2680, 20 threads; PLM: 32 threads) and "
                "states these values in its text (its figures are plots):\n")
    for v in source_values("naim-3"):
        text.append("- %s (%s): %s." % (v["figure"], v["setting"], v["note"]))
    mine = []
    sp_seq = [one(g, "sequential")["time_s"] / one(g, "grid", th_bin=1e-2, th_final=1e-6)["time_s"]
              for g in graphs if one(g, "sequential") and one(g, "grid", th_bin=1e-2, th_final=1e-6)]
    sp_ada = [one(g, "adaptive")["time_s"] / one(g, "grid", th_bin=1e-2, th_final=1e-6)["time_s"]
              for g in graphs if one(g, "adaptive") and one(g, "grid", th_bin=1e-2, th_final=1e-6)]
    q_rel = [one(g, "grid", th_bin=1e-2, th_final=1e-6)["modularity"] / one(g, "sequential")["modularity"]
             for g in graphs if one(g, "sequential") and one(g, "grid", th_bin=1e-2, th_final=1e-6)]
    ada_speed = [one(g, "sequential")["time_s"] / one(g, "adaptive")["time_s"] for g in graphs
                 if one(g, "sequential") and one(g, "adaptive")]
    if sp_seq:
        mine.append("`%s` at (1e-2, 1e-6): %.1f-%.1fx the sequential Louvain (mean %.1fx), %.1f-%.1fx the "
                    "adaptive one (mean %.1fx), at %.1f%% of the sequential modularity on average" % (
                        parallel, min(sp_seq), max(sp_seq), sum(sp_seq) / len(sp_seq), min(sp_ada), max(sp_ada),
                        sum(sp_ada) / len(sp_ada), 100 * sum(q_rel) / len(q_rel)))
    if ada_speed:
        mine.append("th_bin in the sequential Louvain: %.1fx faster on average (the paper: 7.3x)" % (
            sum(ada_speed) / len(ada_speed)))
    worst = min((q for line in heat_q for q in line if q == q), default=None)
    if worst is not None:
        mine.append("over the threshold grid the mean modularity is at worst %.1f%% of the sequential's (the "
                    "paper: never more than 2%% lower)" % (100 * worst))
    text.append("\n*This run* (%s):\n" % header["machine"])
    text.extend("- %s." % m for m in mine)
    seq_times = [one(g, "sequential")["time_s"] for g in graphs if one(g, "sequential")]
    size = ("a quick run's graphs are small, so fixed costs (the process, the upload) weigh more than at the "
            "paper's sizes" if header["mode"] == "quick" else
            "they are at the small end of the paper's (its graphs took at least 10 s in the sequential code; "
            "these %s), where a GPU's fixed costs (launches, the colouring, the last levels' few vertices) weigh "
            "more" % ("%s to %s" % (fmt_s(min(seq_times)), fmt_s(max(seq_times))) if seq_times else "-"))
    text.append("\nWhere this run differs: the graphs are generated, not the paper's; %s. %s\n" % (
        size, "Without a GPU the CPU entry stands in, so its speedups over the sequential code are those of %d "
        "cores, not of a GPU." % run_cores(header, ctx) if stand_in else ""))
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.4))
    for ax, heat, title in ((axes[0], heat_q, "modularity / sequential (Figure 1)"),
                            (axes[1], heat_s, "speed / best (Figure 2)")):
        im = ax.imshow(heat, cmap="viridis", aspect="auto")
        ax.set_xticks(range(len(finals)))
        ax.set_xticklabels(["%g" % f for f in finals], fontsize=7)
        ax.set_yticks(range(len(NAIM3_BIN)))
        ax.set_yticklabels(["%g" % b for b in NAIM3_BIN], fontsize=7)
        ax.set_xlabel("th_final")
        ax.set_ylabel("th_bin")
        ax.set_title(title, fontsize=9)
        fig.colorbar(im, ax=ax)
    save_figure(plt, fig, os.path.join(ctx.out, "naim-3-thresholds.svg"))
    text.append("\n![the threshold grid (the paper's Figures 1 and 2)](naim-3-thresholds.svg)\n")
    with open(os.path.join(ctx.out, "naim-3.md"), "w") as f:
        f.write("\n".join(text))


# ---- Hovland 2020, sec. 5.5-5.6: parallel ROMA 1 and 2, and roma-gpu ------

HOVLAND_GPU = "N. H. Hovland, *Maximum weighted matching on a GPU*, Master's thesis, University of Bergen, 2020, " \
              "sec. 5.5-5.6 (Figures 5.8-5.11, 5.15, 5.17, 5.23-5.24, Tables 5.5-5.9 and 5.12)"
HOVLAND_GPU_RUNS = {"1": "parallel ROMA 1", "2": "parallel ROMA 2", "fast": "roma-gpu", "cpu": "sequential ROMA"}


def hovland_gpu_plan(ctx):
    """(sizes, seeds, phase-table size, sequential up to, gain-study size).
    The thesis: n = 1024 ... 90112, 5 graphs x 5 runs, the phase tables at
    16384, the gain study on the geometric graph of 90112. Here: 3 graphs
    (a GPU run's flips race, so a run is not a function of its seed, but one
    run each keeps the study inside a device session; --resume goes on),
    the sequential ROMA beside them up to 16384 (its time grows as n^2 a
    phase: 90112 would take an hour)."""
    if ctx.quick:
        return [512, 1024], [1], 1024, 1024, 1024
    return [1024, 2048, 4096, 8192, 16384, 32768, 57344, 73728, 90112], [1, 2, 3], 16384, 16384, 90112


def parse_roma_runs(out, **fields):
    """bench_roma's runs as rows: one "run" row per summary (with its
    phases as "phase" rows before it), and a "skipped" row per GPU run it
    could not make."""
    rows, phases, start = [], [], None
    for line in out.splitlines():
        m = re.match(r"roma-gpu (\S+) skipped: (.*)", line)
        if m:
            rows.append(dict(fields, study="skipped", algo=m.group(1), why=m.group(2)))
            continue
        m = re.match(r"^ *start\s+-\s+-\s+([0-9.eE+-]+)", line)
        if m:
            start, phases = float(m.group(1)), []
            continue
        m = re.match(r"^\s+(\d+)\s+(\d+)\s+\S+\s+([0-9.eE+-]+)\s+([0-9.eE+-]+)", line)
        if m:
            phases.append({"phase": int(m.group(1)), "flips": int(m.group(2)), "weight": float(m.group(3)),
                           "time_s": float(m.group(4))})
            continue
        if line.startswith("summary run="):
            f = dict(kv.split("=", 1) for kv in line.split()[1:] if "=" in kv)
            algo = f["run"]
            previous = start
            for p in phases:
                rows.append(dict(fields, study="phase", algo=algo, start_weight=previous, **p))
                previous = p["weight"]
            row = dict(fields, study="run", algo=algo, time_s=float(f["total_s"]), phases=int(f["phases"]),
                       start_weight=start, weight=float(f["weight"]))
            if "bound" in f:
                row["upper_bound"] = float(f["bound"])
            if "optimum" in f:
                row["optimum"] = float(f["optimum"])
            rows.append(row)
            phases, start = [], None
    if not any(r["study"] in ("run", "skipped") for r in rows):
        raise StudyFailed("bench_roma printed no run:\n" + out[-2000:])
    return rows


def hovland_gpu_run(ctx):
    bench = ctx.binary("bench_roma")
    sizes, seeds, phase_n, sequential_up_to, gain_n = hovland_gpu_plan(ctx)
    for dist in HOVLAND_DISTS:
        for n in sizes:
            for seed in seeds:
                def measure(dist=dist, n=n, seed=seed):
                    runs = ["1", "2", "fast"] + (["cpu"] if n <= sequential_up_to else [])
                    cmd = [bench, "--n", str(n), "--dists", dist, "--runs", ",".join(runs), "--start", "neighbour",
                           "--phases", "8", "--seed", str(seed), "--gpu-generate"]
                    if n == phase_n and seed == seeds[0]:
                        cmd.append("--upper-bound")
                    return parse_roma_runs(run(cmd, ctx, timeout=6 * 3600), dist=dist, n=n, seed=seed,
                                           min_gain=1e-5)
                ctx.measure("%s n=%d seed=%d" % (dist, n, seed), measure)
    # Figure 5.15: the geometric graph with and without the gain requirement.
    for gain in (0.0, 1e-5):
        ctx.measure("gain %g" % gain, lambda gain=gain: [
            dict(r, study="gain" if r["study"] == "run" else "gain-" + r["study"]) for r in parse_roma_runs(
                run([bench, "--n", str(gain_n), "--dists", "geometric", "--runs", "2", "--start", "neighbour",
                     "--phases", "8", "--seed", "1", "--gpu-generate", "--min-gain", repr(gain)], ctx,
                    timeout=6 * 3600), dist="geometric", n=gain_n, seed=1, min_gain=gain)])


def hovland_gpu_render(ctx, header, rows):
    plt = pyplot()
    source = source_values("hovland-gpu")
    runs = [r for r in rows if r["study"] == "run"]
    quick = type("Mode", (), {"quick": header["mode"] == "quick"})()
    _, _, phase_n, _, gain_n = hovland_gpu_plan(quick)
    sizes = sorted({r["n"] for r in runs})
    seeds = sorted({r["seed"] for r in runs})
    gpu = any(r["algo"] != "cpu" for r in runs)

    def mean(values):
        values = [v for v in values if v is not None]
        return sum(values) / len(values) if values else None

    def at(algo, dist, n, key="time_s"):
        return mean([r[key] for r in runs if r["algo"] == algo and r["dist"] == dist and r["n"] == n])

    def src(figure, setting, quantity):
        return next((float(v["value"]) for v in source if v["figure"] == figure and v["setting"] == setting and
                     v["quantity"] == quantity and v["value"] != ""), None)

    def ratio(a, b):
        return "%.2fx" % (a / b) if a and b else "-"

    text = [page_head("Hovland 2020: parallel ROMA on the GPU", HOVLAND_GPU, header, "hovland-gpu")]
    text.append("\nThe thesis ran its parallel ROMA 1 (a thread per vertex, Alg. 6) and 2 (a 1024-thread block per "
                "vertex, Alg. 8) on an NVIDIA GPU and its sequential ROMA on a Xeon Platinum 8168, averaging 5 graphs "
                "x 5 runs per point. Here `roma-gpu-1` and `roma-gpu-2` are those two kernels as the thesis writes "
                "them (the block size 1024 and waiting for the next phase after a failed flip, the thesis's choices "
                "of sec. 5.5.1-5.5.2, are built in), `roma-gpu` is matchblas's own (bandwidth-bound phases, "
                "bench/RESULTS.md), and `roma` the sequential ROMA on one core of this machine's host. Every run "
                "starts from the thesis's neighbour matching (0-1, 2-3, ...), runs at most 8 phases, and flips only "
                "for a gain above 1e-5. %d graph%s a point (seeds %s), one run each; sizes %s; GPU times are the "
                "phases' kernels (CUDA events), the graph drawn on the device.\n" % (
                    len(seeds), "" if len(seeds) == 1 else "s", ", ".join(map(str, seeds)),
                    ", ".join(map(str, sizes))))
    if not gpu:
        why = next((r["why"] for r in rows if r["study"] == "skipped"), "no GPU")
        text.append("\n**GPU rows: not run on this machine** (%s). The tables below hold the sequential rows only; "
                    "the GPU machine's run fills them.\n" % why)
    # Figures 5.8-5.11 and 5.23-5.24: runtimes, phases, speedups.
    table = []
    for dist in HOVLAND_DISTS:
        for n in sizes:
            t1, t2, tf, ts = at("1", dist, n), at("2", dist, n), at("fast", dist, n), at("cpu", dist, n)
            thesis = src("Table 5.12", "%s %d" % (HOVLAND_NAMES[dist], n), "speedup")
            table.append([HOVLAND_NAMES[dist], n, fmt_s(t1), fmt_s(t2), fmt_s(tf), fmt_s(ts), ratio(t1, t2),
                          ratio(ts, t2), "%.2fx" % thesis if thesis else "-", ratio(t2, tf),
                          "%.1f" % at("2", dist, n, "phases") if at("2", dist, n, "phases") is not None else "-"])
    text.append("\n## Runtime, phases and speedups (the thesis's Figures 5.8-5.11, 5.23-5.24, Table 5.12)\n\n" +
                md_table(["weights", "n", "ROMA 1", "ROMA 2", "roma-gpu", "sequential", "ROMA 1 / ROMA 2",
                          "sequential / ROMA 2", "the thesis: sequential / ROMA 2", "ROMA 2 / roma-gpu",
                          "ROMA 2 phases"], table) + "\n")
    # Tables 5.5-5.6 and Figure 5.17: ROMA 2's phases at phase_n.
    phase_rows = [r for r in rows if r["study"] == "phase" and r["n"] == phase_n]
    thesis_size = phase_n == 16384  # the thesis's tables are of n = 16384: set beside ours only at that size
    table = []
    for dist in HOVLAND_DISTS:
        for p in range(8):
            mine = [r for r in phase_rows if r["algo"] == "2" and r["dist"] == dist and r["phase"] == p]
            if not mine:
                continue
            flips = mean([r["flips"] for r in mine])
            inc = mean([100 * (r["weight"] / r["start_weight"] - 1) for r in mine if r["start_weight"]])
            t_flips = src("Table 5.5", "%s phase %d" % (HOVLAND_NAMES[dist], p), "flips") if thesis_size else None
            t_inc = src("Table 5.6", "%s phase %d" % (HOVLAND_NAMES[dist], p), "weight increase") if thesis_size \
                else None
            table.append([HOVLAND_NAMES[dist], p, "%.1f" % flips, "%g" % t_flips if t_flips is not None else "-",
                          "%.5f%%" % inc if inc is not None else "-",
                          "%.5f%%" % t_inc if t_inc is not None else "-", fmt_s(mean([r["time_s"] for r in mine]))])
    if table:
        text.append("\n## Parallel ROMA 2 phase by phase, n = %d (the thesis's Tables 5.5-5.6, Figures 5.12, 5.14, "
                    "5.17)\n\nFlips made (the thesis's successful flips; the attempts, its potential flips of Figure "
                    "5.13, are not counted here), the weight's increase over the phase, and the phase's time:\n\n"
                    % phase_n + md_table(["weights", "phase", "flips", "the thesis", "weight increase",
                                          "the thesis", "time"], table) + "\n")
    # Tables 5.7-5.8: after 2 and 4 phases, against the start and the bound.
    table = []
    for dist in HOVLAND_DISTS:
        bound = next((r["upper_bound"] for r in runs if r["dist"] == dist and r["n"] == phase_n and
                      r.get("upper_bound")), None)
        for algo, k, label in (("cpu", 2, "sequential 2 phases"), ("2", 2, "parallel 2 phases"),
                               ("2", 4, "parallel 4 phases")):
            mine = [r for r in phase_rows if r["algo"] == algo and r["dist"] == dist and r["phase"] == k - 1 and
                    r["seed"] == seeds[0]]
            start = next((r["start_weight"] for r in phase_rows if r["algo"] == algo and r["dist"] == dist and
                          r["phase"] == 0 and r["seed"] == seeds[0]), None)
            if not mine or not start:
                continue
            w = mine[0]["weight"]
            t_inc = src("Table 5.7", "%s %s" % (HOVLAND_NAMES[dist], label), "weight increase") if thesis_size else None
            t_gto = src("Table 5.8", "%s %s" % (HOVLAND_NAMES[dist], label), "gto") if thesis_size else None
            table.append([HOVLAND_NAMES[dist], label, "%.5f%%" % (100 * (w / start - 1)),
                          "%.5f%%" % t_inc if t_inc is not None else "-",
                          "<= %.5f%%" % (100 * (1 - w / bound)) if bound else "-",
                          "%.5f%%" % t_gto if t_gto is not None else "-"])
    if table:
        text.append("\n## Sequential against parallel after 2 and 4 phases, n = %d (the thesis's Tables 5.7-5.8)\n\n"
                    "The weight's increase over the start, and the gap to the optimum (here against an upper bound "
                    "from the exact auction, so at most the value shown; the thesis used Edmonds' blossom), graph "
                    "of seed %d:\n\n" % (phase_n, seeds[0]) +
                    md_table(["weights", "run", "weight increase", "the thesis", "gap to the optimum",
                              "the thesis"], table) + "\n")
    # Figure 5.15: the gain requirement.
    gain_runs = [r for r in rows if r["study"] == "gain"]
    if gain_runs:
        table = []
        for r in sorted(gain_runs, key=lambda r: r["min_gain"]):
            ph = [p for p in rows if p["study"] == "gain-phase" and p["min_gain"] == r["min_gain"]]
            table.append(["> %g" % r["min_gain"], r["phases"], " / ".join(str(p["flips"]) for p in ph),
                          fmt_s(r["time_s"]), "%.5f" % r["weight"]])
        thesis_a = [int(src("Figure 5.15a", "gain > 0 phase %d" % p, "flips")) for p in range(8)]
        thesis_b = [int(src("Figure 5.15b", "gain > 1e-5 phase %d" % p, "flips")) for p in range(6)]
        text.append("\n## The gain requirement, geometric weights, n = %d (the thesis's Figure 5.15)\n\n" % gain_n +
                    md_table(["flip when gain", "phases", "flips per phase", "time", "weight"], table) +
                    "\n\nThe thesis (n = 90112): gain > 0, 8 phases, flips %s, 5.63 s, end weight 34410.33; gain > "
                    "1e-5, 6 phases, flips %s.\n" % (" / ".join(map(str, thesis_a)), " / ".join(map(str, thesis_b))))
    # Beside the thesis.
    mine = []
    if gpu:
        s12 = [at("1", d, n) / at("2", d, n) for d in HOVLAND_DISTS for n in sizes if at("1", d, n) and at("2", d, n)]
        if s12:
            mine.append("ROMA 1 over ROMA 2: %.2f-%.2fx, mean %.2fx (the thesis: mean 9.84x, at most 29.99x)" % (
                min(s12), max(s12), sum(s12) / len(s12)))
        s2 = [at("cpu", d, n) / at("2", d, n) for d in HOVLAND_DISTS for n in sizes if at("cpu", d, n) and at("2", d, n)]
        if s2:
            largest = max(n for n in sizes if any(at("cpu", d, n) for d in HOVLAND_DISTS))
            mine.append("sequential over ROMA 2 (n <= %d): %.1f-%.1fx, mean %.1fx (the thesis, every size: mean "
                        "206.82x, at most 591.56x)" % (largest, min(s2), max(s2), sum(s2) / len(s2)))
        sf = [at("2", d, n) / at("fast", d, n) for d in HOVLAND_DISTS for n in sizes if at("fast", d, n) and at("2", d, n)]
        if sf:
            mine.append("matchblas's roma-gpu over ROMA 2: %.1f-%.1fx, mean %.1fx" % (min(sf), max(sf),
                                                                                    sum(sf) / len(sf)))
        q = [at("2", d, n, "weight") / at("cpu", d, n, "weight") for d in HOVLAND_DISTS for n in sizes
             if at("cpu", d, n, "weight") and at("2", d, n, "weight")]
        if q:
            mine.append("ROMA 2's weight over the sequential ROMA's (8 phases): %.5f-%.5f (the thesis: GTOs within "
                        "a few percent of each other, Table 5.13)" % (min(q), max(q)))
    text.append("\n## Beside the thesis\n\n*This run* (%s):\n" % header["machine"])
    text.extend("- %s." % m for m in mine)
    if not mine:
        text.append("- no GPU rows in this run.")
    text.append("\nWhere this run differs: the machines (this run's: %s; the thesis's: its GPU and a Xeon Platinum "
                "8168), so the ratios to the sequential code move with the hardware, not only the algorithms; "
                "one run a graph instead of 5; the gap to the optimum at n = %d against a bound, not Edmonds' "
                "optimum%s.\n" % (header["machine"], phase_n, "" if thesis_size else
                                   "; a quick run's sizes are not the thesis's, so its tables stand alone"))
    # Plots: runtime against n per distribution; ROMA 2's flips per phase.
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.4))
    for ax, dist in zip(axes, HOVLAND_DISTS):
        for algo in ("1", "2", "fast", "cpu"):
            pts = [(n, at(algo, dist, n)) for n in sizes if at(algo, dist, n)]
            if pts:
                ax.plot([n for n, _ in pts], [t for _, t in pts], marker="o", label=HOVLAND_GPU_RUNS[algo])
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title("%s weights" % HOVLAND_NAMES[dist], fontsize=9)
        ax.set_xlabel("n")
        ax.set_ylabel("seconds (8 phases at most)")
        if ax.lines:
            ax.legend(fontsize=6)
    save_figure(plt, fig, os.path.join(ctx.out, "hovland-gpu-runtime.svg"))
    text.append("\n![runtime against n (the thesis's Figures 5.8 and 5.10)](hovland-gpu-runtime.svg)\n")
    with open(os.path.join(ctx.out, "hovland-gpu.md"), "w") as f:
        f.write("\n".join(text))


# ---- Naim 2017, Paper I: GPU-Suitor ----------------------------------------

NAIM1 = "M. Naim, F. Manne, M. Halappanavar, A. Tumeo, J. Langguth, *Optimizing approximate weighted matching " \
        "on Nvidia Kepler K40*, HiPC 2015 (Paper I of M. Naim's PhD thesis, Bergen, 2017), sec. 5, Figures 2-5"
NAIM1_VARIANTS = ["nosync", "synclb", "syncnolb", "hybrid"]


# The test matrices beside the project (SuiteSparse matrices; absent: their
# rows are left out, and the page says which ran).
COLLECTION_DIR = os.environ.get("MATCHBLAS_MATRICES", os.path.join(ROOT, "..", "shared", "datasets", "matrices"))
# The largest square ones (0.08-0.29M entries), and one small one for --quick.
NAIM1_COLLECTION = ["bcsstk13.mtx", "orani678.mtx.gz", "bayer10.mtx.gz", "bcsstk16.mtx.gz"]


def naim1_graphs(ctx):
    """(label, bench_cpu_matchers args, bench_gpu_matchers args, file spec or
    None). The paper's 269 SuiteSparse matrices (1M-1B edges) are not
    reachable here: generated graphs of 1M-67M edges stand in, skewed
    (R-MAT), uniform (Erdos-Renyi), mesh-like (grid) and geometric (knn),
    with the largest square SuiteSparse matrices at hand (far smaller than
    the paper's) beside them."""
    def collection(names):
        return [(name.split(".")[0] + " (SuiteSparse)", None, None, ("file", os.path.join(COLLECTION_DIR, name), None))
                for name in names if os.path.exists(os.path.join(COLLECTION_DIR, name))]
    def gen(kind, scale):
        cpu = ["--scale", str(scale)] + (["--er", "1"] if kind == "er" else [])
        return ("%s 2^%d" % ("R-MAT" if kind == "rmat" else "ER", scale), cpu,
                ["--graph", kind, "--scale", str(scale)], None)
    if ctx.quick:
        return [gen("rmat", 12), gen("er", 12), ("grid 64x64", None, None, ("grid", 64, None))] + \
            collection(NAIM1_COLLECTION[:1])
    out = collection(NAIM1_COLLECTION) + [gen(kind, s) for s in (16, 18) for kind in ("rmat", "er")]
    out += [("grid 1024x1024", None, None, ("grid", 1024, None)), ("knn 2^18, k=8", None, None, ("knn", 262144, 8))]
    return out + [gen(kind, s) for s in (20, 22) for kind in ("rmat", "er")]


def naim1_threads(ctx):
    """The paper's OpenMP thread counts, 2 and 16, capped by the cores."""
    return sorted({min(2, ctx.cores), min(16, ctx.cores)})


def naim1_run(ctx):
    cli = ctx.binary("matchblas")
    cpu = ctx.binary("bench_cpu_matchers")
    gpu = ctx.binary("bench_gpu_matchers")
    reps = 3
    for label, cpu_args, gpu_args, spec in naim1_graphs(ctx):
        if spec is not None and spec[0] == "file":
            cpu_args = gpu_args = ["--file", spec[1]]
        elif spec is not None:
            kind, n, k = spec
            path = os.path.join(ctx.scratch, "%s_%d_%s.mtx" % (kind, n, k))
            if not os.path.exists(path):
                run([cli, "gen", kind, str(n), "--seed", "1", "--out", path] +
                    (["--edge-factor", str(k)] if k else []), ctx)
            cpu_args = gpu_args = ["--file", path]

        def cpu_rows(label=label, cpu_args=cpu_args):
            rows = cpu_matchers(ctx, cpu, cpu_args, ["ld-omp", "suitor-locks"], naim1_threads(ctx), reps)
            for r in rows:
                r["graph"], r["device"] = label, "cpu"
            return rows
        ctx.measure("%s cpu" % label, cpu_rows)

        def gpu_rows(label=label, gpu_args=gpu_args):
            out = run([gpu] + gpu_args + ["--only", "suitor-gpu,ld-gpu", "--reps", str(reps), "--sweep-paper",
                                          "--jsonl"], ctx, timeout=7200)
            if "skipped, no GPU" in out:
                return [{"graph": label, "device": "none", "why": out.strip().splitlines()[-1]}]
            size = re.search(r", (\d+) vertices, (\d+) edges", out)
            rows = []
            for line in out.splitlines():
                if line.startswith("ROW "):
                    r = json.loads(line[4:])
                    r["graph"], r["device"] = label, "gpu"
                    if size:
                        r["vertices"], r["edges"] = int(size.group(1)), int(size.group(2))
                    rows.append(r)
            if not rows:
                raise StudyFailed("bench_gpu_matchers printed no rows on %s:\n%s" % (label, out[-2000:]))
            if not all(r["equals_greedy"] for r in rows):
                raise StudyFailed("a suitor-gpu or ld-gpu matching differs from greedy's on %s" % label)
            return rows
        ctx.measure("%s gpu" % label, gpu_rows)


def performance_profile(times):
    """times: {problem: {candidate: seconds}} -> {candidate: sorted list of
    log2(time / best time on that problem)} (Dolan-More)."""
    out = {}
    for by in times.values():
        best = min(by.values())
        for name, t in by.items():
            out.setdefault(name, []).append(math.log2(t / best) if best > 0 else 0.0)
    return {k: sorted(v) for k, v in out.items()}


def naim1_render(ctx, header, rows):
    plt = pyplot()
    graphs = graphs_in_order(rows)
    cpu = [r for r in rows if r.get("device") == "cpu"]
    gpu = [r for r in rows if r.get("device") == "gpu"]
    threads = sorted({r["threads"] for r in cpu})
    text = [page_head("Naim 2017, Paper I: GPU-Suitor against GPU-LD and the OpenMP codes", NAIM1, header,
                      "naim-1")]
    text.append("\nThe paper ran 269 SuiteSparse matrices of 1M-1B edges on a Tesla K40 (CUDA 7.0) and two 8-core "
                "Xeon E5-2687W. Those matrices are not reachable here: generated graphs stand in (R-MAT and "
                "Erdos-Renyi drawn by the benchmarks' generator, float weights; grid and knn by `matchblas gen "
                "--seed 1`)%s. *GPU-Suitor* is `suitor-gpu` as the paper wrote it (`adaptive = false`: NoSync, "
                "128 threads per block, 8 vertices per warp, the paper's comparison setting) and with matchblas's "
                "default adaptive mode beside it; *GPU-LD* is `ld-gpu`; *OMP-LD* and *OMP-Suitor* are `ld-omp` and "
                "`suitor-locks` (Manne and Halappanavar's Suitor with a lock per vertex) at %s threads. GPU times "
                "are the match on a graph already on the device (CUDA events), as the paper's compute times; CPU "
                "times the algorithm alone. Every matching equals greedy's.\n"
                % ("; the SuiteSparse matrices at hand, far smaller than the paper's, run beside them (%s)" %
                   ", ".join(g.split(" ")[0] for g in graphs if g.endswith("(SuiteSparse)"))
                   if any(g.endswith("(SuiteSparse)") for g in graphs) else "", " and ".join(map(str, threads))))
    if not gpu:
        why = next((r.get("why") for r in rows if r.get("device") == "none"), "no GPU")
        text.append("\n**GPU rows: not run on this machine** (%s). The tables below hold the OpenMP rows only; "
                    "`bench/replicate.py --source naim-1 --full` on a GPU machine measures the rest.\n" % why)

    def t_cpu(g, algo, th):
        return next((r["time_s"] for r in cpu if r["graph"] == g and r["algorithm"] == algo and r["threads"] == th),
                    None)

    def t_gpu(g, config, **match):
        for r in gpu:
            if r["graph"] == g and r["config"] == config and all(r.get(k) == v for k, v in match.items()):
                return r["match_ms"] * 1e-3
        return None

    def paper_suitor(g):
        return t_gpu(g, "sweep", mode="paper", variant="nosync", threads_per_block=128, vertices_per_warp=8) or \
            t_gpu(g, "paper nosync 128x8")

    table, speedups, profiles = [], {}, {}
    for g in graphs:
        size = next((r for r in gpu if r["graph"] == g and "edges" in r), None)
        ps, ad, ld = paper_suitor(g), t_gpu(g, "adaptive nosync 128x8"), t_gpu(g, "thread per vertex")
        row = [g, "%d / %d" % (size["vertices"], size["edges"]) if size else "-", fmt_s(ps), fmt_s(ad), fmt_s(ld)]
        for algo in ("ld-omp", "suitor-locks"):
            for th in threads:
                row.append(fmt_s(t_cpu(g, algo, th)))
        table.append(row)
        if ps:
            for name, t in [("GPU-LD", ld)] + [("OMP-%s %d" % ("LD" if a == "ld-omp" else "Suitor", th),
                                               t_cpu(g, a, th)) for a in ("ld-omp", "suitor-locks") for th in threads]:
                if t:
                    speedups.setdefault(name, []).append(t / ps)
    head = ["graph", "vertices / edges", "GPU-Suitor (paper)", "GPU-Suitor (adaptive)", "GPU-LD"]
    head += ["OMP-LD %d" % th for th in threads] + ["OMP-Suitor %d" % th for th in threads]
    text.append("\n## Figure 2: run times\n")
    text.append(md_table(head, table) + "\n")
    # Figure 2 (the OpenMP rows alone, ordered by OMP-Suitor, without a GPU).
    key = (lambda g: paper_suitor(g) or 0.0) if gpu else (lambda g: t_cpu(g, "suitor-locks", threads[-1]) or 0.0)
    order = sorted(graphs, key=lambda g: -key(g))
    fig, ax = plt.subplots(figsize=(7, 4))
    xs = range(len(order))
    if gpu:
        ax.plot(xs, [(paper_suitor(g) or float("nan")) * 1e3 for g in order], "o-", label="GPU-Suitor (paper)")
        ax.plot(xs, [(t_gpu(g, "thread per vertex") or float("nan")) * 1e3 for g in order], "s-", label="GPU-LD")
    for algo, name in (("ld-omp", "OMP-LD"), ("suitor-locks", "OMP-Suitor")):
        for th in threads:
            ax.plot(xs, [(t_cpu(g, algo, th) or float("nan")) * 1e3 for g in order], "^-" if th == threads[0] else
                    "v--", label="%s %d threads" % (name, th))
    ax.set_yscale("log")
    ax.set_ylabel("ms")
    ax.set_xticks(list(xs))
    ax.set_xticklabels(order, rotation=60, ha="right", fontsize=7)
    ax.legend(fontsize=7)
    ax.set_title("Run times, graphs in non-increasing order of %s" % ("GPU-Suitor's" if gpu else "OMP-Suitor's"))
    save_figure(plt, fig, os.path.join(ctx.out, "naim-1-times.svg"))
    text.append("\n![run times](naim-1-times.svg)\n")
    if gpu:
        text.append("\n## Figure 3: GPU-Suitor's speed-up\n")
        fig, ax = plt.subplots(figsize=(7, 4))
        for name, values in speedups.items():
            ax.plot(range(len(values)), sorted(values, reverse=True), "o-", label=name)
        ax.set_yscale("log")
        ax.set_ylabel("speed-up of GPU-Suitor (paper)")
        ax.set_xlabel("graphs, each curve in non-increasing order")
        ax.legend(fontsize=7)
        save_figure(plt, fig, os.path.join(ctx.out, "naim-1-speedup.svg"))
        text.append("![speed-ups](naim-1-speedup.svg)\n")
        srows = [[name, "%.1fx" % min(v), "%.1fx" % max(v), len(v)] for name, v in speedups.items()]
        text.append(md_table(["over", "least", "most", "graphs"], srows) + "\n")

        # Figures 4 and 5: performance profiles of the sweep (the paper's mode).
        sweep = [r for r in gpu if r["config"] == "sweep" and r.get("mode") == "paper"]
        variants, shapes = {}, {}
        for r in sweep:
            if r["threads_per_block"] == 128 and r["vertices_per_warp"] == 8:
                variants.setdefault(r["graph"], {})[r["variant"]] = r["match_ms"]
            if r["variant"] == "nosync":
                shapes.setdefault(r["graph"], {})["%d x %d" % (r["threads_per_block"], r["vertices_per_warp"])] = \
                    r["match_ms"]
        profiles["variants"], profiles["shapes"] = performance_profile(variants), performance_profile(shapes)
        for key, title, path, what in (
                ("variants", "Figure 4: the variants (128 threads per block, 8 vertices per warp)", "naim-1-variants.svg",
                 "variant"),
                ("shapes", "Figure 5: threads-per-block x vertices-per-warp (NoSync)", "naim-1-shapes.svg",
                 "threads x vertices per warp")):
            prof = profiles[key]
            if not prof:
                continue
            fig, ax = plt.subplots(figsize=(7, 4))
            for name, ratios in sorted(prof.items(), key=lambda kv: sum(kv[1])):
                ax.step([0.0] + ratios, [0.0] + [(i + 1) / len(ratios) for i in range(len(ratios))], where="post",
                        label=name)
            ax.set_xlabel("log2(time / the best on that graph)")
            ax.set_ylabel("fraction of graphs")
            ax.legend(fontsize=6, ncol=3 if len(prof) > 8 else 1)
            save_figure(plt, fig, os.path.join(ctx.out, path))
            text.append("\n## %s\n\n![%s](%s)\n" % (title, what, path))
            ranked = sorted(prof, key=lambda k: (-best_share(prof, k), worst_ratio(prof, k)))
            text.append(md_table([what, "best on", "worst against the best"],
                                 [[k, "%.0f%%" % (100 * best_share(prof, k)), "%.2fx" % worst_ratio(prof, k)]
                                  for k in ranked[:12]]) + "\n")

    text.append("\n## The source's statements and ours\n")
    lines = [[v["figure"], v["setting"], "%s %s" % (v["value"], v["unit"]),
              naim1_ours(v["setting"], speedups, profiles, threads) if gpu else "-", v["where"]]
             for v in source_values("naim-1")]
    text.append(md_table(["figure", "quantity", "source", "here", "where"], lines) + "\n")
    if gpu:
        text.append("\n" + naim1_conclusions(gpu, speedups) + "\n")
    with open(os.path.join(ctx.out, "naim-1.md"), "w") as f:
        f.write("\n".join(text))


def best_share(profile, name):
    """The fraction of problems where `name` was the best (ratio 1)."""
    return sum(1 for x in profile[name] if x == 0) / len(profile[name])


def worst_ratio(profile, name):
    """`name`'s largest time over the best, as a factor."""
    return 2 ** max(profile[name])


def naim1_ours(setting, speedups, profiles, threads):
    """Our value for one of the source's statements (naim-1.csv's setting)."""
    m = re.match(r"GPU-Suitor over GPU-LD, speedup (?:(\d+)-(\d+)x|above (\d+)x)", setting)
    if m and "GPU-LD" in speedups:
        lo = float(m.group(1) or m.group(3))
        hi = float(m.group(2)) if m.group(2) else float("inf")
        v = speedups["GPU-LD"]
        return "%d of %d graphs" % (sum(1 for x in v if lo <= x < hi), len(v))
    m = re.match(r"GPU-Suitor over OMP-(Suitor|LD), (\d+) threads", setting)
    if m:
        th = min(threads) if m.group(2) == "2" else max(threads)
        v = speedups.get("OMP-%s %d" % (m.group(1), th))
        return "up to %.1fx (%d threads here)" % (max(v), th) if v else "-"
    variants, shapes = profiles.get("variants"), profiles.get("shapes")
    if setting.startswith("NoSync the best") and variants and "nosync" in variants:
        return "%.0f%% of graphs" % (100 * best_share(variants, "nosync"))
    if setting.startswith("NoSync against the best") and variants and "nosync" in variants:
        return "%.2fx" % worst_ratio(variants, "nosync")
    if setting.startswith("vertices-per-warp of the best") and shapes:
        best = min(shapes, key=lambda k: (-best_share(shapes, k), worst_ratio(shapes, k)))
        return "%s (threads x vertices per warp)" % best
    if setting.startswith("256 vertices-per-warp") and shapes:
        at = [worst_ratio(shapes, k) for k in shapes if k.endswith("x 256")]
        return "%.1fx" % max(at) if at else "-"
    return "-"


def naim1_conclusions(gpu, speedups):
    """Where our conclusions meet the paper's and where they differ, from
    the rows."""
    out = []
    machine = " on this machine's GPU"
    for key, paper in (("OMP-Suitor", (20, 5)), ("OMP-LD", (40, 16))):
        have = sorted((int(k.split()[-1]), max(v)) for k, v in speedups.items() if k.startswith(key + " "))
        if have:
            out.append("- *GPU-Suitor over %s* (the paper: up to %dx at 2 threads and %dx at 16): here up to %s.%s" % (
                key, paper[0], paper[1], " and ".join("%.0fx at %d threads" % (x, th) for th, x in have),
                "" if key == "OMP-Suitor" else " Both gaps to the CPU are far wider than the paper's: the K40 read "
                "288 GB/s (the paper's figure) where an H100 or H200 reads 3.3-4.8 TB/s, while the CPU side is again "
                "16 cores, and matching is bound by its reads on both."))
    sweep = [r for r in gpu if r["config"] == "sweep" and r.get("mode") == "paper"]
    graphs = sorted({r["graph"] for r in sweep})
    if graphs:
        nosync_best, spread = 0, 1.0
        vpw_best = {}
        nosync = [r for r in sweep if r["variant"] == "nosync"]  # Figure 5's shapes are NoSync's
        for g in graphs:
            at = [r for r in sweep if r["graph"] == g and r["threads_per_block"] == 128 and r["vertices_per_warp"] == 8]
            if at:
                fastest = min(at, key=lambda r: r["match_ms"])
                nosync_best += fastest["variant"] == "nosync"
                spread = max(spread, max(r["match_ms"] for r in at) / fastest["match_ms"])
            best = min((r for r in nosync if r["graph"] == g), key=lambda r: r["match_ms"])
            vpw_best[best["vertices_per_warp"]] = vpw_best.get(best["vertices_per_warp"], 0) + 1
        out.append("- *NoSync the best variant* (the paper: on about 90%% of its problems, the others up to 4x "
                   "slower there): here NoSync is the fastest on %d of %d graphs at 128 x 8 and no variant is more "
                   "than %.2fx the fastest: the synchronisation that cost the K40 up to 4x costs little here, and "
                   "load balancing gains little either." % (nosync_best, len(graphs), spread))
        fewer = sum(n for k, n in vpw_best.items() if k < 8)
        worst_at = {}  # vertices per warp -> its largest time over the graph's best
        for g in graphs:
            best = min(r["match_ms"] for r in nosync if r["graph"] == g)
            for r in nosync:
                if r["graph"] == g:
                    k = r["vertices_per_warp"]
                    worst_at[k] = max(worst_at.get(k, 0.0), r["match_ms"] / best)
        slowest = max(worst_at, key=worst_at.get)
        out.append("- *8 vertices per warp* (the paper's best): here the best combination had %s; fewer than 8 on "
                   "%d of %d graphs. The paper found fewer than 8 worse; a GPU with 132 SMs (H200) or 114 (H100) "
                   "holds about nine times the K40's 15 SMX worth of warps, so smaller shares per warp keep it busy "
                   "on the same graph. The slowest choice here is %d vertices per warp, up to %.1fx the best (the paper: "
                   "256, up to 30x)." % (
                       ", ".join("%d on %d graph%s" % (k, n, "s" if n > 1 else "") for k, n in sorted(vpw_best.items())),
                       fewer, len(graphs), slowest, worst_at[slowest]))
    ld = {}
    for g in sorted({r["graph"] for r in gpu}):
        suitor = next((r["match_ms"] for r in sweep if r["graph"] == g and r["variant"] == "nosync" and
                       r["threads_per_block"] == 128 and r["vertices_per_warp"] == 8), None)
        lgpu = next((r["match_ms"] for r in gpu if r["graph"] == g and r["config"] == "thread per vertex"), None)
        if suitor and lgpu:
            ld[g] = lgpu / suitor
    if ld:
        top = max(ld, key=ld.get)
        slower = sorted(g for g, x in ld.items() if x < 1)
        out.append("- *GPU-Suitor over GPU-LD* (the paper: 1-10x on 115 problems, 10-100x on about 100, above 100x "
                   "on 15): here %.1f-%.1fx on %d graphs, the most on %s%s. matchblas's `ld-gpu` rescans a row only "
                   "when its candidate was taken; %d generated graphs stand in for the paper's 269 matrices." % (
                       min(ld.values()), max(ld.values()), len(ld), top,
                       "" if not slower else "; GPU-LD was the faster on %s" % ", ".join(slower), len(ld)))
    return "\n".join(out)


STUDIES = {
    "thorsen": ("Thorsen and Merkey 2010: four distributed variants, and Luby", THORSEN, thorsen_run,
                thorsen_render),
    "assignment": ("Mazankiewicz: LD and Suitor, runtime, speedup, quality, trade-off", ASSIGNMENT, assignment_run,
                   assignment_render),
    "handshake": ("The handshaking course project: identical results, timing", HANDSHAKE, handshake_run,
                  handshake_render),
    "hovland": ("Hovland 2020, sec. 5.4: sequential ROMA (runtime, phases, flips, weight, GTO)", HOVLAND,
                hovland_run, hovland_render),
    "hovland-gpu": ("Hovland 2020, sec. 5.5-5.6: parallel ROMA 1 and 2 and roma-gpu", HOVLAND_GPU, hovland_gpu_run,
                    hovland_gpu_render),
    "naim-1": ("Naim 2017, Paper I: GPU-Suitor against GPU-LD and the OpenMP codes, variants, launch shapes",
               NAIM1, naim1_run, naim1_render),
    "naim-3": ("Naim 2017, Paper III: Louvain on the GPU (thresholds, speedups, time per level)", NAIM3, naim3_run,
               naim3_render),
    "naim-4": ("Naim 2017, Paper IV: stable marriage (Gale-Shapley, McVitie-Wilson)", NAIM4, naim4_run,
               naim4_render),
}


def render_index(ctx):
    lines = ["# The sources' experiments, replicated\n",
             "Each page re-runs one source's study with matchblas on the machine named on it, from one command "
             "(`bench/replicate.py --source NAME --full`; `--quick` for small sizes), and sets its numbers beside "
             "the source's where the source states them. The raw rows are in data/; every plot and table is drawn "
             "from them. bench/RESULTS.md keeps the lab notebook of other measurements.\n",
             "| source | page | state |", "|---|---|---|"]
    for name, (title, _, runner, render_or_why) in STUDIES.items():
        page = os.path.join(ctx.out, name + ".md")
        if runner is None:
            lines.append("| %s | - | %s |" % (title, render_or_why))
        elif os.path.exists(page):
            header, _ = read_rows(os.path.join(ctx.out, "data", name + ".jsonl"))
            lines.append("| %s | [%s.md](%s.md) | %s run%s, %s, revision %s |" % (
                title, name, name, header["mode"], ", stopped before its end (partial rows)" if header.get("stopped")
                else "", header["date"], header["revision"]))
        else:
            lines.append("| %s | - | not run yet: `bench/replicate.py --source %s` |" % (title, name))
    with open(os.path.join(ctx.out, "README.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


# Each page's sections whose text the performance summary carries: its
# conclusions beside the source's (the pages without such a section: the
# ones that answer the source's questions).
HEADLINES = {
    "thorsen": ["The conclusions, side by side", "Luby's algorithm against the parallel greedy (sec. 3)"],
    "assignment": ["3.4 Quality: does parallelism reduce it?", "3.5 Trade-off: quality against speed"],
    "handshake": [None],  # the text before its first section: the source's claim and this run's answer
    "hovland": ["Where this run differs"],
    "hovland-gpu": ["Beside the thesis"],
    "naim-1": ["The source's statements and ours"],
    "naim-3": ["Beside the paper"],
    "naim-4": ["Beside the paper"],
}


def page_sections(text, heading):
    """The lines of a page's section `heading` (None: the text after the
    page's run header and before its first section), without pictures."""
    lines = text.splitlines()
    if heading is None:
        start = next((i + 1 for i, l in enumerate(lines) if l.startswith("*Raw rows:*")), 0)
    else:
        start = next((i + 1 for i, l in enumerate(lines) if l == "## " + heading), None)
        if start is None:
            return []
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("## ")), len(lines))
    return [l for l in lines[start:end] if not l.startswith("![")]


def performance_path(ctx, args):
    """docs/PERFORMANCE.md beside the default output folder; OUT/PERFORMANCE.md
    for any other --out."""
    default = os.path.abspath(os.path.join(ROOT, "docs", "replication"))
    return os.path.join(ROOT, "docs", "PERFORMANCE.md") if ctx.out == default else os.path.join(ctx.out,
                                                                                                 "PERFORMANCE.md")


def render_performance(ctx, path):
    """The headline results of every page in OUT, drawn from the pages (and
    so from the rows) alone: each source's conclusions beside ours, the run's
    machine and date, a link to the page."""
    folder = os.path.relpath(ctx.out, os.path.dirname(path))
    link = "" if folder == "." else folder + "/"
    lines = ["# Performance and quality beside the sources\n",
             "What matchblas measured against the published studies it implements, each on the machine its "
             "page names: the conclusions of every replication page in [%s](%sREADME.md), drawn from their "
             "rows by the same command (`bench/replicate.py`, or `--render-only` from the rows alone). The lab "
             "notebook of every other measurement (kernels against their memory floors, the pre-pass against "
             "MC64, the GPU matchers) is bench/RESULTS.md; the README's table of which matcher to use quotes "
             "its headline figures.\n" % (link or "the index", link)]
    for name, (title, _, runner, _) in STUDIES.items():
        page = os.path.join(ctx.out, name + ".md")
        if runner is None or not os.path.exists(page):
            continue
        header, _ = read_rows(os.path.join(ctx.out, "data", name + ".jsonl"))
        with open(page) as f:
            text = f.read()
        body = []
        for heading in HEADLINES.get(name, []):
            section = page_sections(text, heading)
            if any(l.strip() for l in section):
                if heading is not None:
                    body.append("### " + heading + "\n")
                body.extend(section)
        lines.append("## %s ([%s.md](%s%s.md))\n" % (title, name, link, name))
        lines.append("*Run:* %s, %s mode, %s, revision %s.\n" % (
            header["machine"], run_state(header), header["date"], header["revision"]))
        while body and not body[-1].strip():
            body.pop()
        lines.append("\n".join(body).strip("\n") + "\n" if body else "(no conclusions on the page)\n")
    with open(path, "w") as f:
        f.write(re.sub(r"\n{3,}", "\n\n", "\n".join(lines)))


def render(ctx, name):
    _, _, _, render_study = STUDIES[name]
    path = os.path.join(ctx.out, "data", name + ".jsonl")
    if not os.path.exists(path):
        raise StudyFailed("no rows for %s in %s: run it first" % (name, path))
    header, rows = read_rows(path)
    if header is None or not rows:
        raise StudyFailed("%s holds no run header or no rows" % path)
    write_csv(os.path.join(ctx.out, "data", name + ".csv"), rows)
    render_study(ctx, header, rows)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--source", default="all", help="comma-separated study names, or all (default): %s"
                   % ", ".join(STUDIES))
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="small sizes, seconds per study")
    mode.add_argument("--full", action="store_true", help="the sources' sizes (the default)")
    p.add_argument("--build", default=os.environ.get("MATCHBLAS_BUILD", os.path.join(ROOT, "build")),
                   help="the build directory whose bin/ holds matchblas and the benchmarks (default build/)")
    p.add_argument("--out", default=os.path.join(ROOT, "docs", "replication"), help="default docs/replication")
    p.add_argument("--resume", action="store_true", help="keep the rows of an earlier run of this mode and revision")
    p.add_argument("--render-only", action="store_true", help="no runs: the CSV, plots and pages again from OUT/data")
    args = p.parse_args(argv)
    names = list(STUDIES) if args.source == "all" else args.source.split(",")
    for n in names:
        if n not in STUDIES:
            p.error("unknown source '%s' (known: %s)" % (n, ", ".join(STUDIES)))
    ctx = Context(args)
    os.makedirs(ctx.out, exist_ok=True)
    failed = []

    def stop(signum, _frame):
        raise Stopped(signal.Signals(signum).name)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        for name in names:
            title, _, runner, _ = STUDIES[name]
            if runner is None:
                continue
            print("%s: %s" % (name, title), file=sys.stderr, flush=True)
            if args.render_only and not os.path.exists(os.path.join(ctx.out, "data", name + ".jsonl")):
                print("replicate: %s has no rows in %s yet: nothing to draw" % (name, ctx.out), file=sys.stderr)
                continue
            try:
                if not args.render_only:
                    ctx.start(name)
                    try:
                        runner(ctx)
                    except Stopped as e:
                        ctx.stopped()
                        print("replicate: %s stopped by %s: its rows so far are kept (--resume goes on)" % (name, e),
                              file=sys.stderr)
                        failed.append(name)
                        render(ctx, name)
                        break
                render(ctx, name)
            except StudyFailed as e:
                print("replicate: %s failed: %s" % (name, e), file=sys.stderr)
                failed.append(name)
        render_index(ctx)
        render_performance(ctx, performance_path(ctx, args))
    finally:
        shutil.rmtree(ctx.scratch, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
