// Minimum-cost row-perfect matching by shortest augmenting paths with duals,
// and its extension to any rank through the coarse Dulmage-Mendelsohn blocks
// (see shortest_augmenting.hpp for sources, guarantee and cost).
#include "matchers/bipartite/shortest_augmenting.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "lib/error.hpp"
#include "lib/interrupt.hpp"
#include "matchers/bipartite/dm_blocks.hpp"
#include "ops/transpose.hpp"

namespace matchblas {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

// The O(nnz) passes around the searches (minima, the canonical duals'
// first relaxation, tightness) run on OpenMP's threads above this many
// entries; each gives the same values on any number of threads (per-row
// work, or minima, which do not depend on the order).
constexpr offset_t parallel_entries = 1 << 16;
bool in_parallel(const Csr<double>& c) { return c.num_entries() >= parallel_entries && omp_get_max_threads() > 1; }

// x = min(x, y), atomically: threads lowering the same x keep the smallest.
void atomic_lower(double& x, double y) {
  std::atomic_ref<double> r(x);
  double seen = r.load(std::memory_order_relaxed);
  while (y < seen && !r.compare_exchange_weak(seen, y, std::memory_order_relaxed)) {
  }
}

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

// An indexed binary min-heap of columns with their keys stored beside them
// (a sift compares keys in the heap's own array, not through the columns);
// a key is only ever lowered while its column is in the heap.
class ColumnHeap {
 public:
  explicit ColumnHeap(vertex_t n) : pos_(n, -1) {}
  bool empty() const { return heap_.empty(); }
  double top_key() const { return heap_.front().key; }
  vertex_t top_id() const { return heap_.front().id; }
  void push_or_decrease(vertex_t j, double key) {
    if (pos_[j] < 0) {
      pos_[j] = static_cast<vertex_t>(heap_.size());
      heap_.push_back({key, j});
    }
    up(pos_[j], {key, j});
  }
  vertex_t pop() {
    const vertex_t j = heap_.front().id;
    pos_[j] = -1;
    const Item last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) down(0, last);
    return j;
  }
  void remove(vertex_t j) {
    const vertex_t p = pos_[j];
    if (p < 0) return;
    pos_[j] = -1;
    const Item last = heap_.back();
    heap_.pop_back();
    if (last.id == j) return;
    up(p, last);
    down(pos_[last.id], last);
  }
  void clear() {
    for (const Item& x : heap_) pos_[x.id] = -1;
    heap_.clear();
  }

 private:
  struct Item {
    double key;
    vertex_t id;
  };
  void place(vertex_t p, Item x) {
    heap_[p] = x;
    pos_[x.id] = p;
  }
  void up(vertex_t p, Item x) {  // x moves to p or above it
    while (p > 0) {
      const vertex_t parent = (p - 1) / 2;
      if (heap_[parent].key <= x.key) break;
      place(p, heap_[parent]);
      p = parent;
    }
    place(p, x);
  }
  void down(vertex_t p, Item x) {  // x moves to p or below it
    const vertex_t size = static_cast<vertex_t>(heap_.size());
    for (;;) {
      vertex_t child = 2 * p + 1;
      if (child >= size) break;
      if (child + 1 < size && heap_[child + 1].key < heap_[child].key) ++child;
      if (heap_[child].key >= x.key) break;
      place(p, heap_[child]);
      p = child;
    }
    place(p, x);
  }
  std::vector<Item> heap_;
  std::vector<vertex_t> pos_;
};

void check_costs(const Csr<double>& c) {
  check_bipartite_csr(c);
  for (std::size_t k = 0; k < c.weights.size(); ++k)
    if (!std::isfinite(c.weights[k]))
      throw invalid_input("bipartite: cost of entry " + std::to_string(k) + " is not finite");
}

// MC64's start: column minima (square matrices), row minima of the reduced costs, tight
// columns taken greedily, with a one-step reassignment of a tight column's
// row to another free tight column (cursor[k] never revisits an entry: tight
// stays tight and matched stays matched while the duals are fixed).
void initialise(const Csr<double>& c, DualMatching& r) {
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
  for (vertex_t i = 0; i < m; ++i) {
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
  }
}

// The searches of min_cost_row_perfect on checked costs (m <= n), from
// feasible duals r.u, r.v and a matching r.mates on tight entries (the
// initialisation's, or a warm start's): one search from every free row.
// False, with r unfinished, as soon as a row has no augmenting path (the
// matrix has no row-perfect matching); row_out then names it.
bool augment_free_rows(const Csr<double>& c, DualMatching& r, vertex_t& row_out) {
  const vertex_t m = c.n_rows, n = c.n_cols;
  auto& u = r.u;
  auto& rm = r.mates.row_mate;
  const offset_t* offsets = c.offsets.data();
  const vertex_t* cols = c.cols.data();
  const double* weights = c.weights.data();
  // What a relaxation reads of a column (distance and dual: 16 bytes, four
  // to a cache line), apart from what only an update touches.
  struct alignas(16) Column {
    double dist;
    double v;  // the dual
  };
  std::vector<Column> col(n);
  for (vertex_t j = 0; j < n; ++j) col[j] = {inf, r.v[j]};
  std::vector<vertex_t> mate(r.mates.col_mate), pred(n, -1);  // the column's row (-1: free); the row it was reached from
  std::vector<vertex_t> touched, settled;
  // Columns at the current smallest distance wait in `ready` instead of the
  // heap (MC64's Q2), first in first out: on tight entries a search then
  // walks without heap operations, and the rows to be scanned next are
  // known a few steps ahead, so their entries are fetched from memory while
  // the current row is scanned (on matrices larger than the caches nearly
  // every row scanned is a miss: the time of a search is that of its chain
  // of misses, row -> its entries -> their columns, unless they overlap).
  // A column whose distance is final is never relaxed again, because a
  // relaxation only offers dist >= the current smallest, so `nd >= dist`
  // turns it away without a per-search mark.
  std::vector<vertex_t> ready;
  std::size_t head = 0;  // ready[head..] wait
  ColumnHeap heap(n);
  auto prefetch_row_start = [&](vertex_t i) {
    __builtin_prefetch(offsets + i);
    __builtin_prefetch(u.data() + i);
  };
  auto prefetch_entries = [&](vertex_t i) {
    const offset_t k = offsets[i];
    __builtin_prefetch(cols + k);
    __builtin_prefetch(weights + k);
  };
  auto prefetch_columns = [&](vertex_t i) {
    for (offset_t k = offsets[i]; k < offsets[i + 1]; ++k) __builtin_prefetch(col.data() + cols[k]);
  };
  for (vertex_t s = 0; s < m; ++s) {
    if (rm[s] >= 0) continue;
    check_interrupt();
    ++r.searches;
    double best = inf, dmin = 0;
    vertex_t best_col = -1;
    auto relax = [&](vertex_t i, double base) {
      const double ui = u[i];
      const offset_t end = offsets[i + 1];
      for (offset_t k = offsets[i]; k < end; ++k) {
        const vertex_t j = cols[k];
        Column& cj = col[j];
        const double nd = base + std::max(0.0, weights[k] - ui - cj.v);
        if (nd >= cj.dist || nd >= best) continue;
        if (cj.dist == inf) touched.push_back(j);
        cj.dist = nd;
        pred[j] = i;
        const vertex_t owner = mate[j];
        if (owner < 0) {
          best = nd;
          best_col = j;
          continue;
        }
        prefetch_row_start(owner);
        if (nd <= dmin) {
          heap.remove(j);
          ready.push_back(j);
        } else {
          heap.push_or_decrease(j, nd);
        }
      }
    };
    relax(s, 0);
    for (;;) {
      if (head == ready.size()) {
        ready.clear();
        head = 0;
        if (heap.empty() || heap.top_key() >= best) break;
        dmin = heap.top_key();
        while (!heap.empty() && heap.top_key() <= dmin) ready.push_back(heap.pop());
      }
      const vertex_t j = ready[head++];
      if (col[j].dist >= best) break;  // every ready column is as far
      // Two rows ahead: its entries; one row ahead: their columns (the
      // heap's top when no other column is ready: likely the next).
      if (head + 1 < ready.size()) prefetch_entries(mate[ready[head + 1]]);
      if (head < ready.size()) prefetch_columns(mate[ready[head]]);
      else if (!heap.empty()) prefetch_columns(mate[heap.top_id()]);
      settled.push_back(j);
      relax(mate[j], col[j].dist);
    }
    heap.clear();
    ready.clear();
    head = 0;
    if (best_col < 0) {
      row_out = s;
      return false;
    }
    // Duals: settled columns and their rows move by their distance to the
    // free column; the search's row by all of it.
    for (vertex_t j : settled) {
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
    for (vertex_t j : touched) col[j].dist = inf;
    touched.clear();
    settled.clear();
  }
  for (vertex_t j = 0; j < n; ++j) r.v[j] = col[j].v;
  r.mates.col_mate = std::move(mate);
  r.mates.matched = m;
  r.cost = 0;
  for (vertex_t i = 0; i < m; ++i)
    for (offset_t k = offsets[i]; k < offsets[i + 1]; ++k)
      if (cols[k] == rm[i]) {
        r.cost += weights[k];
        break;
      }
  return true;
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
  constexpr int relax_cap = 16;
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

}  // namespace

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
