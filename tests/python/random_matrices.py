"""Seeded random Matrix Market files for the pre-pass checks (test_prepass_scipy.py).

Matrix k of seed S comes from numpy's default_rng([S, k]) alone, so one can be
replayed without the others. The first five are the edge cases 0 x 0, 1 x 1,
0 x 3, 3 x 0 and a 1 x 1 explicit zero. After them, k cycles through shapes
(small square, medium square, rectangular, square with a planted perfect
matching) and values (continuous over 12 decades with signs; ties from {1, 2,
3}; signed powers of two; integer; pattern), and the seed adds: explicit zeros
(sometimes a row of zeros only), empty rows or columns, a Hall violator (r + 1
rows whose entries lie in r columns), a dense row, duplicates (some cancelling
to an explicit zero), symmetric storage, gzip. The file name says which.
"""
import gzip

import numpy as np

EDGE_CASES = [(0, 0, []), (1, 1, [(0, 0, 2.5)]), (0, 3, []), (3, 0, []), (1, 1, [(0, 0, 0.0)])]


def write_mtx(path, m, n, rows, cols, vals, field, symmetric=False):
    """A coordinate file, 0-based (rows, cols) written 1-based; values %.17g (integer: %d; pattern: none)."""
    lines = [f"%%MatrixMarket matrix coordinate {field} {'symmetric' if symmetric else 'general'}",
             f"{m} {n} {len(rows)}"]
    for i, j, v in zip(rows, cols, vals):
        if field == "pattern":
            lines.append(f"{i + 1} {j + 1}")
        elif field == "integer":
            lines.append(f"{i + 1} {j + 1} {int(v)}")
        else:
            lines.append(f"{i + 1} {j + 1} {float(v):.17g}")
    text = ("\n".join(lines) + "\n").encode()
    with (gzip.open(path, "wb") if path.endswith(".gz") else open(path, "wb")) as f:
        f.write(text)


def values(rng, kind, count):
    if kind == "wide":
        return rng.choice([-1.0, 1.0], count) * 10.0 ** rng.uniform(-6, 6, count)
    if kind == "ties":
        return rng.choice([1.0, 2.0, 3.0], count)
    if kind == "pow2":
        return rng.choice([-4.0, -2.0, -1.0, -0.5, 0.5, 1.0, 2.0, 4.0], count)
    if kind == "integer":
        return rng.choice([-3, -2, -1, 1, 2, 3], count).astype(float)
    return np.ones(count)  # pattern


def random_matrix(rng, k):
    """(m, n, rows, cols, vals, field, symmetric, tags) of matrix k."""
    shape = k % 4
    kind = ("wide", "ties", "pow2", "integer", "pattern")[(k // 4) % 5]
    field = {"integer": "integer", "pattern": "pattern"}.get(kind, "real")
    if shape == 0:
        m = n = int(rng.integers(1, 13))
    elif shape == 1:
        m = n = int(rng.integers(20, 201))
    elif shape == 2:
        m, n = (int(x) for x in rng.integers(1, 151, 2))
        n += m == n
    else:
        m = n = int(rng.integers(50, 301))
    tags = [f"{m}x{n}", kind]
    degree = rng.uniform(0.5, 8)
    count = min(int(degree * max(m, n)) + 1, m * n)
    flat = rng.choice(m * n, count, replace=False)
    rows, cols = flat // n, flat % n
    if m == n and (shape == 3 or rng.random() < 0.5):  # a planted perfect matching
        rows, cols = np.concatenate([rows, np.arange(n)]), np.concatenate([cols, rng.permutation(n)])
        tags.append("planted")
    if rng.random() < 0.1:  # one dense row
        r = rng.integers(m)
        rows, cols = np.concatenate([rows, np.full(n, r)]), np.concatenate([cols, np.arange(n)])
        tags.append("densrow")
    keep = np.unique(rows * n + cols)
    rows, cols = keep // n, keep % n
    if rng.random() < 0.2:  # empty rows or columns
        if rng.random() < 0.5:
            gone = rng.choice(m, max(1, m // 20), replace=False)
            mask = ~np.isin(rows, gone)
        else:
            gone = rng.choice(n, max(1, n // 20), replace=False)
            mask = ~np.isin(cols, gone)
        rows, cols = rows[mask], cols[mask]
        tags.append("empty")
    if min(m, n) >= 4 and rng.random() < 0.15:  # Hall violator: r + 1 rows within r columns
        r = int(rng.integers(1, min(m, n) // 2 + 1))
        hall_rows, hall_cols = rng.choice(m, r + 1, replace=False), rng.choice(n, r, replace=False)
        mask = ~np.isin(rows, hall_rows) | np.isin(cols, hall_cols)
        rows, cols = rows[mask], cols[mask]
        tags.append("hall")
    vals = values(rng, kind, len(rows))
    if field != "pattern" and rng.random() < 0.3:  # explicit zeros
        vals[rng.random(len(vals)) < rng.uniform(0.05, 0.3)] = 0.0
        if len(rows) and rng.random() < 0.3:  # a row of zeros only
            vals[rows == rows[rng.integers(len(rows))]] = 0.0
        tags.append("zeros")
    symmetric = m == n and rng.random() < 0.15
    if symmetric:  # the lower triangle stands for both
        mask = rows >= cols
        rows, cols, vals = rows[mask], cols[mask], vals[mask]
        tags.append("sym")
    elif len(rows) and field != "pattern" and rng.random() < 0.15:  # duplicates, some cancelling
        pick = rng.choice(len(rows), max(1, len(rows) // 10), replace=True)
        extra = np.where(rng.random(len(pick)) < 0.5, -vals[pick], values(rng, kind, len(pick)))
        rows, cols = np.concatenate([rows, rows[pick]]), np.concatenate([cols, cols[pick]])
        vals = np.concatenate([vals, extra])
        order = rng.permutation(len(rows))
        rows, cols, vals = rows[order], cols[order], vals[order]
        tags.append("dups")
    return m, n, rows, cols, vals, field, symmetric, tags


def write_random_matrices(folder, count, seed):
    """Writes `count` matrices into folder; returns their file names."""
    names = []
    for k in range(count):
        rng = np.random.default_rng([seed, k])
        if k < len(EDGE_CASES):
            m, n, entries = EDGE_CASES[k]
            rows, cols, vals = (np.array([e[i] for e in entries]) for i in range(3))
            field, symmetric, tags = "real", False, [f"{m}x{n}", "edge"]
        else:
            m, n, rows, cols, vals, field, symmetric, tags = random_matrix(rng, k)
        gz = rng.random() < 0.1
        name = f"rand{k:03d}_{'_'.join(tags)}.mtx" + (".gz" if gz else "")
        write_mtx(f"{folder}/{name}", m, n, rows, cols, vals, field, symmetric)
        names.append(name)
    return names
