// The warm starts of the shortest-augmenting-path engine: the searches from
// given feasible duals and a matching on tight entries (checked), or from
// column duals alone (an auction's prices; on square matrices first lowered
// by label correcting until the start's pairs can all be tight): the repair
// after the CPU and GPU auctions. Source: Duff and Koster 2001 (the
// searches); difference constraints by Bellman-Ford with a queue.
// Guarantee: exact, as the cold start. Cost: O(nnz) besides the searches
// (see shortest_augmenting.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "lib/error.hpp"
#include "lib/prefetch.hpp"
#include "matchers/bipartite/shortest_augmenting.hpp"
#include "matchers/bipartite/shortest_augmenting_detail.hpp"

namespace matchblas {
namespace shortest_augmenting_detail {

// Whether a reduced cost c_ij - u_i - v_j computed from fresh duals is 0:
// within 64 ulps of the terms it is computed from.
bool within_rounding(double reduced, double c, double u, double v) {
  const double terms = std::fabs(c) + std::fabs(u) + std::fabs(v);
  return std::fabs(reduced) <= 64 * std::numeric_limits<double>::epsilon() * terms;
}

// How far from 0 the reduced costs of a warm start may be: duals that went
// through many searches (the engine's own, say) carry rounding relative to
// the largest magnitudes involved, not to an entry's own terms; 1e-12 of
// the largest |c|, |u| and |v| together.
double start_tolerance(const Csr<double>& c, const DualMatching& d) {
  double largest_c = 0, largest_u = 0, largest_v = 0;
  for (double x : c.weights) largest_c = std::max(largest_c, std::fabs(x));
  for (double x : d.u) largest_u = std::max(largest_u, std::fabs(x));
  for (double x : d.v) largest_v = std::max(largest_v, std::fabs(x));
  return 1e-12 * (largest_c + largest_u + largest_v);
}

std::string number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

// The smallest cost among row i's entries in column j (the entry a pair
// (i, j) stands for); inf when (i, j) is not an entry.
double pair_cost(const Csr<double>& c, vertex_t i, vertex_t j) {
  double best = inf;
  for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k)
    if (c.cols[k] == j) best = std::min(best, c.weights[k]);
  return best;
}

// Throws invalid_input unless mates is a matching of c: sizes, row_mate and
// col_mate the inverse of each other, every pair an entry. Sets matched.
void check_mates(const Csr<double>& c, BipartiteMates& mates, const char* who) {
  const vertex_t m = c.n_rows, n = c.n_cols;
  if (mates.row_mate.size() != std::size_t(m) || mates.col_mate.size() != std::size_t(n))
    throw invalid_input(std::string(who) + ": the start's mates have " + std::to_string(mates.row_mate.size()) +
                        " rows and " + std::to_string(mates.col_mate.size()) + " columns, the matrix " +
                        std::to_string(m) + " x " + std::to_string(n));
  mates.matched = 0;
  for (vertex_t i = 0; i < m; ++i) {
    const vertex_t j = mates.row_mate[i];
    if (j < 0) continue;
    if (j >= n || mates.col_mate[j] != i || pair_cost(c, i, j) == inf)
      throw invalid_input(std::string(who) + ": the start matches row " + std::to_string(i) + " to column " +
                          std::to_string(j) + ", which is not an entry or not matched back to it");
    ++mates.matched;
  }
  for (vertex_t j = 0; j < n; ++j) {
    const vertex_t i = mates.col_mate[j];
    if (i >= 0 && (i >= m || mates.row_mate[i] != j))
      throw invalid_input(std::string(who) + ": the start matches column " + std::to_string(j) + " to row " +
                          std::to_string(i) + ", which is not matched back to it");
  }
}

// The searches from a valid start (feasible duals, tight pairs): the warm
// starts' common end.
DualMatching augment_from(const Csr<double>& c, DualMatching start) {
  start.searches = 0;
  start.cost = 0;
  vertex_t row = -1;
  if (!augment_free_rows(c, start, row))
    throw invalid_input("bipartite: row " + std::to_string(row) +
                        " cannot be matched (the matrix does not have full row rank)");
  return start;
}

// Square matrices: lowers column duals so that the start's pairs can all
// be tight at once (the repair then keeps them). A matched row i at column
// j has u_i = c_ij - v_j; each entry (i, k) needs v_k <= c_ik - u_i. These
// are difference constraints, v_k - v_j <= c_ik - c_ij, solved by
// label correcting (Bellman-Ford with a queue of rows whose u rose) from
// the given v downwards: an auction's epsilon-optimal prices break them by
// at most epsilon each, so few rows are visited. A cycle of the constraints
// with a negative sum means the matching is not optimal: a column lowered
// more than `relax_cap` times frees its row, which cuts every such cycle
// through it (a free column constrains nothing); the searches then mend
// those rows. Returns the rows freed. O(nnz) a pass over the queue.
vertex_t lower_column_duals(const Csr<double>& c, std::vector<double>& v, BipartiteMates& mates) {
  // 64, not 16: at 16 the Jacobi start on stencil2d:1000 lost 1,004 pairs
  // that only needed more steps (none at 64), and its searches took 1.54-1.61
  // s against 1.29 s; heavy:300000's job 4 1.42-1.46 against 1.26-1.34 s.
  constexpr int relax_cap = 64;
  const vertex_t m = c.n_rows;
  std::vector<double> pair(m, inf);  // c_ij of row i's pair
  std::vector<vertex_t> queue;
  std::vector<char> queued(m, 0);
  std::vector<int> lowered(c.n_cols, 0);
  queue.reserve(m);
  for (vertex_t i = 0; i < m; ++i)
    if (mates.row_mate[i] >= 0) {
      pair[i] = pair_cost(c, i, mates.row_mate[i]);
      queue.push_back(i);
      queued[i] = 1;
    }
  vertex_t freed = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const vertex_t i = queue[head];
    queued[i] = 0;
    const std::size_t left = queue.size() - head;  // this row and those after it
    prefetch_rows_ahead(c, v.data(), left > 1 ? queue[head + 1] : -1, left > 2 ? queue[head + 2] : -1,
                        left > 4 ? queue[head + 4] : -1);
    const vertex_t j = mates.row_mate[i];
    if (j < 0) continue;
    const double u = pair[i] - v[j];
    for (offset_t e = c.offsets[i]; e < c.offsets[i + 1]; ++e) {
      const vertex_t k = c.cols[e];
      const double reduced = c.weights[e] - u - v[k];
      if (k == j || reduced >= 0 || within_rounding(reduced, c.weights[e], u, v[k])) continue;
      v[k] = c.weights[e] - u;
      const vertex_t owner = mates.col_mate[k];
      if (owner < 0) continue;
      if (++lowered[k] > relax_cap) {
        mates.row_mate[owner] = mates.col_mate[k] = -1;
        --mates.matched;
        ++freed;
      } else if (!queued[owner]) {
        queued[owner] = 1;
        queue.push_back(owner);
      }
    }
    // The queue only grows by rows whose u rose; compact it now and then.
    if (head > std::size_t(m) && head * 2 > queue.size()) {
      queue.erase(queue.begin(), queue.begin() + std::ptrdiff_t(head) + 1);
      head = std::size_t(-1);
    }
  }
  return freed;
}

}  // namespace shortest_augmenting_detail

using namespace shortest_augmenting_detail;

DualMatching min_cost_row_perfect(const Csr<double>& c, DualMatching start) {
  constexpr const char* who = "bipartite warm start";
  check_costs(c);
  const vertex_t m = c.n_rows, n = c.n_cols;
  if (m > n)
    throw invalid_input("bipartite: " + std::to_string(m) + " rows cannot all be matched to " + std::to_string(n) +
                        " columns");
  check_mates(c, start.mates, who);
  if (start.u.size() != std::size_t(m) || start.v.size() != std::size_t(n))
    throw invalid_input(std::string(who) + ": " + std::to_string(start.u.size()) + " row duals and " +
                        std::to_string(start.v.size()) + " column duals for a " + std::to_string(m) + " x " +
                        std::to_string(n) + " matrix");
  for (vertex_t i = 0; i < m; ++i)
    if (!std::isfinite(start.u[i]))
      throw invalid_input(std::string(who) + ": the dual of row " + std::to_string(i) + " is not finite");
  for (vertex_t j = 0; j < n; ++j) {
    const double vj = start.v[j];
    if (!std::isfinite(vj))
      throw invalid_input(std::string(who) + ": the dual of column " + std::to_string(j) + " is not finite");
    // With more columns than rows some stay free: their duals must be 0
    // and the others' <= 0 (a free column's dual ends the search's path).
    if (m < n && (vj > 0 || (start.mates.col_mate[j] < 0 && vj != 0)))
      throw invalid_input(std::string(who) + ": column " + std::to_string(j) + " has dual " + number(vj) +
                          (vj > 0 ? " > 0" : " != 0 while free") + " (with more columns than rows a column's dual "
                          "must be <= 0, and 0 while free)");
  }
  const double tol = start_tolerance(c, start);
  for (vertex_t i = 0; i < m; ++i)
    for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k) {
      const vertex_t j = c.cols[k];
      const double reduced = c.weights[k] - start.u[i] - start.v[j];
      if (reduced < -tol)
        throw invalid_input(std::string(who) + ": the duals are not feasible: the entry at row " +
                            std::to_string(i) + ", column " + std::to_string(j) + " has reduced cost " +
                            number(reduced) + " < 0");
    }
  for (vertex_t i = 0; i < m; ++i) {
    const vertex_t j = start.mates.row_mate[i];
    if (j < 0) continue;
    const double reduced = pair_cost(c, i, j) - start.u[i] - start.v[j];
    if (std::fabs(reduced) > tol)
      throw invalid_input(std::string(who) + ": row " + std::to_string(i) + " is matched to column " +
                          std::to_string(j) + ", whose reduced cost " + number(reduced) + " is not 0");
  }
  return augment_from(c, std::move(start));
}

bool augment_free_rows_unchecked(const Csr<double>& c, DualMatching& start) {
  start.searches = 0;
  start.cost = 0;
  vertex_t row = -1;
  return augment_free_rows(c, start, row, true);
}

DualMatching min_cost_row_perfect_from_column_duals(const Csr<double>& c, std::vector<double> v,
                                                    BipartiteMates start, bool lower_first) {
  constexpr const char* who = "bipartite warm start";
  check_costs(c);
  const vertex_t m = c.n_rows, n = c.n_cols;
  if (m > n)
    throw invalid_input("bipartite: " + std::to_string(m) + " rows cannot all be matched to " + std::to_string(n) +
                        " columns");
  check_mates(c, start, who);
  if (v.size() != std::size_t(n))
    throw invalid_input(std::string(who) + ": " + std::to_string(v.size()) + " column duals for " +
                        std::to_string(n) + " columns");
  for (vertex_t j = 0; j < n; ++j)
    if (!std::isfinite(v[j]))
      throw invalid_input(std::string(who) + ": the dual of column " + std::to_string(j) + " is not finite");
  // With more columns than rows: every dual <= 0 (a shift by a constant
  // changes no reduced cost of a row-perfect matching), 0 on free columns.
  if (m < n && n > 0) {
    const double top = *std::max_element(v.begin(), v.end());
    for (double& x : v) x = std::min(0.0, x - top);
  }
  DualMatching r;
  r.mates = std::move(start);
  r.u.assign(m, 0);
  auto row_duals = [&] { row_minima(c, v, r.u, 0); };  // u_i = min_j (c_ij - v_j): every reduced cost >= 0
  auto free_columns_to_zero = [&] {
    if (m < n)
      for (vertex_t j = 0; j < n; ++j)
        if (r.mates.col_mate[j] < 0) v[j] = 0;
  };
  free_columns_to_zero();
  if (m == n && lower_first) lower_column_duals(c, v, r.mates);
  row_duals();
  // v_j = min_i (c_ij - u_i) (>= the v_j above, so u stays the rows'
  // minimum): a matched entry is tight when its row attains its column's
  // minimum.
  std::vector<double> col_min(n, inf);
  lower_to_column_minima(c, r.u, col_min);
  for (vertex_t j = 0; j < n; ++j)
    if (col_min[j] != inf) v[j] = m < n ? std::min(0.0, col_min[j]) : col_min[j];
  // Free the pairs that are not tight; with more columns than rows a freed
  // column's dual goes to 0, which may lower row duals and loosen more pairs.
  for (bool changed = true; changed;) {
    vertex_t loose = 0;
#pragma omp parallel for schedule(static) reduction(+ : loose) if (in_parallel(c))
    for (vertex_t i = 0; i < m; ++i) {
      const vertex_t j = r.mates.row_mate[i];
      if (j < 0) continue;
      const double cij = pair_cost(c, i, j);
      if (!within_rounding(cij - r.u[i] - v[j], cij, r.u[i], v[j])) {
        r.mates.row_mate[i] = r.mates.col_mate[j] = -1;
        ++loose;
      }
    }
    r.mates.matched -= loose;
    changed = m < n && loose > 0;
    if (changed) {
      free_columns_to_zero();
      row_duals();
    }
  }
  r.v = std::move(v);
  // Valid by construction (feasible: row and column minima; the pairs kept
  // tight), so the searches start without min_cost_row_perfect's checks.
  return augment_from(c, std::move(r));
}

}  // namespace matchblas
