#!/usr/bin/env python3
"""bench/ncu_kernels.py on a hand-written ncu CSV: kernel names shortened in
each form ncu prints (ns::<unnamed>, a bare 'unnamed>' where ncu dropped the
'ns::<', '(anonymous namespace)', template arguments and parameters), the
launches summed per kernel, each unit spelling scaled, bandwidth and its share
of --copy-gbs computed, ncu's own unquoted lines skipped; a file without
rows, a missing column and an unknown unit refused with a message.

    test_ncu_kernels.py
"""
import os
import subprocess
import sys
import tempfile

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "ncu_kernels.py")
HEAD = ('"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size",'
        '"Device","CC","dram__bytes_read.sum","dram__bytes_write.sum","gpu__time_duration.sum"\n')


def row(i, name, read, written, time):
    return '"%d","1","p","h","%s","1","7","(256, 1, 1)","(8, 1, 1)","0","9.0","%s","%s","%s"\n' % (
        i, name, read, written, time)


def run(text, *extra):
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
        f.write(text)
    try:
        return subprocess.run([sys.executable, SCRIPT, f.name, *extra], capture_output=True, text=True)
    finally:
        os.remove(f.name)


def table(out):
    rows = {}
    for line in out.splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0]] = cells[1:]
    return rows


def main():
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)

    text = ("==PROF== Connected to process 1\n" + HEAD + '"","","","","","","","","","","","B","B","ns"\n'
            + row(0, "void matchblas::<unnamed>::choose_kernel<matchblas::<unnamed>::ClassMoves>"
                     "(matchblas::<unnamed>::MoveInputs, const int *)", "2,000,000,000", "1,000,000,000", "1,000,000")
            + row(1, "void unnamed>::choose_kernel<unnamed>::ClassMoves>(unnamed>::MoveInputs, const int *)",
                  "1000000000", "0", "1000000")
            + row(2, "(anonymous namespace)::hash_kernel<int, 4>(const int *, double)", "500000000", "500000000",
                  "500000")
            + row(3, "void cub::DeviceRadixSortOnesweepKernel<cub::Policy, false>(int *)", "0", "0", "")
            + "==PROF== Disconnected\n")
    r = run(text, "--copy-gbs", "4000")
    check(r.returncode == 0, "a valid file: exit %d (%s)" % (r.returncode, r.stderr.strip()))
    t = table(r.stdout)
    check(set(t) == {"choose_kernel", "hash_kernel", "DeviceRadixSortOnesweepKernel", "all kernels"},
          "kernel names: %s" % sorted(t))
    if "choose_kernel" in t:  # 2 launches, 2 ms, 4 GB: 2000 GB/s, 50% of 4000
        c = t["choose_kernel"]
        check(c[0] == "2" and c[1] == "2.00" and c[3] == "3.000" and c[4] == "1.000" and c[5] == "2000"
              and c[6] == "50%", "choose_kernel's row: %s" % c)
        check(c[2] == "80.0%", "choose_kernel's share of 2.5 ms: %s" % c[2])
    if "hash_kernel" in t:
        check(t["hash_kernel"][5] == "2000", "hash_kernel's bandwidth: %s" % t["hash_kernel"])
    if "all kernels" in t:
        check(t["all kernels"][0] == "4" and t["all kernels"][1] == "2.50", "the total row: %s" % t["all kernels"])
    # The long spellings of the units scale the same.
    long_units = text.replace('"B","B","ns"', '"byte","byte","usecond"').replace('"1,000,000"', '"1,000"') \
        .replace('"1000000"', '"1000"').replace('"500000"', '"500"')
    t2 = table(run(long_units, "--copy-gbs", "4000").stdout)
    check(t2.get("choose_kernel") == t.get("choose_kernel"), "usecond and byte: %s" % t2.get("choose_kernel"))
    # --top folds the rest into one row.
    t3 = table(run(text, "--top", "1").stdout)
    check("2 others" in t3 and "choose_kernel" in t3 and "hash_kernel" not in t3, "--top 1: %s" % sorted(t3))
    # Refusals name the problem.
    for bad, says in ((HEAD, "holds no ncu CSV rows"),
                      (HEAD.replace('"gpu__time_duration.sum"', '"other"') + '"","","","","","","","","","","","B","B","ns"\n'
                       + row(0, "k(int)", "1", "1", "1"), "lacks a column"),
                      (HEAD + '"","","","","","","","","","","","B","B","fortnight"\n' + row(0, "k(int)", "1", "1", "1"),
                       "unknown unit")):
        r = run(bad)
        check(r.returncode != 0 and says in r.stderr, "refused with '%s': exit %d, %s" % (says, r.returncode,
                                                                                      r.stderr.strip()))
    for f in failures:
        print("FAIL:", f)
    print("%d checks failed" % len(failures) if failures else "all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
