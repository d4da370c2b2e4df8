#!/usr/bin/env python3
"""Time, DRAM bytes and achieved bandwidth per kernel of a whole run, from ncu.

    ncu --csv --page raw --print-units base --clock-control none \\
        --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \\
        PROGRAM ARGS > run.csv
    python3 bench/ncu_kernels.py run.csv [--copy-gbs GBS] [--top N]

Sums the launches of each kernel (by name, template arguments and parameters
dropped) and prints one markdown table, the most time first: launches,
time, its share of all kernels' time, DRAM bytes read and written, the
achieved bandwidth (bytes over time) and, with --copy-gbs (the device's
measured device-to-device copy bandwidth, read + write, as bench_louvain
and bench_gpu_matchers print it), that bandwidth as a fraction of it. A
kernel far below the copy bandwidth waits on something other than DRAM:
dependent loads, atomics, launches too small to fill the device.
"""
import argparse
import csv
import re
import sys
from collections import defaultdict

METRICS = ("gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_write.sum")


def short_name(name):
    """'void ns::kernel<int, 4>(int*, ...)' -> 'kernel'."""
    name = re.sub(r"^void ", "", name.strip())
    # Anonymous namespaces are not template brackets: 'ns::<unnamed>', '(anonymous
    # namespace)', or (some ncu versions drop the 'ns::<') a bare 'unnamed>'.
    name = re.sub(r"(\w+::)+<unnamed>|\(anonymous namespace\)|^<unnamed>", "anon", name)
    name = name.replace("unnamed>", "anon")
    depth, out = 0, []
    for ch in name:  # template arguments and parameters out
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out).split("::")[-1] or name


def number(text):
    return float(text.replace(",", "")) if text.strip() not in ("", "n/a") else 0.0


def read_rows(path):
    with open(path, newline="") as f:
        lines = [line for line in f if line.startswith('"')]  # ncu's own messages are not quoted
    rows = list(csv.reader(lines))
    if len(rows) < 2:
        sys.exit("ncu_kernels: %s holds no ncu CSV rows (was ncu run with --csv --page raw?)" % path)
    head, units = rows[0], rows[1]
    try:
        at = {m: head.index(m) for m in METRICS}
        name_at = head.index("Kernel Name")
    except ValueError as e:
        sys.exit("ncu_kernels: %s lacks a column: %s" % (path, e))
    factor = {"ns": 1e-9, "nsecond": 1e-9, "us": 1e-6, "usecond": 1e-6, "ms": 1e-3, "msecond": 1e-3, "s": 1.0,
              "second": 1.0, "B": 1.0, "byte": 1.0, "KB": 1e3, "Kbyte": 1e3, "MB": 1e6, "Mbyte": 1e6, "GB": 1e9,
              "Gbyte": 1e9}  # (ncu's spellings differ between versions)
    scale = {m: factor.get(units[at[m]]) for m in METRICS}
    for m, s in scale.items():
        if s is None:
            sys.exit("ncu_kernels: unknown unit '%s' of %s (run ncu with --print-units base)" % (units[at[m]], m))
    for r in rows[2:]:
        yield short_name(r[name_at]), [number(r[at[m]]) * scale[m] for m in METRICS]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--copy-gbs", type=float, default=0.0)
    ap.add_argument("--top", type=int, default=20)
    a = ap.parse_args()
    total = defaultdict(lambda: [0, 0.0, 0.0, 0.0])  # launches, seconds, read, written
    for name, (seconds, read, written) in read_rows(a.csv):
        t = total[name]
        t[0] += 1
        t[1] += seconds
        t[2] += read
        t[3] += written
    all_s = sum(t[1] for t in total.values())
    all_b = sum(t[2] + t[3] for t in total.values())
    print("| kernel | launches | ms | share | GB read | GB written | GB/s | of copy bandwidth |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|")
    ranked = sorted(total.items(), key=lambda kv: -kv[1][1])
    rest = ranked[a.top:]
    for name, (launches, seconds, read, written) in ranked[:a.top]:
        gbs = (read + written) / seconds / 1e9 if seconds else 0.0
        of = "%.0f%%" % (100 * gbs / a.copy_gbs) if a.copy_gbs else "-"
        print("| %s | %d | %.2f | %.1f%% | %.3f | %.3f | %.0f | %s |" % (
            name, launches, 1e3 * seconds, 100 * seconds / all_s if all_s else 0, read / 1e9, written / 1e9, gbs, of))
    if rest:
        s = sum(t[1] for _, t in rest)
        b = sum(t[2] + t[3] for _, t in rest)
        print("| %d others | %d | %.2f | %.1f%% | | | %.0f | |" % (
            len(rest), sum(t[0] for _, t in rest), 1e3 * s, 100 * s / all_s if all_s else 0, b / s / 1e9 if s else 0))
    gbs = all_b / all_s / 1e9 if all_s else 0.0
    print("| all kernels | %d | %.2f | 100%% | | | %.0f | %s |" % (
        sum(t[0] for t in total.values()), 1e3 * all_s, gbs,
        "%.0f%%" % (100 * gbs / a.copy_gbs) if a.copy_gbs else "-"))


if __name__ == "__main__":
    main()
