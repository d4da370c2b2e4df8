// The shortest augmenting path searches from the free rows, several at a
// time, with the result of one at a time. A round runs the searches of the
// next B free rows at once, each on its thread's own distances, over the
// duals and matching as they were when the round began. Then the searches
// are taken in row order up to the first that gave a distance to a column
// an earlier search of the round changes (a column that search settled, its
// path's free column, or, when it failed, any column it reached): each one
// before it found the path the serial searches find after the earlier
// ones' augmentations, since what those change is nothing it used (a
// column it only looked at and turned away stays turned away: a settled
// column's dual only falls, which raises its reduced costs). Those augment,
// at once (their updates are disjoint); the rest run again next round.
// Source: the searches of Duff and Koster (SIAM J. Matrix Anal. Appl. 22(4),
// 2001, sec. 4), run speculatively and taken in order here (matchblas).
// Guarantee: the serial searches' matching, duals, search count and first
// row without a path, bit for bit, on any number of threads and any B.
// Cost: the serial searches' work at about 1.4x a search, plus the
// searches run again (those after each round's first conflict: about a
// third on stencil2d from MC64's start); B doubles while whole rounds
// commit and shrinks to twice what the last one took. The last searches
// are long and overlap (on stencil2d from MC64's start the last 1% of them
// scan two thirds of all the entries scanned), so after two rounds that
// took fewer than max(2, threads / 4) searches each, the serial searches
// take the rest. Interrupts are checked between rounds. Memory: 16 bytes
// a column per thread and 4 shared, and the lists of a round's searches
// (at most 64 a thread: the columns each reached, settled and its path).
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <vector>

#include "lib/interrupt.hpp"
#include "lib/omp_threads.hpp"
#include "lib/prefetch.hpp"
#include "matchers/bipartite/shortest_augmenting_detail.hpp"

namespace matchblas::shortest_augmenting_detail {

ParallelSearchGate parallel_search_gate;

namespace {

// A thread's own part of a search: its distances (the duals are shared).
struct Workspace {
  explicit Workspace(vertex_t n) : dist(std::size_t(n), inf), pred(std::size_t(n), -1), heap(n) {}
  std::vector<double> dist;
  std::vector<vertex_t> pred;
  ColumnHeap heap;
  SearchLists lists;
};

struct Columns {
  double* d;
  const double* v_;
  double& dist(vertex_t j) { return d[j]; }
  double v(vertex_t j) const { return v_[j]; }
  void prefetch(vertex_t j) const {
    matchblas::prefetch(d + j);
    matchblas::prefetch(v_ + j);
  }
};

// What a search found, kept until its turn to augment.
struct Found {
  double best = inf;
  vertex_t best_col = -1;
  std::vector<vertex_t> settled;     // columns whose distance became final, in order
  std::vector<double> settled_dist;  // their distances
  std::vector<vertex_t> path;        // (row, column) pairs from the free column back to the search's row
  std::vector<vertex_t> touched;     // every column it gave a distance to
  bool conflict = false;
};

// The first search of the round (its index) that changes column j, lowered
// to k.
void lower_writer(vertex_t& w, vertex_t k) {
  std::atomic_ref<vertex_t> r(w);
  vertex_t seen = r.load(std::memory_order_relaxed);
  while (k < seen && !r.compare_exchange_weak(seen, k, std::memory_order_relaxed)) {
  }
}

}  // namespace

vertex_t parallel_searches(const Csr<double>& c, DualMatching& r, vertex_t& row_out, bool skip_unmatchable,
                           std::vector<vertex_t>& dead) {
  const vertex_t m = c.n_rows, n = c.n_cols;
  const int team = std::min(omp_get_max_threads(), 64);
  if (omp_in_parallel() || team < parallel_search_gate.threads || c.num_entries() < parallel_search_gate.entries)
    return 0;
  // The rounds' updates are disjoint only when the mates are each other's
  // inverse (the checked starts are; awpm's own is too): else one at a time.
  std::vector<vertex_t> free_rows;
  for (vertex_t i = 0; i < m; ++i) {
    const vertex_t j = r.mates.row_mate[i];
    if (j < 0) free_rows.push_back(i);
    else if (j >= n || r.mates.col_mate[std::size_t(j)] != i) return 0;
  }
  for (vertex_t j = 0; j < n; ++j) {
    const vertex_t i = r.mates.col_mate[std::size_t(j)];
    if (i >= 0 && (i >= m || r.mates.row_mate[std::size_t(i)] != j)) return 0;
  }
  if (free_rows.size() < std::size_t(parallel_search_gate.rows_per_thread) * std::size_t(team)) return 0;
  auto& u = r.u;
  auto& v = r.v;
  auto& rm = r.mates.row_mate;
  auto& mate = r.mates.col_mate;
  constexpr vertex_t none = std::numeric_limits<vertex_t>::max();
  std::vector<Workspace> spaces;
  spaces.reserve(std::size_t(team));
  for (int t = 0; t < team; ++t) spaces.emplace_back(n);
  std::vector<vertex_t> writer(std::size_t(n), none);
  std::vector<Found> found;
  const std::size_t most = std::size_t(64) * std::size_t(team);
  std::size_t next = 0, batch = std::size_t(2) * std::size_t(team);
  int thin_rounds = 0;
  const auto writes = [](const Found& f, auto each) {
    if (f.best_col < 0) {  // its columns become dead
      for (vertex_t j : f.touched) each(j);
      return;
    }
    for (vertex_t j : f.settled) each(j);
    each(f.best_col);
  };
  AllocationGuard guard;  // the lists a search keeps
  while (next < free_rows.size()) {
    check_interrupt();
    const std::size_t size = std::min(batch, free_rows.size() - next);
    if (found.size() < size) found.resize(size);
    // 1. The searches, over the round's starting duals and matching.
#pragma omp parallel num_threads(team)
    {
      Workspace& w = spaces[std::size_t(omp_get_thread_num())];
      Columns columns{w.dist.data(), v.data()};
#pragma omp for schedule(dynamic, 1)
      for (std::size_t k = 0; k < size; ++k) guard.run([&] {
        const vertex_t s = free_rows[next + k];
        Found& f = found[k];
        const auto [best, best_col] =
            shortest_path_search(c, u.data(), mate.data(), s, columns, w.pred.data(), w.heap, w.lists);
        f.best = best;
        f.best_col = best_col;
        f.conflict = false;
        f.settled_dist.resize(w.lists.settled.size());
        for (std::size_t q = 0; q < w.lists.settled.size(); ++q)
          f.settled_dist[q] = w.dist[std::size_t(w.lists.settled[q])];
        f.path.clear();
        if (best_col >= 0)
          for (vertex_t j = best_col;;) {
            const vertex_t i = w.pred[std::size_t(j)];
            f.path.push_back(i);
            f.path.push_back(j);
            if (i == s) break;
            j = rm[std::size_t(i)];
          }
        for (vertex_t j : w.lists.touched) w.dist[std::size_t(j)] = inf;
        f.settled.swap(w.lists.settled);  // the lists move to f; f's old ones come back empty
        f.touched.swap(w.lists.touched);
        w.lists.settled.clear();
        w.lists.touched.clear();
      });
    }
    guard.rethrow();
    // 2. Each column's first changer in the round; 3. whether a search gave
    // a distance to a column an earlier one changes. What a search only
    // looked at and turned away stays turned away: the changes lower a
    // settled column's dual (its reduced costs rise), match a free column
    // the search did not take (its dual unchanged), or mark a column dead.
#pragma omp parallel for schedule(dynamic, 16) num_threads(team)
    for (std::size_t k = 0; k < size; ++k)
      writes(found[k], [&](vertex_t j) { lower_writer(writer[std::size_t(j)], vertex_t(k)); });
#pragma omp parallel for schedule(dynamic, 16) num_threads(team)
    for (std::size_t k = 1; k < size; ++k) {
      Found& f = found[k];
      f.conflict = std::any_of(f.touched.begin(), f.touched.end(),
                               [&](vertex_t j) { return writer[std::size_t(j)] < vertex_t(k); });
    }
    // 4. The searches before the first conflict (and up to the first failed
    // one, unless failed ones are skipped) take their turn: their updates
    // touch disjoint columns and rows (each changes only columns it gave a
    // distance to, which no earlier one changed), so they run at once.
    std::size_t committed = 0;
    bool stop = false;
    while (committed < size && !found[committed].conflict && !stop) {
      const Found& f = found[committed];
      ++committed;
      if (f.best_col >= 0) continue;
      const vertex_t s = free_rows[next + committed - 1];  // no augmenting path from s (see augment_free_rows)
      if (row_out < 0) row_out = s;
      if (!skip_unmatchable) {
        stop = true;
        --committed;  // its updates: none; counted below
        break;
      }
      for (vertex_t j : f.touched) {
        dead.push_back(j);
        for (Workspace& w : spaces) w.dist[std::size_t(j)] = -inf;
      }
    }
    r.searches += std::int64_t(committed) + (stop ? 1 : 0);
#pragma omp parallel for schedule(dynamic, 16) num_threads(team)
    for (std::size_t k = 0; k < committed; ++k) {
      const Found& f = found[k];
      if (f.best_col < 0) continue;
      const vertex_t s = free_rows[next + k];
      for (std::size_t q = 0; q < f.settled.size(); ++q) {
        const vertex_t j = f.settled[q];
        v[std::size_t(j)] += f.settled_dist[q] - f.best;
        u[std::size_t(mate[std::size_t(j)])] += f.best - f.settled_dist[q];
      }
      u[std::size_t(s)] += f.best;
      for (std::size_t q = 0; q < f.path.size(); q += 2) {
        const vertex_t i = f.path[q], j = f.path[q + 1];
        rm[std::size_t(i)] = j;
        mate[std::size_t(j)] = i;
      }
    }
    for (std::size_t k = 0; k < size; ++k) writes(found[k], [&](vertex_t j) { writer[std::size_t(j)] = none; });
    next += committed;
    if (stop) return m;
    thin_rounds = committed < std::max<std::size_t>(2, std::size_t(team) / 4) ? thin_rounds + 1 : 0;
    if (thin_rounds >= 2) break;
    batch = committed == size ? std::min(2 * batch, most) : std::max(std::size_t(team), 2 * committed);
  }
  return next < free_rows.size() ? free_rows[next] : m;
}

}  // namespace matchblas::shortest_augmenting_detail
