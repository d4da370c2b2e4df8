#!/usr/bin/env python3
"""bench/replicate.py --quick: every scripted study (thorsen where MPI is
built, assignment, handshake, hovland, hovland-gpu, naim-1, naim-3, naim-4) runs on the build's
binaries, writes its rows (JSONL with the run's machine, revision, command
and mode; CSV), its plots (non-empty SVG, each one the page links) and its
page; the index lists every source, replicated or pending; PERFORMANCE.md
has a section of conclusions per page; --render-only draws the same pages,
plots and summary again from the rows alone; the rows say what the
studies found (the four distributed variants and Luby timed on each graph,
greedy's matching from every parallel LD and Suitor run, one handshake
matching for every thread count, greedy's matching from OMP-LD and
OMP-Suitor (and, with a GPU, from every GPU-Suitor launch shape and GPU-LD),
bench_roma's GPU runs parsed as printed, one stable marriage for every algorithm
and thread count with the hard instances' known rank sum, Louvain over the
threshold grid near the sequential modularity); a run stopped by SIGTERM
keeps its rows, says so on its page and in the index, and --resume goes on
from them; a bad source name is refused.

    test_replicate.py BUILD_DIR     (exit 77: skipped, saying why)
"""
import csv
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "bench", "replicate.py")


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


def main():
    build = sys.argv[1]
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("skipped: %s has no matplotlib (Debian: python3-matplotlib)" % sys.executable)
        return 77
    for tool in ("matchblas", "bench_cpu_matchers", "bench_marriage", "bench_gpu_matchers"):
        if not os.path.exists(os.path.join(build, "bin", tool)):
            print("skipped: %s/bin/%s is not built (the benchmarks are off in this build)" % (build, tool))
            return 77
    sources = ["assignment", "handshake", "hovland", "hovland-gpu", "naim-1", "naim-3", "naim-4"]
    if os.path.exists(os.path.join(build, "bin", "bench_distributed")):
        sources.insert(0, "thorsen")
    else:
        print("note: no bench_distributed in this build (MPI off): the thorsen study is not checked")
    out = tempfile.mkdtemp(prefix="replicate-test-")
    cmd = [sys.executable, SCRIPT, "--quick", "--build", build, "--out", out, "--source", ",".join(sources)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    check(p.returncode == 0, "replicate exited %d:\n%s" % (p.returncode, p.stderr[-3000:]))
    pages = {}
    for name in sources:
        jsonl = os.path.join(out, "data", name + ".jsonl")
        records = [json.loads(line) for line in open(jsonl) if line.strip()]
        header, rows = records[0], records[1:]
        check(header["kind"] == "run" and header["mode"] == "quick", name + ": no run header")
        for field in ("machine", "revision", "command", "date"):
            check(header.get(field), "%s: the run header lacks %s" % (name, field))
        check(len(rows) >= 4, "%s: %d rows" % (name, len(rows)))
        with open(os.path.join(out, "data", name + ".csv"), newline="") as f:
            check(len(list(csv.DictReader(f))) == len(rows), name + ": the CSV and the JSONL differ in rows")
        page = open(os.path.join(out, name + ".md")).read()
        pages[name] = page
        check(header["machine"] in page and header["revision"] in page, name + ": the page does not name its run")
        images = re.findall(r"\]\(([\w.-]+\.svg)\)", page)
        check(images, name + ": the page shows no plot")
        for image in images:
            text = open(os.path.join(out, image)).read()
            check("<svg" in text and len(text) > 2000, "%s: %s is not a drawn SVG" % (name, image))
        if name == "thorsen":
            variants = {r["algorithm"] for r in rows if r.get("ranks") == 2}
            for v in ("ld-mpi-sync-poll", "ld-mpi-async-poll", "ld-mpi-sync-notify", "ld-mpi-async-notify", "luby",
                      "ld-rounds"):
                check(v in variants, "thorsen: no %s row at 2 ranks" % v)
            luby = [r for r in rows if r.get("study") == "weights" and r["algorithm"] == "luby"]
            check(len(luby) == 3 and all(0.3 < r["of_greedy"] < 1.0 for r in luby),
                  "thorsen: luby's weight against greedy's: %s" % luby)
            check("the poll versions perform better" in page, "thorsen: the source's claims are not on the page")
        if name == "assignment":
            parallel = [r for r in rows if r["study"] == "parallel" and r["algorithm"] != "luby"]
            check(parallel and all(r["equals_greedy"] is True for r in parallel),
                  "assignment: a parallel LD or Suitor run differs from greedy")
            check("Is there a dominant implementation?" in page, "assignment: no trade-off answer")
        if name == "hovland":
            runs = [r for r in rows if r["study"] == "run"]
            check({(r["dist"], r["n"]) for r in runs} == {(d, n) for d in ("uniform", "exponential", "geometric")
                                                          for n in (512, 1024)}, "hovland: not every (dist, n) ran")
            check(all(r.get("optimum") for r in runs if r["n"] == 512) and
                  all(r.get("upper_bound") for r in runs if r["n"] == 1024),
                  "hovland: no exact optimum at 512 or no bound at 1024")
            check(all(r["weight"] <= r.get("optimum", r.get("upper_bound")) * (1 + 1e-9) for r in runs),
                  "hovland: a weight above the optimum or its bound")
            check(any(r["study"] == "phase" and r["flips"] > 0 for r in rows), "hovland: no phase rows")
            check("| 1024 | 0.02996 s |" in page, "hovland: Table 5.1's thesis value is not beside ours")
            check("\u2264" in page, "hovland: the bound-based gap is not marked")
        if name == "handshake":
            check(all(r["same_as_first"] for r in rows), "handshake: the matchings differ between thread counts")
            check({r["threads"] for r in rows} >= {1, 2}, "handshake: not run on 1 and 2 threads")
        if name == "naim-4":
            check(all(r["same_as_first"] for r in rows), "naim-4: a stable matching differs from the first row's")
            for case in ("easy", "hard"):
                algorithms = {r["algorithm"] for r in rows if r["case"] == case}
                check(algorithms >= {"gale-shapley", "mcvitie-wilson", "gale-shapley-omp", "mcvitie-wilson-omp"},
                      "naim-4: %s rows lack an algorithm: %s" % (case, sorted(algorithms)))
            hard = [r for r in rows if r["case"] == "hard"]
            check(all(r["rank_sum"] == r["n"] * (r["n"] + 1) for r in hard),
                  "naim-4: a hard instance's rank sum is not n(n + 1) (both sides of the one stable matching)")
            check("almost 14" in page, "naim-4: the paper's stated speedup is not on the page")
        if name == "hovland-gpu":
            runs = [r for r in rows if r["study"] == "run"]
            check({(r["dist"], r["n"]) for r in runs if r["algo"] == "cpu"} ==
                  {(d, n) for d in ("uniform", "exponential", "geometric") for n in (512, 1024)},
                  "hovland-gpu: not every (dist, n) has its sequential run")
            gpu = [r for r in runs if r["algo"] != "cpu"]
            check(gpu or "GPU rows: not run on this machine" in page, "hovland-gpu: neither GPU rows nor why not")
            check(all(r["weight"] >= r["start_weight"] * (1 - 1e-6) for r in runs),
                  "hovland-gpu: a run ended below its start weight")
            check(all(r["weight"] <= r["upper_bound"] * (1 + 1e-9) for r in runs if r.get("upper_bound")),
                  "hovland-gpu: a weight above the auction's bound")
            check("| 1024 |" in page and "Beside the thesis" in page, "hovland-gpu: the runtime table or the thesis")
        if name == "naim-1":
            cpu = [r for r in rows if r.get("device") == "cpu"]
            check({r["algorithm"] for r in cpu} == {"ld-omp", "suitor-locks"} and len(cpu) >= 6,
                  "naim-1: the OpenMP rows: %s" % [(r["graph"], r["algorithm"], r["threads"]) for r in cpu])
            check(all(r["equals_greedy"] for r in cpu), "naim-1: an OpenMP matching differs from greedy's")
            gpu = [r for r in rows if r.get("device") == "gpu"]
            check(all(r["equals_greedy"] for r in gpu), "naim-1: a GPU matching differs from greedy's")
            check(gpu or "GPU rows: not run on this machine" in page, "naim-1: neither GPU rows nor why not")
            check("NoSync the best variant" in page and "| 115 problems |" in page,
                  "naim-1: the paper's statements are not on the page")
        if name == "naim-3":
            for graph in {r["graph"] for r in rows}:
                roles = {r["role"] for r in rows if r["graph"] == graph}
                check(roles >= {"sequential", "adaptive", "grid"}, "naim-3: %s lacks runs: %s" % (graph, roles))
                sequential = next(r for r in rows if r["graph"] == graph and r["role"] == "sequential")
                grid = [r for r in rows if r["graph"] == graph and r["role"] == "grid"]
                check(len(grid) >= 7 and all(r["th_final"] <= r["th_bin"] for r in grid),
                      "naim-3: %s's threshold grid: %s" % (graph, [(r["th_bin"], r["th_final"]) for r in grid]))
                check(all(r["modularity"] >= 0.95 * sequential["modularity"] for r in grid),
                      "naim-3: %s: a threshold pair more than 5%% below the sequential modularity" % graph)
                check(all(r["levels"] and r["time_s"] > 0 for r in grid), "naim-3: %s: a run without levels" % graph)
                check(all(0 <= l["move_s"] <= l["time_s"] for r in grid for l in r["levels"]),
                      "naim-3: %s: a level's moves outside its time" % graph)
            check("average of 41.7" in page and "## Time per level" in page and "in the aggregation" in page,
                  "naim-3: the paper's values or the per-level table are not on the page")
    index = open(os.path.join(out, "README.md")).read()
    for name in sources:
        check("(%s.md)" % name in index, "the index does not link " + name)
    # The performance summary: a section per page, each with the run's
    # machine and the page's conclusions.
    performance = open(os.path.join(out, "PERFORMANCE.md")).read()
    sections = performance.split("\n## ")[1:]
    for name in sources:
        mine = [sec for sec in sections if "(%s.md)" % name in sec.splitlines()[0]]
        check(len(mine) == 1, "PERFORMANCE.md: no one section for " + name)
        check("*Run:*" in mine[0] and len(mine[0].splitlines()) > 4 and "(no conclusions" not in mine[0],
              "PERFORMANCE.md: %s's section is empty:\n%s" % (name, mine[0][:500]))
    # Drawn again from the rows alone: the same pages, plots and summary, byte for byte.
    svgs = {f: open(os.path.join(out, f)).read() for f in os.listdir(out) if f.endswith(".svg")}
    p = subprocess.run([sys.executable, SCRIPT, "--render-only", "--build", build, "--out", out, "--source",
                        ",".join(sources)], capture_output=True, text=True, timeout=300)
    check(p.returncode == 0, "--render-only exited %d:\n%s" % (p.returncode, p.stderr[-2000:]))
    for name in sources:
        check(open(os.path.join(out, name + ".md")).read() == pages[name], name + ": --render-only drew another page")
    for f, text in svgs.items():
        check(open(os.path.join(out, f)).read() == text, f + ": --render-only drew another plot")
    check(open(os.path.join(out, "PERFORMANCE.md")).read() == performance, "--render-only drew another PERFORMANCE.md")
    # A run stopped by SIGTERM (a time limit's `timeout`) keeps its rows,
    # marked as partial on the page and in the index; --resume at the same
    # revision goes on from them and drops the mark.
    stopped_out = tempfile.mkdtemp(prefix="replicate-stop-")
    jsonl = os.path.join(stopped_out, "data", "naim-3.jsonl")
    run = [sys.executable, SCRIPT, "--quick", "--build", build, "--out", stopped_out, "--source", "naim-3"]
    child = subprocess.Popen(run, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 300
    while time.time() < deadline and child.poll() is None and not (
            os.path.exists(jsonl) and sum(1 for line in open(jsonl) if '"kind": "row"' in line) >= 1):
        time.sleep(0.01)
    check(child.poll() is None, "naim-3 --quick ended before its first rows could be stopped (exit %s)" % child.poll())
    child.send_signal(signal.SIGTERM)
    _, err = child.communicate(timeout=120)
    check(child.returncode == 1 and "stopped by SIGTERM" in err, "a stopped run: exit %d, %s" % (child.returncode,
                                                                                              err[-1000:]))
    records = [json.loads(line) for line in open(jsonl) if line.strip()]
    kept = [r for r in records if r["kind"] == "row"]
    check(records[-1]["kind"] == "stopped" and kept, "a stopped run's file: %s" % [r["kind"] for r in records])
    check("stopped before its end" in open(os.path.join(stopped_out, "naim-3.md")).read() and
          "stopped before its end" in open(os.path.join(stopped_out, "README.md")).read(),
          "the page or the index does not say the run was stopped")
    p = subprocess.run(run + ["--resume"], capture_output=True, text=True, timeout=600)
    check(p.returncode == 0, "--resume after a stop exited %d:\n%s" % (p.returncode, p.stderr[-2000:]))
    records = [json.loads(line) for line in open(jsonl) if line.strip()]
    check(all(r["kind"] != "stopped" for r in records) and all(r in records for r in kept) and
          len(records) > len(kept) + 1, "--resume did not keep the stopped run's rows and go on")
    check("stopped before its end" not in open(os.path.join(stopped_out, "naim-3.md")).read(),
          "the resumed run's page still says stopped")
    # bench_roma's GPU runs parsed as the GPU machine prints them (this
    # machine may have none): two phases of roma-gpu-2 with the bound, a
    # roma-gpu run with its kernel columns, a skipped run.
    sys.path.insert(0, os.path.dirname(SCRIPT))
    import replicate
    sample = """roma-gpu-2: complete uniform n=1024 (float weights, 0.00 GB), start neighbour, scan all, phases <= 8, min-gain 1e-05, seed 1
graph on the GPU in 0.001 s (generated there)
 phase        flips      scanned             weight    seconds   kernel   past-bound  fallbacks
 start            -            -         255.490610          -
     0          765            -         504.543719   0.000696        -            -          -
     1           99            -         506.029879   0.000504        -            -          -
summary run=2 dist=uniform n=1024 phases=2 weight=506.029879 total_s=0.001200 phase0_ms=0.696 max_later_phase_ms=0.504 last_phase_ms=0.504 floor_ms=0.001 worst/floor=1.00 start_s=0.1 start+phases_s=0.1012 bound=510.000000 gto<=0.7785%
roma-gpu: complete uniform n=1024 (float weights, 0.00 GB), start neighbour, scan all, phases <= 8, min-gain 1e-05, seed 1
 phase        flips      scanned             weight    seconds   kernel   past-bound  fallbacks
 start            -            -         255.490610          -
     0          760          512         504.000000   0.000100  cluster           12          3
summary run=fast dist=uniform n=1024 phases=1 weight=504.000000 total_s=0.000100 phase0_ms=0.100 max_later_phase_ms=0.000 last_phase_ms=0.100 floor_ms=0.001 worst/floor=1.00 start_s=0.1 start+phases_s=0.1001 scanned=512 kernels=c cluster=2 fallbacks=3
roma-gpu 1 skipped: no GPU (none)
"""
    parsed = replicate.parse_roma_runs(sample, dist="uniform", n=1024, seed=1)
    two = [r for r in parsed if r["algo"] == "2"]
    check([r["study"] for r in two] == ["phase", "phase", "run"] and two[0]["start_weight"] == 255.49061 and
          two[1]["start_weight"] == two[0]["weight"] and two[2]["upper_bound"] == 510.0 and two[2]["phases"] == 2,
          "parse_roma_runs, roma-gpu-2: %s" % two)
    fast = [r for r in parsed if r["algo"] == "fast"]
    check(len(fast) == 2 and fast[0]["flips"] == 760 and fast[1]["time_s"] == 0.0001, "parse_roma_runs, fast: %s" % fast)
    check(any(r["study"] == "skipped" and r["algo"] == "1" for r in parsed), "parse_roma_runs: the skipped run")
    # A bad source is a usage error.
    p = subprocess.run([sys.executable, SCRIPT, "--source", "nosuch", "--out", out], capture_output=True, text=True)
    check(p.returncode == 2 and "unknown source 'nosuch'" in p.stderr, "a bad --source: %s" % p.stderr)
    print("ok: %s" % ", ".join(sources))
    return 0


if __name__ == "__main__":
    sys.exit(main())
