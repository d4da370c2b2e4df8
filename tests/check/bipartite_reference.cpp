// Independent bipartite references (see bipartite_reference.hpp).
#include "tests/check/bipartite_reference.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace matchblas::check {

namespace {

// Minimum-cost assignment of the rows of a dense N x N cost matrix
// (Hungarian method with potentials, O(N^3)); returns the column of each row.
std::vector<int> hungarian(const std::vector<std::vector<double>>& cost) {
  const int n = static_cast<int>(cost.size());
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> u(n + 1, 0), v(n + 1, 0);
  std::vector<int> p(n + 1, 0), way(n + 1, 0);  // p[j]: row (1-based) of column j
  for (int i = 1; i <= n; ++i) {
    p[0] = i;
    int j0 = 0;
    std::vector<double> minv(n + 1, inf);
    std::vector<char> used(n + 1, 0);
    do {
      used[j0] = 1;
      const int i0 = p[j0];
      double delta = inf;
      int j1 = 0;
      for (int j = 1; j <= n; ++j)
        if (!used[j]) {
          const double cur = cost[i0 - 1][j - 1] - u[i0] - v[j];
          if (cur < minv[j]) {
            minv[j] = cur;
            way[j] = j0;
          }
          if (minv[j] < delta) {
            delta = minv[j];
            j1 = j;
          }
        }
      for (int j = 0; j <= n; ++j)
        if (used[j]) {
          u[p[j]] += delta;
          v[j] -= delta;
        } else {
          minv[j] -= delta;
        }
      j0 = j1;
    } while (p[j0] != 0);
    do {
      const int j1 = way[j0];
      p[j0] = p[j1];
      j0 = j1;
    } while (j0);
  }
  std::vector<int> col(n, -1);
  for (int j = 1; j <= n; ++j)
    if (p[j] > 0) col[p[j] - 1] = j - 1;
  return col;
}

}  // namespace

// The reference for jobs 4 and 5: (cardinality, objective) of the best
// maximum matching. Missing entries cost `missing`, explicit zeros in job 5
// cost `zero` (both far above every real cost), so the reference maximises
// the cardinality, then (job 5) avoids zeros, then the objective.
std::pair<vertex_t, double> best_bipartite(const Csr<double>& a, int job) {
  const int big_n = std::max<int>(a.n_rows, a.n_cols);
  const double missing = 1e9, zero = 1e6;
  std::vector<std::vector<double>> cost(big_n, std::vector<double>(big_n, missing));
  for (vertex_t i = 0; i < a.n_rows; ++i)
    for (offset_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k) {
      const double x = std::fabs(a.weights[k]);
      cost[i][a.cols[k]] = job == 4 ? -x : x == 0 ? zero : -std::log(x);
    }
  const auto col = hungarian(cost);
  int count = 0;
  double objective = 0;
  for (int i = 0; i < big_n; ++i)
    if (cost[i][col[i]] < missing) {
      ++count;
      const double x = std::fabs([&] {
        for (offset_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k)
          if (a.cols[k] == col[i]) return a.weights[k];
        return 0.0;
      }());
      objective += job == 4 ? x : std::log(x);
    }
  return {count, objective};
}

vertex_t bipartite_rank(const Csr<double>& a, double threshold) {
  std::vector<vertex_t> col_mate(a.n_cols, -1);
  std::vector<char> used;
  std::function<bool(vertex_t)> try_row = [&](vertex_t i) {
    for (offset_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k) {
      const vertex_t j = a.cols[k];
      if (std::fabs(a.weights[k]) < threshold || used[j]) continue;
      used[j] = 1;
      if (col_mate[j] < 0 || try_row(col_mate[j])) {
        col_mate[j] = i;
        return true;
      }
    }
    return false;
  };
  vertex_t size = 0;
  for (vertex_t i = 0; i < a.n_rows; ++i) {
    used.assign(a.n_cols, 0);
    if (try_row(i)) ++size;
  }
  return size;
}


double bottleneck_value(const Csr<double>& a) {
  const vertex_t rank = bipartite_rank(a);
  double best = 0;
  for (double w : a.weights)
    if (std::fabs(w) > best && bipartite_rank(a, std::fabs(w)) == rank) best = std::fabs(w);
  return rank == 0 ? 0 : best;
}

template <class W>
std::string bipartite_mates_violation(const Csr<W>& a, const BipartiteMates& m) {
  if (m.row_mate.size() != std::size_t(a.n_rows) || m.col_mate.size() != std::size_t(a.n_cols))
    return "mate arrays of the wrong size";
  vertex_t count = 0;
  for (vertex_t i = 0; i < a.n_rows; ++i) {
    const vertex_t j = m.row_mate[i];
    if (j < 0) continue;
    ++count;
    if (j >= a.n_cols || m.col_mate[j] != i) return "row " + std::to_string(i) + "'s mate is not symmetric";
    const auto cols = a.row_cols(i);
    if (std::find(cols.begin(), cols.end(), j) == cols.end())
      return "row " + std::to_string(i) + " matched to column " + std::to_string(j) + ", not an entry";
  }
  for (vertex_t j = 0; j < a.n_cols; ++j)
    if (m.col_mate[j] >= 0 && (m.col_mate[j] >= a.n_rows || m.row_mate[m.col_mate[j]] != j))
      return "column " + std::to_string(j) + "'s mate is not symmetric";
  if (count != m.matched) return "matched says " + std::to_string(m.matched) + ", the rows " + std::to_string(count);
  return "";
}

template <class W>
bool has_augmenting_path(const Csr<W>& a, const BipartiteMates& m) {
  std::vector<char> seen(std::size_t(a.n_cols), 0);
  std::vector<vertex_t> queue;
  for (vertex_t i = 0; i < a.n_rows; ++i)
    if (m.row_mate[i] < 0) queue.push_back(i);
  for (std::size_t h = 0; h < queue.size(); ++h)
    for (vertex_t j : a.row_cols(queue[h])) {
      if (seen[j]) continue;
      seen[j] = 1;
      if (m.col_mate[j] < 0) return true;
      queue.push_back(m.col_mate[j]);
    }
  return false;
}

template std::string bipartite_mates_violation(const Csr<float>&, const BipartiteMates&);
template std::string bipartite_mates_violation(const Csr<double>&, const BipartiteMates&);
template bool has_augmenting_path(const Csr<float>&, const BipartiteMates&);
template bool has_augmenting_path(const Csr<double>&, const BipartiteMates&);

}  // namespace matchblas::check
