"""bench/solver_benefit.py: GMRES with ILU on a matrix as given and after job
5's permutation and scalings. A matrix whose rows are a permutation of a
diagonally dominant one has almost no diagonal: ILU without pivoting fails
on it as given (SuperLU's ILU mends zero pivots, but GMRES then stalls)
and converges at once after job 5, which puts the dominant
entries back on the diagonal; the page, plot and JSON name every matrix and
agree with the table."""

import argparse
import importlib.util
import json
import os

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp

BENCH = os.path.join(os.path.dirname(__file__), "..", "..", "bench", "solver_benefit.py")


def load():
    spec = importlib.util.spec_from_file_location("solver_benefit", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def scrambled_dominant(n, seed):
    """P D: D diagonally dominant and unsymmetric (diagonal 10 to 20, a few
    off-diagonal entries below 1), its rows permuted by a random derangement,
    so that P D's diagonal holds none of D's and few entries at all."""
    rng = np.random.default_rng(seed)
    off = sp.random(n, n, density=4.0 / n, format="csr", random_state=rng)
    off.setdiag(0)
    off.eliminate_zeros()
    d = (sp.diags(rng.uniform(10, 20, n)) + off).tocsr()
    perm = np.roll(rng.permutation(n), 1)  # row k of P D is row perm[k] of D
    while np.any(perm == np.arange(n)):
        perm = rng.permutation(n)
    return sp.csr_matrix(d[perm, :]), d


@pytest.fixture(scope="module")
def sb():
    return load()


def options(sb):
    """The script's defaults."""
    return argparse.Namespace(drop_tol=1e-4, fill_factor=10, pivot=0.0, restart=50, maxiter=1000, tol=1e-8,
                              all=False, max_n=200000, exclude=[])


def test_job5_rescues_a_scrambled_dominant_matrix(sb):
    a, _ = scrambled_dominant(300, 7)
    assert np.count_nonzero(a.diagonal()) <= 30  # only small off-diagonal entries of D land there
    r = sb.study(a, options(sb))
    assert r["none"]["failure"] != ""  # ILU without pivoting on no diagonal: no usable preconditioner
    assert r["job5"]["failure"] == ""
    assert 1 <= r["job5"]["iterations"] <= 10
    assert r["job5"]["residual"] < 1e-8
    assert 0 < r["job5"]["fill"] < 10


def test_job5_system_puts_the_scaled_matching_on_the_diagonal(sb):
    a, _ = scrambled_dominant(120, 3)
    b_matrix, to_rhs, from_y, seconds = sb.job5_system(a)
    assert np.allclose(np.abs(b_matrix.diagonal()), 1.0)
    assert np.abs(b_matrix.data).max() <= 1 + 1e-12  # job 5's scalings: |entries| <= 1
    x = np.arange(1.0, a.shape[0] + 1)
    dc = from_y(np.ones(a.shape[0]))  # x = Dc y
    assert np.allclose(b_matrix @ (x / dc), to_rhs(a @ x))  # B Dc^-1 x = P Dr A x
    assert seconds >= 0


def test_page_plot_and_json(sb, tmp_path):
    a, d = scrambled_dominant(200, 11)
    scipy.io.mmwrite(str(tmp_path / "scrambled.mtx"), a)
    scipy.io.mmwrite(str(tmp_path / "dominant.mtx"), d)
    scipy.io.mmwrite(str(tmp_path / "wide.mtx"), sp.random(5, 8, density=0.5, random_state=1))
    out = tmp_path / "page"
    assert sb.main([str(tmp_path), "--out", str(out)]) == 0
    page = (tmp_path / "page.md").read_text()
    assert "| scrambled | 200 |" in page and "| dominant | 200 |" in page
    scrambled = next(line for line in page.splitlines() if line.startswith("| scrambled |"))
    assert scrambled.split(" | ")[4].endswith(("fails", ")"))  # as given: ILU fails, or GMRES fails (its)
    assert "wide (5 x 8: not square)" in page
    assert "GMRES converges on 1 as given and on 2 with job 5" in page
    assert "--out" in page and "page.svg" in page
    svg = (tmp_path / "page.svg").read_text()
    assert svg.startswith("<svg") and "scrambled" in svg and "dominant" in svg
    data = json.loads((tmp_path / "page.json").read_text())
    assert [r["matrix"] for r in data["rows"]] == ["dominant", "scrambled"]
    assert data["rows"][1]["job5"]["failure"] == ""


def test_bad_input(sb, tmp_path, capsys):
    with pytest.raises(SystemExit):
        sb.main([str(tmp_path / "missing.mtx")])
    assert "no such file" in capsys.readouterr().err
    assert sb.main([str(tmp_path)]) == 1  # an empty directory: nothing to study
