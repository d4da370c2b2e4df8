// Minimum-cost row-perfect matching by shortest augmenting paths with duals
// (MC64's initialisation, then a Dijkstra search from every free row), and
// its extension to any rank through the coarse Dulmage-Mendelsohn blocks.
// Source: Duff and Koster, SIAM J. Matrix Anal. Appl. 22(4), 2001, sec. 4.
// Guarantee: exact. Cost: O(m (nnz + n) log n) worst case, far less in
// practice (see shortest_augmenting.hpp). The warm starts are in
// shortest_augmenting_warm.cpp, canonical_duals in
// shortest_augmenting_canonical.cpp.
#include "matchers/bipartite/shortest_augmenting.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "lib/error.hpp"
#include "lib/interrupt.hpp"
#include "lib/prefetch.hpp"
#include "matchers/bipartite/dm_blocks.hpp"
#include "matchers/bipartite/shortest_augmenting_detail.hpp"
#include "ops/transpose.hpp"

namespace matchblas {
namespace shortest_augmenting_detail {

// col_min[j] = min(col_min[j], c_ij - row[i]) over every entry.
void lower_to_column_minima(const Csr<double>& c, const std::vector<double>& row, std::vector<double>& col_min) {
  if (!in_parallel(c)) {
    for (vertex_t i = 0; i < c.n_rows; ++i)
      for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k)
        col_min[c.cols[k]] = std::min(col_min[c.cols[k]], c.weights[k] - row[i]);
    return;
  }
#pragma omp parallel for schedule(static)
  for (vertex_t i = 0; i < c.n_rows; ++i)
    for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k) atomic_lower(col_min[c.cols[k]], c.weights[k] - row[i]);
}

// row_min[i] = min_j (c_ij - col[j]) (`empty` for a row without entries).
void row_minima(const Csr<double>& c, const std::vector<double>& col, std::vector<double>& row_min, double empty) {
#pragma omp parallel for schedule(static) if (in_parallel(c))
  for (vertex_t i = 0; i < c.n_rows; ++i) {
    double best = inf;
    for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k) best = std::min(best, c.weights[k] - col[c.cols[k]]);
    row_min[i] = best == inf ? empty : best;
  }
}

void check_costs(const Csr<double>& c) {
  check_bipartite_csr(c);
  for (std::size_t k = 0; k < c.weights.size(); ++k)
    if (!std::isfinite(c.weights[k]))
      throw invalid_input("bipartite: cost of entry " + std::to_string(k) + " is not finite");
}

// MC64's start: row minima, then column minima of what is left (square
// matrices), then the rows' minima of the reduced costs; tight columns
// taken greedily, with a one-step reassignment of a tight column's
// row to another free tight column (cursor[k] never revisits an entry: tight
// stays tight and matched stays matched while the duals are fixed).
bool initialise(const Csr<double>& c, DualMatching& r, vertex_t max_free) {
  const vertex_t m = c.n_rows, n = c.n_cols;
  auto& u = r.u;
  auto& v = r.v;
  auto& rm = r.mates.row_mate;
  auto& cm = r.mates.col_mate;
  // With more columns than rows, a column may stay free, so its dual must
  // stay <= 0 (0 while free): start from v = 0 there.
  v.assign(n, m == n ? inf : 0.0);
  u.assign(m, 0);
  if (m == n) {
    // Rows first (each row's smallest cost), then the columns' minima of
    // what is left: a column's dual then picks the row in which its entry is
    // relatively best, not the row with the largest entry overall, which
    // leaves far fewer rows for the searches (MC64 does the same, its costs
    // being normalised per column of its own orientation).
    row_minima(c, std::vector<double>(n, 0.0), u, 0);
    lower_to_column_minima(c, u, v);
    for (double& x : v)
      if (x == inf) x = 0;  // an empty column
  }
  row_minima(c, v, u, inf);
  rm.assign(m, -1);
  cm.assign(n, -1);
  std::vector<offset_t> cursor(c.offsets.begin(), c.offsets.end() - 1);
  auto tight = [&](vertex_t i, offset_t k) { return c.weights[k] - u[i] - v[c.cols[k]] <= 0; };
  vertex_t left_free = 0;
  for (vertex_t i = 0; i < m; ++i) {
    if (left_free > max_free) return false;
    for (offset_t k = c.offsets[i]; k < c.offsets[i + 1] && rm[i] < 0; ++k)
      if (tight(i, k) && cm[c.cols[k]] < 0) {
        rm[i] = c.cols[k];
        cm[c.cols[k]] = i;
      }
    for (offset_t k = c.offsets[i]; k < c.offsets[i + 1] && rm[i] < 0; ++k) {
      if (!tight(i, k)) continue;
      const vertex_t j = c.cols[k], other = cm[j];
      for (offset_t& q = cursor[other]; q < c.offsets[other + 1]; ++q) {
        const vertex_t j2 = c.cols[q];
        if (cm[j2] < 0 && tight(other, q)) {
          rm[other] = j2;
          cm[j2] = other;
          rm[i] = j;
          cm[j] = i;
          ++q;
          break;
        }
      }
    }
    left_free += rm[i] < 0;
  }
  return left_free <= max_free;
}

// The searches of min_cost_row_perfect on checked costs (m <= n), from
// feasible duals r.u, r.v and a matching r.mates on tight entries (the
// initialisation's, or a warm start's): one search from every free row.
// False when a row has no augmenting path (the matrix has no row-perfect
// matching; row_out names the first): the searches stop there, or go on
// with skip_unmatchable (shortest_augmenting_detail.hpp).
bool augment_free_rows(const Csr<double>& c, DualMatching& r, vertex_t& row_out, bool skip_unmatchable) {
  row_out = -1;
  const vertex_t m = c.n_rows, n = c.n_cols;
  // Several searches at a time where there are threads and enough free rows
  // (the same result); the rest, or all, one at a time here.
  std::vector<vertex_t> dead;  // columns the parallel rounds found to lead nowhere
  const vertex_t first = parallel_searches(c, r, row_out, skip_unmatchable, dead);
  auto& u = r.u;
  auto& rm = r.mates.row_mate;
  // What a relaxation reads of a column (distance and dual: 16 bytes, four
  // to a cache line), apart from what only an update touches.
  struct alignas(16) Column {
    double dist;
    double v;  // the dual
  };
  struct Columns {
    Column* a;
    double& dist(vertex_t j) { return a[j].dist; }
    double v(vertex_t j) const { return a[j].v; }
    void prefetch(vertex_t j) const { matchblas::prefetch(a + j); }
  };
  std::vector<Column> col;
  std::vector<vertex_t> mate, pred;  // the column's row (-1: free); the row it was reached from
  if (first < m && !(row_out >= 0 && !skip_unmatchable)) {
    col.resize(n);
    for (vertex_t j = 0; j < n; ++j) col[j] = {inf, r.v[j]};
    for (vertex_t j : dead) col[j].dist = -inf;
    mate = r.mates.col_mate;
    pred.assign(n, -1);
    Columns columns{col.data()};
    SearchLists l;
    ColumnHeap heap(n);
    for (vertex_t s = first; s < m; ++s) {
      if (rm[s] >= 0) continue;
      check_interrupt();
      ++r.searches;
      const auto [best, best_col] = shortest_path_search(c, u.data(), mate.data(), s, columns, pred.data(), heap, l);
      if (best_col < 0) {  // no augmenting path from s
        if (row_out < 0) row_out = s;
        if (!skip_unmatchable) break;
        // Every column the search reached (all it could: best stayed inf)
        // leads to no free column, now or after later augmentations, which
        // never pass through them: dead, at distance -inf, which turns every
        // later relaxation away. So the failed searches together scan each
        // entry at most once.
        for (vertex_t j : l.touched) col[j].dist = -inf;
        l.touched.clear();
        l.settled.clear();
        continue;
      }
      // Duals: settled columns and their rows move by their distance to the
      // free column; the search's row by all of it.
      for (vertex_t j : l.settled) {
        col[j].v += col[j].dist - best;
        u[mate[j]] += best - col[j].dist;
      }
      u[s] += best;
      // Flip the path.
      for (vertex_t j = best_col;;) {
        const vertex_t i = pred[j], next = rm[i];
        rm[i] = j;
        mate[j] = i;
        if (i == s) break;
        j = next;
      }
      for (vertex_t j : l.touched) col[j].dist = inf;
      l.touched.clear();
      l.settled.clear();
    }
    for (vertex_t j = 0; j < n; ++j) r.v[j] = col[j].v;
    r.mates.col_mate = std::move(mate);
  }
  set_matched_cost(c, r);
  return r.mates.matched == m;
}

void set_matched_cost(const Csr<double>& c, DualMatching& d) {
  // The pairs' entries found on the threads, their costs summed in row
  // order (the same bits at any thread count).
  const std::vector<vertex_t>& rm = d.mates.row_mate;
  const vertex_t m = c.n_rows;
  std::vector<offset_t> pair(std::size_t(m), -1);  // row i's entry in its mate's column, -1 for none
#pragma omp parallel for schedule(static) if (m >= (1 << 16))
  for (vertex_t i = 0; i < m; ++i)
    for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k)
      if (c.cols[k] == rm[i]) {
        pair[i] = k;
        break;
      }
  d.mates.matched = 0;
  d.cost = 0;
  for (vertex_t i = 0; i < m; ++i)
    if (pair[i] >= 0) {
      d.cost += c.weights[pair[i]];
      ++d.mates.matched;
    }
}

// The cold start: MC64's initialisation, then the searches.
bool match_every_row(const Csr<double>& c, DualMatching& r, vertex_t& row_out) {
  for (vertex_t i = 0; i < c.n_rows; ++i)
    if (c.offsets[i] == c.offsets[i + 1]) {
      row_out = i;
      return false;
    }
  initialise(c, r);
  return augment_free_rows(c, r, row_out);
}

}  // namespace shortest_augmenting_detail

using namespace shortest_augmenting_detail;

std::optional<DualMatching> min_cost_row_perfect_if_start_near(const Csr<double>& c, vertex_t max_free) {
  if (c.n_rows != c.n_cols || max_free < 0) return std::nullopt;
  for (vertex_t i = 0; i < c.n_rows; ++i)
    if (c.offsets[i] == c.offsets[i + 1]) return std::nullopt;
  DualMatching r;
  if (!initialise(c, r, max_free)) return std::nullopt;
  vertex_t row = -1;
  if (!augment_free_rows(c, r, row)) return std::nullopt;  // structurally singular
  return r;
}

DualMatching min_cost_row_perfect(const Csr<double>& c) {
  check_costs(c);
  if (c.n_rows > c.n_cols)
    throw invalid_input("bipartite: " + std::to_string(c.n_rows) + " rows cannot all be matched to " +
                        std::to_string(c.n_cols) + " columns");
  DualMatching r;
  vertex_t row = -1;
  if (!match_every_row(c, r, row))
    throw invalid_input("bipartite: row " + std::to_string(row) +
                        " cannot be matched (the matrix does not have full row rank)");
  return r;
}

namespace {

DualMatching transposed(DualMatching t) {
  DualMatching r;
  r.mates.row_mate = std::move(t.mates.col_mate);
  r.mates.col_mate = std::move(t.mates.row_mate);
  r.mates.matched = t.mates.matched;
  r.u = std::move(t.v);
  r.v = std::move(t.u);
  r.cost = t.cost;
  r.searches = t.searches;
  return r;
}

}  // namespace

DualMatching min_cost_max_cardinality(const Csr<double>& c) {
  check_costs(c);
  const vertex_t m = c.n_rows, n = c.n_cols;
  // Most matrices have a matching of every row (or column): try that first,
  // which needs no separate maximum matching.
  vertex_t unmatched = -1;
  if (m <= n) {
    DualMatching r;
    if (match_every_row(c, r, unmatched)) return r;
  }
  const Csr<double> t = ops::transpose(c, ops::Backend::plain);
  if (m > n) {
    DualMatching r;
    if (match_every_row(t, r, unmatched)) return transposed(std::move(r));
  }
  const BipartiteMates mc = max_cardinality_bipartite(c);

  // Every maximum matching keeps to the coarse Dulmage-Mendelsohn blocks.
  const DmBlocks d = coarse_dm_blocks(c, t, mc);
  DualMatching r;
  r.mates.row_mate.assign(m, -1);
  r.mates.col_mate.assign(n, -1);
  r.u.assign(m, 0);
  r.v.assign(n, 0);
  for (int b = DmBlocks::horizontal; b <= DmBlocks::vertical; ++b) {
    if (d.rows[b].empty() || d.cols[b].empty()) continue;
    const bool more_rows = b == DmBlocks::vertical;  // match every column: transposed
    DualMatching s = min_cost_row_perfect(dm_block(more_rows ? t : c, d, b, more_rows));
    if (more_rows) s = transposed(std::move(s));
    for (std::size_t i = 0; i < d.rows[b].size(); ++i) r.u[d.rows[b][i]] = s.u[i];
    for (std::size_t j = 0; j < d.cols[b].size(); ++j) r.v[d.cols[b][j]] = s.v[j];
    add_dm_block(r.mates, s.mates, d, b);
    r.cost += s.cost;
    r.searches += s.searches;
  }
  if (r.mates.matched != mc.matched)
    throw std::logic_error("min_cost_max_cardinality: the blocks matched " + std::to_string(r.mates.matched) +
                           " of a maximum of " + std::to_string(mc.matched));

  // Entries between blocks lie above the block diagonal (horizontal rows to
  // square and vertical columns, square rows to vertical columns). Shifting a
  // block's row duals up by a_b and its column duals down by a_b keeps its own
  // reduced costs; a_square and a_vertical are raised until the entries
  // between blocks are non-negative too.
  double need[3][3] = {};
  for (vertex_t i = 0; i < m; ++i)
    for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k) {
      const vertex_t j = c.cols[k];
      const int x = d.row_block[i], y = d.col_block[j];
      if (x == y) continue;
      if (x > y) throw std::logic_error("min_cost_max_cardinality: an entry below the block diagonal");
      need[x][y] = std::max(need[x][y], -(c.weights[k] - r.u[i] - r.v[j]));
    }
  constexpr int h = DmBlocks::horizontal, sq = DmBlocks::square, ve = DmBlocks::vertical;
  double shift[3] = {0, 0, 0};
  shift[sq] = need[h][sq];
  shift[ve] = std::max({0.0, need[h][ve], shift[sq] + need[sq][ve]});
  for (vertex_t i = 0; i < m; ++i) r.u[i] += shift[d.row_block[i]];
  for (vertex_t j = 0; j < n; ++j) r.v[j] -= shift[d.col_block[j]];
  return r;
}

}  // namespace matchblas
