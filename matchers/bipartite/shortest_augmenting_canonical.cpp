// canonical_duals: the componentwise greatest column duals at or below
// MC64's first column duals v0 that keep a perfect matching tight (job 5's
// scalings, the same whatever optimal start gave the matching). A
// shortest-path problem over the reduced costs (>= 0), solved by Dijkstra
// from every column at once, only the lowered columns in the heap.
// Guarantee: exact (depends on the matrix and the matching alone). Cost:
// O(nnz) plus O(log n) a lowering (see shortest_augmenting.hpp).
#include <algorithm>
#include <vector>

#include "lib/error.hpp"
#include "matchers/bipartite/shortest_augmenting.hpp"
#include "matchers/bipartite/shortest_augmenting_detail.hpp"

namespace matchblas {

using namespace shortest_augmenting_detail;

void canonical_duals(const Csr<double>& c, DualMatching& d) {
  const vertex_t n = c.n_rows;
  MATCHBLAS_EXPECTS(c.n_cols == n && d.mates.matched == n && d.u.size() == std::size_t(n) &&
                        d.v.size() == std::size_t(n),
                    "canonical_duals: a square matrix with a perfect matching and its duals");
  const auto& rm = d.mates.row_mate;
  const auto& cm = d.mates.col_mate;
  // The reference: MC64's first column duals, v0_j = min_i (c_ij - min_k c_ik).
  std::vector<double> row_min(n), key(n, inf);
  row_minima(c, std::vector<double>(n, 0.0), row_min, inf);
  lower_to_column_minima(c, row_min, key);
  // x_j = v_j - d.v_j must satisfy x_j <= x0_j = v0_j - d.v_j and, for every
  // entry (i, j), x_j <= x_{M(i)} + r_ij with r_ij = c_ij - u_i - v_j >= 0
  // (d's reduced cost): the greatest such x is a shortest-path distance
  // from sources x0 over non-negative lengths (Dijkstra). The columns no
  // path lowers keep x0: their edges are relaxed once up front, and only
  // the lowered columns enter the heap.
  const bool parallel = in_parallel(c);
#pragma omp parallel for schedule(static) if (parallel)
  for (vertex_t j = 0; j < n; ++j) key[j] -= d.v[j];  // every column has an entry: finite
  const std::vector<double> x0 = key;
  auto reduced = [&](vertex_t i, offset_t k) { return std::max(0.0, c.weights[k] - d.u[i] - d.v[c.cols[k]]); };
  // The first relaxation from every column (of its row, from x0): minima,
  // the same on any number of threads.
  if (parallel) {
#pragma omp parallel for schedule(static)
    for (vertex_t i = 0; i < n; ++i)
      for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k)
        atomic_lower(key[c.cols[k]], x0[rm[i]] + reduced(i, k));
  } else {
    for (vertex_t i = 0; i < n; ++i)
      for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k)
        key[c.cols[k]] = std::min(key[c.cols[k]], x0[rm[i]] + reduced(i, k));
  }
  ColumnHeap heap(n);
  for (vertex_t j = 0; j < n; ++j)
    if (key[j] < x0[j]) heap.push_or_decrease(j, key[j]);
  while (!heap.empty()) {
    const vertex_t j = heap.pop(), i = cm[j];
    for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k) {
      const double nd = key[j] + reduced(i, k);
      if (nd < key[c.cols[k]]) {
        key[c.cols[k]] = nd;
        heap.push_or_decrease(c.cols[k], nd);
      }
    }
  }
#pragma omp parallel for schedule(static) if (parallel)
  for (vertex_t j = 0; j < n; ++j) d.v[j] += key[j];
#pragma omp parallel for schedule(static) if (parallel)
  for (vertex_t i = 0; i < n; ++i) d.u[i] = pair_cost(c, i, rm[i]) - d.v[rm[i]];
}

}  // namespace matchblas
