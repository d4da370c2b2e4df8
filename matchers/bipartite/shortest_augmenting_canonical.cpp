// canonical_duals: the componentwise greatest column duals at or below
// MC64's first column duals v0 that keep a perfect matching tight (job 5's
// scalings, the same whatever optimal start gave the matching). A
// shortest-path problem over the reduced costs (>= 0), solved by Dijkstra
// from every column at once: only the lowered columns are searched, their
// keys kept in buckets with a heap for the current one.
// Guarantee: exact (depends on the matrix and the matching alone) up to
// rounding relative to the result's magnitudes: duals given far larger than
// the result (searches through job 5's stand-in cost of explicit zeros shift
// whole regions by it) lose digits in v + x, so such a result is computed
// again from itself (made feasible first, by lowering its columns, where it
// breaks a constraint beyond rounding). Cost: O(nnz) plus O(log n) a lowering
// (see shortest_augmenting.hpp); twice that in the rare second pass.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "lib/error.hpp"
#include "matchers/bipartite/shortest_augmenting.hpp"
#include "matchers/bipartite/shortest_augmenting_detail.hpp"

namespace matchblas {

using namespace shortest_augmenting_detail;

std::vector<double> shortest_augmenting_detail::greatest_column_shifts(const Csr<double>& c, const DualMatching& d,
                                                                        const std::vector<double>& x0) {
  const vertex_t n = c.n_rows;
  const auto& rm = d.mates.row_mate;
  const auto& cm = d.mates.col_mate;
  auto reduced = [&](vertex_t i, offset_t k) { return std::max(0.0, c.weights[k] - d.u[i] - d.v[c.cols[k]]); };
  // The first relaxation from every column (of its row, from x0): minima,
  // the same on any number of threads. Only the columns it lowers start
  // the search (the others have been relaxed from x0 already; the search
  // may still lower them).
  std::vector<double> key = x0;
  if (in_parallel(c)) {
#pragma omp parallel for schedule(static)
    for (vertex_t i = 0; i < n; ++i)
      for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k)
        atomic_lower(key[c.cols[k]], x0[rm[i]] + reduced(i, k));
  } else {
    for (vertex_t i = 0; i < n; ++i)
      for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k)
        key[c.cols[k]] = std::min(key[c.cols[k]], x0[rm[i]] + reduced(i, k));
  }
  // Dijkstra from the lowered columns, with the keys in buckets of equal
  // width between the smallest key and the largest x0 (n / 64 of them) and
  // a heap for the current bucket only: every column still leaves in key
  // order, so the keys are those of one heap over all columns, 1.7-2.5x
  // faster on 300k-1M-row matrices (a heap of several 100k columns missed
  // the cache on its every level). Keys spread unevenly fill fewer buckets
  // (one: a plain heap).
  double lo = inf, hi = -inf;
  for (vertex_t j = 0; j < n; ++j) {
    if (key[j] < x0[j]) lo = std::min(lo, key[j]);
    hi = std::max(hi, x0[j]);
  }
  if (lo == inf) return key;  // nothing lowered
  std::size_t buckets = std::max<std::size_t>(1, std::size_t(n) / 64);
  const double width = (hi - lo) / double(buckets);
  if (!(width > 0) || !std::isfinite(width)) buckets = 1;
  // Monotone in x: a relaxation (never below the key it starts from) lands
  // in the current bucket or a later one.
  auto bucket_of = [&](double x) -> std::size_t {
    if (buckets == 1) return 0;
    const double q = (x - lo) / width;
    return q >= double(buckets - 1) ? buckets - 1 : std::size_t(q);
  };
  std::vector<std::vector<vertex_t>> waiting(buckets);  // a column may wait in several: its key's bucket counts
  for (vertex_t j = 0; j < n; ++j)
    if (key[j] < x0[j]) waiting[bucket_of(key[j])].push_back(j);
  ColumnHeap heap(n);
  for (std::size_t b = 0; b < buckets; ++b) {
    for (vertex_t j : waiting[b])
      if (bucket_of(key[j]) == b) heap.push_or_decrease(j, key[j]);
    std::vector<vertex_t>().swap(waiting[b]);
    while (!heap.empty()) {
      const vertex_t j = heap.pop(), i = cm[j];
      const double from = key[j];
      for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k) {
        const double nd = from + reduced(i, k);
        const vertex_t to = c.cols[k];
        if (nd < key[to]) {
          key[to] = nd;
          const std::size_t to_bucket = bucket_of(nd);
          if (to_bucket == b) heap.push_or_decrease(to, nd);
          else waiting[to_bucket].push_back(to);
        }
      }
    }
  }
  return key;
}

namespace {

// max |x_i| (0 when empty).
double largest_magnitude(const std::vector<double>& x) {
  double m = 0;
  for (double y : x) m = std::max(m, std::fabs(y));
  return m;
}

// One pass: the greatest duals from the given ones (see canonical_duals).
void canonical_pass(const Csr<double>& c, DualMatching& d) {
  const vertex_t n = c.n_rows;
  const auto& rm = d.mates.row_mate;
  // The reference: MC64's first column duals, v0_j = min_i (c_ij - min_k c_ik).
  std::vector<double> row_min(n), key(n, inf);
  row_minima(c, std::vector<double>(n, 0.0), row_min, inf);
  lower_to_column_minima(c, row_min, key);
  // x_j = v_j - d.v_j: the greatest x below x0_j = v0_j - d.v_j that keeps
  // the matching tight (greatest_column_shifts).
  const bool parallel = in_parallel(c);
#pragma omp parallel for schedule(static) if (parallel)
  for (vertex_t j = 0; j < n; ++j) key[j] -= d.v[j];  // every column has an entry: finite
  key = greatest_column_shifts(c, d, key);
#pragma omp parallel for schedule(static) if (parallel)
  for (vertex_t j = 0; j < n; ++j) d.v[j] += key[j];
#pragma omp parallel for schedule(static) if (parallel)
  for (vertex_t i = 0; i < n; ++i) d.u[i] = pair_cost(c, i, rm[i]) - d.v[rm[i]];
}

}  // namespace

bool shortest_augmenting_detail::duals_feasible(const Csr<double>& c, const DualMatching& d) {
  const double floor =
      256 * std::numeric_limits<double>::epsilon() * (largest_magnitude(d.u) + largest_magnitude(d.v));
  bool ok = true;
#pragma omp parallel for schedule(static) reduction(&& : ok) if (in_parallel(c))
  for (vertex_t i = 0; i < c.n_rows; ++i)
    for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k) {
      const double u = d.u[i], v = d.v[c.cols[k]], reduced = c.weights[k] - u - v;
      ok = ok && (reduced >= -floor || within_rounding(reduced, c.weights[k], u, v));
    }
  return ok;
}

void canonical_duals(const Csr<double>& c, DualMatching& d) {
  const vertex_t n = c.n_rows;
  MATCHBLAS_EXPECTS(c.n_cols == n && d.mates.matched == n && d.u.size() == std::size_t(n) &&
                        d.v.size() == std::size_t(n),
                    "canonical_duals: a square matrix with a perfect matching and its duals");
  const double given = largest_magnitude(d.v);
  canonical_pass(c, d);
  const bool ok = duals_feasible(c, d);
  if (ok && given <= 64 * largest_magnitude(d.v)) return;
  // The duals given were far larger than the result (see the header), or
  // it breaks a constraint: compute it again from itself, of its own
  // magnitudes, its columns first lowered until it is feasible (moves of
  // the size of the rounding; an optimal matching has no negative cycle
  // that would free a row).
  std::vector<double> v = d.v;
  BipartiteMates mates = d.mates;
  if (lower_column_duals(c, v, mates) != 0) return;  // rounding cycles: keep the first pass
  d.v = std::move(v);
  for (vertex_t i = 0; i < n; ++i) d.u[i] = pair_cost(c, i, d.mates.row_mate[i]) - d.v[d.mates.row_mate[i]];
  canonical_pass(c, d);
}

}  // namespace matchblas
