"""docs/prototyping.md's matcher, run as the page prints it: under 50
lines, and equal to `greedy` mate for mate on random graphs with many tied
weights (and on the corner cases: no vertex, no edge, one edge, a star)."""

import os
import re

import numpy as np
import pytest
import scipy.sparse as sp

import matchblas
from conftest import random_graph

PAGE = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "prototyping.md")


@pytest.fixture(scope="module")
def tutorial():
    with open(PAGE) as f:
        text = f.read()
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    lines = code.strip("\n").split("\n")
    assert len(lines) < 50, f"the tutorial's matcher is {len(lines)} lines"
    namespace = {}
    exec(compile(code, PAGE, "exec"), namespace)
    return namespace["suitor"]


@pytest.mark.parametrize("seed", range(10))
def test_equals_greedy_with_ties(tutorial, seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(50, 600))
    A = random_graph(n, float(rng.uniform(0.002, 0.05)), seed=seed, ties=int(rng.choice([2, 3, 10])),
                     dtype=np.float32 if seed % 3 == 0 else np.float64)
    expected, _ = matchblas.match(A, "greedy", precision="float" if A.dtype == np.float32 else "double")
    assert np.array_equal(tutorial(A), expected)


def test_corner_cases(tutorial):
    for A in (sp.csr_matrix((0, 0)), sp.csr_matrix((5, 5)),
              sp.csr_matrix(np.array([[0, 1.0], [1.0, 0]])),
              sp.csr_matrix(np.array([[0, 1, 1, 1], [1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0]], dtype=float))):
        assert np.array_equal(tutorial(A), matchblas.match(A, "greedy")[0])


def test_the_pages_session_prints_what_it_says(tutorial):
    """The page's `>>>` session, run line by line: each expression's value
    must be the line printed after it."""
    with open(PAGE) as f:
        text = f.read()
    session = re.search(r"```\n(>>> .*?)```", text, re.S).group(1).strip("\n").split("\n")
    namespace = {"suitor": tutorial}
    checked = 0
    for k, line in enumerate(session):
        if not line.startswith(">>> "):
            continue
        statement = line[4:]
        if k + 1 < len(session) and not session[k + 1].startswith(">>> "):
            assert repr(eval(statement, namespace)) == session[k + 1]
            checked += 1
        else:
            exec(statement, namespace)
    assert checked >= 1
