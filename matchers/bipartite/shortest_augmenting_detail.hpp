// Private to shortest_augmenting*.cpp: the helpers the engine's three files
// share (the O(nnz) passes, the column heap, the checks of a start and the
// searches from it). Not part of any interface.
#pragma once
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "lib/prefetch.hpp"
#include "matchers/bipartite/shortest_augmenting.hpp"

namespace matchblas::shortest_augmenting_detail {

constexpr double inf = std::numeric_limits<double>::infinity();

// The O(nnz) passes around the searches (minima, the canonical duals'
// first relaxation, tightness) run on OpenMP's threads above this many
// entries; each gives the same values on any number of threads (per-row
// work, or minima, which do not depend on the order).
constexpr offset_t parallel_entries = 1 << 16;
inline bool in_parallel(const Csr<double>& c) { return c.num_entries() >= parallel_entries && omp_get_max_threads() > 1; }

// x = min(x, y), atomically: threads lowering the same x keep the smallest.
// True when this call stored y.
inline bool atomic_lower(double& x, double y) {
  std::atomic_ref<double> r(x);
  double seen = r.load(std::memory_order_relaxed);
  while (y < seen)
    if (r.compare_exchange_weak(seen, y, std::memory_order_relaxed)) return true;
  return false;
}

// col_min[j] = min(col_min[j], c_ij - row[i]) over every entry.
void lower_to_column_minima(const Csr<double>& c, const std::vector<double>& row, std::vector<double>& col_min);

// d.cost and d.mates.matched from d.mates.row_mate: the sum of the matched
// entries' costs (the first entry of a row in its mate's column).
void set_matched_cost(const Csr<double>& c, DualMatching& d);

// row_min[i] = min_j (c_ij - col[j]) (`empty` for a row without entries).
void row_minima(const Csr<double>& c, const std::vector<double>& col, std::vector<double>& row_min, double empty);

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

// What a search fills: the columns it gave a distance (touched), those
// whose distance became final (settled), and the columns at the current
// smallest distance waiting to be scanned (ready, first in first out).
struct SearchLists {
  std::vector<vertex_t> touched, settled, ready;
};

// One Dijkstra search from the free row s over the reduced costs
// max(0, c_ij - u_i - v_j) to the nearest free column (mate[j] < 0):
// (its distance, the column), or (inf, -1) when none can be reached; then
// l.settled holds the columns whose distance is final (below the result's),
// l.touched every column given a distance, pred[j] the row j was reached
// from. `col` holds this search's distances (col.dist(j): inf before the
// search, -inf for a column known to lead nowhere, which no relaxation
// passes) and the column duals (col.v(j)); the caller resets the distances
// of l.touched afterwards. Shared by the serial searches and the parallel
// rounds (shortest_augmenting_parallel.cpp), so both find the same paths.
//
// Columns at the current smallest distance wait in `ready` instead of the
// heap (MC64's Q2), first in first out: on tight entries a search then
// walks without heap operations, and the rows to be scanned next are known
// a few steps ahead, so their entries are fetched from memory while the
// current row is scanned (on matrices larger than the caches nearly every
// row scanned is a miss: the time of a search is that of its chain of
// misses, row -> its entries -> their columns, unless they overlap). A
// column whose distance is final is never relaxed again, because a
// relaxation only offers dist >= the current smallest, so `nd >= dist`
// turns it away without a per-search mark.
template <class Cols>
std::pair<double, vertex_t> shortest_path_search(const Csr<double>& c, const double* u, const vertex_t* mate,
                                                 vertex_t s, Cols& col, vertex_t* pred, ColumnHeap& heap,
                                                 SearchLists& l) {
  const offset_t* offsets = c.offsets.data();
  const vertex_t* cols = c.cols.data();
  const double* weights = c.weights.data();
  auto prefetch_row_start = [&](vertex_t i) {
    matchblas::prefetch(offsets + i);
    matchblas::prefetch(u + i);
  };
  auto prefetch_entries = [&](vertex_t i) {
    const offset_t k = offsets[i];
    matchblas::prefetch(cols + k);
    matchblas::prefetch(weights + k);
  };
  auto prefetch_columns = [&](vertex_t i) {
    for (offset_t k = offsets[i]; k < offsets[i + 1]; ++k) col.prefetch(cols[k]);
  };
  std::vector<vertex_t>& ready = l.ready;
  std::size_t head = 0;  // ready[head..] wait
  double best = inf, dmin = 0;
  vertex_t best_col = -1;
  auto relax = [&](vertex_t i, double base) {
    const double ui = u[i];
    const offset_t end = offsets[i + 1];
    for (offset_t k = offsets[i]; k < end; ++k) {
      const vertex_t j = cols[k];
      double& dist = col.dist(j);
      const double nd = base + std::max(0.0, weights[k] - ui - col.v(j));
      if (nd >= dist || nd >= best) continue;
      if (dist == inf) l.touched.push_back(j);
      dist = nd;
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
    if (col.dist(j) >= best) break;  // every ready column is as far
    // Two rows ahead: its entries; one row ahead: their columns (the heap's
    // top when no other column is ready: likely the next).
    if (head + 1 < ready.size()) prefetch_entries(mate[ready[head + 1]]);
    if (head < ready.size()) prefetch_columns(mate[ready[head]]);
    else if (!heap.empty()) prefetch_columns(mate[heap.top_id()]);
    l.settled.push_back(j);
    relax(mate[j], col.dist(j));
  }
  heap.clear();
  ready.clear();
  return {best, best_col};
}

// The searches of augment_free_rows from the free rows in order, several
// at a time on OpenMP's threads, with the same result as one at a time
// (the same paths in the same order: the same matching and duals, bit for
// bit): returns the first row it left to the serial searches (m when none),
// with `dead` the columns its failed searches found to lead nowhere.
vertex_t parallel_searches(const Csr<double>& c, DualMatching& r, vertex_t& row_out, bool skip_unmatchable,
                           std::vector<vertex_t>& dead);

// When parallel_searches runs rounds: with at least `threads` threads, a
// matrix of at least `entries` entries and `rows_per_thread` free rows a
// thread. On two threads the rounds lose: a search there costs about 1.4x
// a serial one (a column's distance and dual in two arrays, not one line)
// and a third of the searches run again (stencil2d:1000 from MC64's start,
// bench/RESULTS.md). Tests lower it to run the rounds on small inputs.
struct ParallelSearchGate {
  int threads = 4;
  offset_t entries = parallel_entries;
  int rows_per_thread = 8;
};
extern ParallelSearchGate parallel_search_gate;

// Throws invalid_input unless c is a bipartite Csr with finite costs.
void check_costs(const Csr<double>& c);

// The searches from feasible duals r.u, r.v and a matching r.mates on tight
// entries: one search from every free row, in row order. False when a row
// has no augmenting path (row_out names the first): the searches stop there
// (r then holds the matching so far, valid, the rows from row_out on free,
// its duals and cost), or with skip_unmatchable go on with the next rows
// (a row without an augmenting path has none after later augmentations
// either, so the matching is then of maximum cardinality; the columns its
// search reached are skipped from then on, so the failed searches cost
// O(nnz) together).
bool augment_free_rows(const Csr<double>& c, DualMatching& r, vertex_t& row_out, bool skip_unmatchable = false);

// MC64's initialisation: feasible duals (row minima, then column minima of
// what is left) and a matching on tight entries, greedy with one-step
// reassignments. The greedy pass stops once more than `max_free` rows are
// left free (the matching is then partial, the duals still feasible);
// returns whether at most max_free rows are left free.
bool initialise(const Csr<double>& c, DualMatching& r,
                vertex_t max_free = std::numeric_limits<vertex_t>::max());

// The cold start: MC64's initialisation, then the searches.
bool match_every_row(const Csr<double>& c, DualMatching& r, vertex_t& row_out);

// Whether a reduced cost c_ij - u_i - v_j computed from fresh duals is 0:
// within 64 ulps of the terms it is computed from.
bool within_rounding(double reduced, double c, double u, double v);

// canonical_duals' shortest-path problem: the greatest x with x_j <= x0[j]
// and x_j <= x_{M(i)} + max(0, c_ij - u_i - v_j) for every entry (i, j),
// M the perfect matching d.mates (square c, every col_mate >= 0), u and v
// its feasible duals d.u, d.v; x0 of n finite values.
// Each x_j is the smallest over paths of x0 plus the reduced costs added
// in path order, so the same bits however it is computed. O(nnz) plus
// about one relaxation a lowered column.
// On OpenMP's threads from parallel_entries on (threads > 1), its rounds
// of label correcting on them where large; `threads` > 0 forces that
// many, on any size, every round on them (the tests).
std::vector<double> greatest_column_shifts(const Csr<double>& c, const DualMatching& d, const std::vector<double>& x0,
                                           int threads = 0);

// Whether every reduced cost c_ij - u_i - v_j is >= 0 up to rounding: of
// its own terms (within_rounding) or of the duals' largest magnitudes (256
// ulps of max |u| + max |v|: an entry's terms can be far smaller than the
// values its duals were computed from). O(nnz), on the threads from
// parallel_entries on.
bool duals_feasible(const Csr<double>& c, const DualMatching& d);

// How far from 0 the reduced costs of a warm start may be: 1e-12 of the
// largest |c|, |u| and |v| together.
double start_tolerance(const Csr<double>& c, const DualMatching& d);

// x printed as "%.6g" (messages).
std::string number(double x);

// The smallest cost among row i's entries in column j (the entry a pair
// (i, j) stands for); inf when (i, j) is not an entry.
double pair_cost(const Csr<double>& c, vertex_t i, vertex_t j);

// Throws invalid_input unless mates is a matching of c: sizes, row_mate and
// col_mate the inverse of each other, every pair an entry. Sets matched.
void check_mates(const Csr<double>& c, BipartiteMates& mates, const char* who);

// The searches from a valid start (feasible duals, tight pairs): the warm
// starts' common end.
DualMatching augment_from(const Csr<double>& c, DualMatching start);

// Square matrices: lowers column duals so that the start's pairs can all
// be tight at once; returns the rows freed.
vertex_t lower_column_duals(const Csr<double>& c, std::vector<double>& v, BipartiteMates& mates);

}  // namespace matchblas::shortest_augmenting_detail
