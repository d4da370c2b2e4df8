"""The Python package against the tool on the SuiteSparse collection the
C++ tests read (MATCHBLAS_MATRICES or MATCHBLAS_SHARED_MATRICES, listed in
its MANIFEST.tsv): `matchblas match FILE --algo A
--json --out MATE` and matchblas.match on the same file, by path and (for
real and integer files) as the arrays scipy.io.mmread reads, in CSR, CSC
and COO, give the same mate array and weight. Skipped without the matrices
or the tool."""

import json
import os
import subprocess

import numpy as np
import pytest
import scipy.io

import matchblas

# (algorithm, its options as keywords, the same on the command line)
RUNS = [
    ("suitor", {}, []),
    ("roma-sparse", {"phases": 5, "seed": 3}, ["--phases", "5", "--seed", "3"]),
]


def cli_match(cli, path, algo, args, tmp_path):
    out = tmp_path / "mate.txt"
    # One thread, waiting passively: no spinning OpenMP team in each of the ~80 short runs.
    env = dict(os.environ, OMP_WAIT_POLICY="passive")
    r = subprocess.run([cli, "match", path, "--algo", algo, "--json", "--threads", "1", "--out", str(out), *args],
                       capture_output=True, text=True, timeout=300, env=env)
    if r.returncode != 0:
        return None, r.stderr.strip()
    report = json.loads(r.stdout)
    return (np.loadtxt(out, dtype=np.int64, ndmin=1), report), None


def test_round_trip_on_the_shared_matrices(cli, matrices, tmp_path):
    folder, rows = matrices
    compared = refused = 0
    for row in rows:
        path = os.path.join(folder, row["file"])
        if not os.path.exists(path):
            continue
        arrays = None
        if row["field"] in ("real", "integer"):
            A = scipy.io.mmread(path)
            arrays = {"coo": A.tocoo(), "csr": A.tocsr(), "csc": A.tocsc()}
        for algo, keywords, args in RUNS:
            expected, why = cli_match(cli, path, algo, args, tmp_path)
            if expected is None:
                # The tool refuses the file (a complex one): so must the package.
                with pytest.raises(matchblas.Error) as e:
                    matchblas.match(path, algo, threads=1, **keywords)
                assert str(e.value).split(": ", 1)[1] in why, (row["file"], why, str(e.value))
                refused += 1
                continue
            mate, report = expected
            got, rep = matchblas.match(path, algo, threads=1, **keywords)
            assert np.array_equal(got, mate), (row["file"], algo, "path")
            assert rep.weight == report["weight"] and rep.cardinality == report["cardinality"], (row["file"], algo)
            assert rep.graph == report["graph"]
            for form, B in (arrays or {}).items():
                got, rep = matchblas.match(B, algo, threads=1, **keywords)
                assert np.array_equal(got, mate), (row["file"], algo, form)
                assert rep.weight == pytest.approx(report["weight"], rel=1e-14), (row["file"], algo, form)
            compared += 1
    assert compared >= 30, f"only {compared} comparisons ran"
    assert refused >= 1  # the complex file
