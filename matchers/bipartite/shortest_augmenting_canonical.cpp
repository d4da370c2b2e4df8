// canonical_duals: the componentwise greatest column duals at or below
// MC64's first column duals v0 that keep a perfect matching tight (job 5's
// scalings, the same whatever optimal start gave the matching). A
// shortest-path problem over the reduced costs (>= 0) from every column at
// once, solved by label correcting in buckets of keys on OpenMP's threads
// (delta-stepping: Meyer and Sanders, J. Algorithms 2003): only the lowered
// columns are searched; the same bits on any number of threads.
// Guarantee: exact (depends on the matrix and the matching alone) up to
// rounding relative to the result's magnitudes: duals given far larger than
// the result (searches through job 5's stand-in cost of explicit zeros shift
// whole regions by it) lose digits in v + x, so such a result is computed
// again from itself (made feasible first, by lowering its columns, where it
// breaks a constraint beyond rounding). Cost: O(nnz) plus the columns'
// relaxations, about one each on the solver matrices (a column relaxed
// again when its key falls after its row was relaxed, within a bucket);
// twice that in the rare second pass.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <vector>

#include "lib/error.hpp"
#include "lib/prefetch.hpp"
#include "matchers/bipartite/shortest_augmenting.hpp"
#include "matchers/bipartite/shortest_augmenting_detail.hpp"

namespace matchblas {

using namespace shortest_augmenting_detail;

namespace {

// The relaxations after the first: label correcting on `threads` threads
// (one included), the pending columns (key below the key their row was
// last relaxed from) in buckets of keys a step wide (half a percent of the
// mean reduced cost), a window of n / 64 of them (at most 4096) from the
// smallest pending key, the last holding every key beyond. The current
// bucket's columns relax their rows in rounds on every thread until no
// key falls into it; then the next bucket with a column on any thread;
// past the window, the window moves. A key is lowered by compare-and-swap,
// and a column is relaxed by the thread that lowers its `relaxed_from` to
// its key. Every relaxation is monotone and never gives a key below the
// one it starts from, so the keys end at the greatest fixed point below
// the start whatever the order: the same bits on any number of threads,
// and as Dijkstra's. A round's columns are in one array, their rows and
// keys fetched ahead (Dijkstra's heap order cannot be): on 300k-1M-row
// matrices, one thread is 1.0-1.6x a bucketed Dijkstra's and two 1.8-2.6x.
void relax_in_buckets(const Csr<double>& c, const DualMatching& d, const std::vector<double>& x0,
                      std::vector<double>& key, int threads) {
  const vertex_t n = c.n_rows;
  const auto& cm = d.mates.col_mate;
  double reduced_sum = 0;  // its rounding depends on the threads: it sets the buckets, not the result
#pragma omp parallel for schedule(static) reduction(+ : reduced_sum) num_threads(threads)
  for (vertex_t i = 0; i < n; ++i)
    for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k)
      reduced_sum += std::max(0.0, c.weights[k] - d.u[i] - d.v[c.cols[k]]);
  const double step = 0.005 * reduced_sum / double(std::max<offset_t>(1, c.num_entries()));
  const std::size_t buckets =
      step > 0 && std::isfinite(step) ? std::clamp<std::size_t>(std::size_t(n) / 64, 1, 4096) : 1;
  const std::size_t beyond = buckets - 1;  // the window's last bucket: every key past it
  std::vector<double> relaxed_from = x0;   // the first relaxation was from x0
  std::vector<std::vector<std::vector<vertex_t>>> pile(threads, std::vector<std::vector<vertex_t>>(buckets));
  std::vector<std::vector<vertex_t>> near(threads), next(threads);
  std::vector<std::size_t> start(std::size_t(threads) + 1, 0);
  std::vector<vertex_t> round;  // the round's columns, then 16 of -1
  double base = 0, smallest = inf;
  std::size_t current = beyond, lowest = beyond;
  const auto load = [](const double& x) { return std::atomic_ref<const double>(x).load(std::memory_order_relaxed); };
  const auto bucket_of = [&](double x, std::size_t from) -> std::size_t {
    const double q = (x - base) / step;  // NaN or huge for keys near +-1.5e308: beyond
    if (!(q < double(beyond))) return beyond;
    return std::max(from, std::size_t(std::max(0.0, q)));
  };
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    std::vector<std::vector<vertex_t>>& mine = pile[t];
#pragma omp for schedule(static)
    for (vertex_t j = 0; j < n; ++j)
      if (key[j] < x0[j]) mine[beyond].push_back(j);
    for (;;) {
      if (current == beyond) {
        // The window moves to the smallest pending key beyond it.
#pragma omp barrier
#pragma omp single
        smallest = inf;
        std::vector<vertex_t>& far = mine[beyond];
        double my_smallest = inf;
        std::size_t kept = 0;
        for (vertex_t j : far)
          if (key[j] < relaxed_from[j]) {
            far[kept++] = j;
            my_smallest = std::min(my_smallest, key[j]);
          }
        far.resize(kept);
        atomic_lower(smallest, my_smallest);
#pragma omp barrier
        if (smallest == inf) break;
#pragma omp single
        {
          base = smallest;
          current = 0;
        }
        kept = 0;
        for (vertex_t j : far) {
          const std::size_t b = bucket_of(key[j], 0);
          if (b == beyond) far[kept++] = j;
          else mine[b].push_back(j);
        }
        far.resize(kept);
#pragma omp barrier
      }
      const std::size_t b = current;
      std::swap(near[t], mine[b]);
      for (;;) {
#pragma omp barrier
#pragma omp single
        {
          for (int s = 0; s < threads; ++s) start[s + 1] = start[s] + near[s].size();
          if (round.size() < start[threads] + 16) round.resize(start[threads] + 16);
          lowest = beyond;
        }
        const std::size_t total = start[threads];
        if (total == 0) break;
        std::copy(near[t].begin(), near[t].end(), round.begin() + std::ptrdiff_t(start[t]));
        if (t == 0) std::fill(round.begin() + std::ptrdiff_t(total), round.begin() + std::ptrdiff_t(total) + 16, -1);
#pragma omp barrier
#pragma omp for schedule(dynamic, 64)
        for (std::size_t q = 0; q < total; ++q) {
          const vertex_t eighth = round[q + 8], fourth = round[q + 4], second = round[q + 2], first = round[q + 1];
          if (eighth >= 0) {
            prefetch(cm.data() + eighth);
            prefetch(key.data() + eighth);
          }
          prefetch_rows_ahead(c, key.data(), first >= 0 ? cm[first] : -1, second >= 0 ? cm[second] : -1,
                              fourth >= 0 ? cm[fourth] : -1);
          const vertex_t j = round[q];
          const double from = load(key[j]);
          if (!atomic_lower(relaxed_from[j], from)) continue;  // relaxed from this key already
          const vertex_t i = cm[j];
          const double ui = d.u[i];
          for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k) {
            const vertex_t to = c.cols[k];
            const double nd = from + std::max(0.0, c.weights[k] - ui - d.v[to]);
            if (nd < load(key[to]) && atomic_lower(key[to], nd)) {
              const std::size_t to_bucket = bucket_of(nd, b);
              (to_bucket == b ? next[t] : mine[to_bucket]).push_back(to);
            }
          }
        }
        near[t].clear();
        std::swap(near[t], next[t]);
      }
      // The next bucket holding a column on any thread (beyond: the window moves).
      std::size_t my_next = beyond;
      for (std::size_t x = b + 1; x < beyond; ++x)
        if (!mine[x].empty()) {
          my_next = x;
          break;
        }
#pragma omp critical(matchblas_relax_in_buckets)
      lowest = std::min(lowest, my_next);
#pragma omp barrier
#pragma omp single
      current = lowest;
    }
  }
}

}  // namespace

std::vector<double> shortest_augmenting_detail::greatest_column_shifts(const Csr<double>& c, const DualMatching& d,
                                                                        const std::vector<double>& x0, int threads) {
  const vertex_t n = c.n_rows;
  const auto& rm = d.mates.row_mate;
  if (threads <= 0) threads = in_parallel(c) ? omp_get_max_threads() : 1;
  auto reduced = [&](vertex_t i, offset_t k) { return std::max(0.0, c.weights[k] - d.u[i] - d.v[c.cols[k]]); };
  // The first relaxation from every column (of its row, from x0): minima,
  // the same on any number of threads. Only the columns it lowers start
  // the search (the others have been relaxed from x0 already; the search
  // may still lower them).
  std::vector<double> key = x0;
  if (threads > 1) {
#pragma omp parallel for schedule(static) num_threads(threads)
    for (vertex_t i = 0; i < n; ++i)
      for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k)
        atomic_lower(key[c.cols[k]], x0[rm[i]] + reduced(i, k));
  } else {
    for (vertex_t i = 0; i < n; ++i)
      for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k)
        key[c.cols[k]] = std::min(key[c.cols[k]], x0[rm[i]] + reduced(i, k));
  }
  relax_in_buckets(c, d, x0, key, threads);
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
