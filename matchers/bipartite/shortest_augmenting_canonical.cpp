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
#include <functional>
#include <limits>
#include <vector>

#include "lib/error.hpp"
#include "lib/prefetch.hpp"
#include "matchers/bipartite/shortest_augmenting.hpp"
#include "matchers/bipartite/shortest_augmenting_detail.hpp"

namespace matchblas {

using namespace shortest_augmenting_detail;

namespace {

// The relaxations after the first: label correcting, the pending columns
// (key below the key their row was last relaxed from) in buckets of keys a
// step wide (0.4% of the median positive reduced cost, wider where the
// window must reach further), a window of n / 64 of them (at most 4096)
// from the smallest pending key, the last holding every key beyond. The
// current bucket's columns relax their rows in rounds until no key falls
// into it; then the next bucket holding a column; past the window, the
// window moves. A round of at least
// `team_round` columns runs on a team of `threads` (keys lowered by
// compare-and-swap; a column relaxed by the thread that lowers its
// `relaxed_from` to its key), a smaller one on the calling thread: a mesh's
// rounds are mostly a hundred columns or so, too few to pay for a team's
// start and barriers. Every relaxation is monotone and never gives a key
// below the one it starts from, so the keys end at the greatest fixed
// point below the start whatever the order: the same bits on any number of
// threads, and as Dijkstra's. A round's columns are in one array, their
// rows and keys fetched ahead (Dijkstra's heap order cannot be).
class BucketedRelaxation {
 public:
  BucketedRelaxation(const Csr<double>& c, const DualMatching& d, const std::vector<double>& x0,
                     std::vector<double>& key, int threads, std::size_t team_round)
      : c_(c), d_(d), key_(key), relaxed_from_(x0), threads_(threads), team_round_(team_round),
        lists_(std::size_t(threads)) {
    const vertex_t n = c.n_rows;
    // The columns the first relaxation lowered start the search; with none,
    // run() has nothing to do and the step is not needed.
    std::vector<vertex_t> pending;
    for (vertex_t j = 0; j < n; ++j)
      if (key[j] < x0[j]) pending.push_back(j);
    if (pending.empty()) {
      for (Lists& l : lists_) l.pile.resize(1);  // one bucket, beyond_ = 0, empty
      return;
    }
    // The step: 0.004 of the median positive reduced cost over the entries
    // of up to 8192 rows spread evenly, about 2^16 entries at most (the
    // median, not the mean: job 5's stand-in cost of explicit zeros made the
    // mean of a matrix with 0.1% of them 2000 times its usual value, every
    // key one bucket, and each column relaxed 200 times). The step sets the
    // buckets, not the result.
    std::vector<double> sample;
    const double mean_degree = std::max(1.0, double(c.num_entries()) / double(std::max<vertex_t>(n, 1)));
    const vertex_t rows = std::min<vertex_t>({n, 8192, std::max<vertex_t>(1, vertex_t(65536 / mean_degree))});
    for (vertex_t s = 0; s < rows; ++s) {
      const auto i = vertex_t(std::int64_t(s) * n / rows);
      for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k) {
        const double r = c.weights[k] - d.u[i] - d.v[c.cols[k]];
        if (r > 0) sample.push_back(r);
      }
    }
    if (!sample.empty()) {
      std::nth_element(sample.begin(), sample.begin() + std::ptrdiff_t(sample.size() / 2), sample.end());
      step_ = 0.004 * sample[sample.size() / 2];
    }
    buckets_ = step_ > 0 && std::isfinite(step_) ? std::clamp<std::size_t>(std::size_t(n) / 64, 1, 4096) : 1;
    fine_step_ = step_;
    beyond_ = buckets_ - 1;
    for (Lists& l : lists_) l.pile.resize(buckets_);
    lists_[0].pile[beyond_] = std::move(pending);
  }

  void run() {
    for (std::size_t b = beyond_;;) {
      if (b == beyond_ && !move_window()) return;
      b = current_ = b == beyond_ ? 0 : b;
      take_bucket(b);
      while (round_size_ > 0) {
        if (threads_ > 1 && round_size_ >= team_round_) {
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads_)
          for (std::size_t q = 0; q < round_size_; ++q) relax(q, lists_[std::size_t(omp_get_thread_num())]);
        } else {
          for (std::size_t q = 0; q < round_size_; ++q) relax(q, lists_[0]);
        }
        gather([](Lists& l) -> std::vector<vertex_t>& { return l.next; });
      }
      b = next_bucket(b);
    }
  }

 private:
  struct alignas(64) Lists {  // one thread's: no two threads' vectors share a cache line
    std::vector<std::vector<vertex_t>> pile;  // pending columns by bucket
    std::vector<vertex_t> next;               // lowered into the current bucket this round
  };

  std::size_t bucket_of(double x, std::size_t from) const {
    const double q = (x - base_) / step_;  // NaN or huge for keys near +-1.5e308: beyond
    if (!(q < double(beyond_))) return beyond_;
    return std::max(from, std::size_t(std::max(0.0, q)));
  }

  // The window to the smallest pending key beyond it, wide enough to take
  // an eighth of the pending columns beyond at least (else keys spread far
  // wider than the window would take a move, and a pass over all of them,
  // for each few columns: quadratic); false when none is pending.
  bool move_window() {
    double smallest = inf;
    keys_.clear();
    for (Lists& l : lists_) {
      std::vector<vertex_t>& far = l.pile[beyond_];
      std::size_t kept = 0;
      for (vertex_t j : far)
        if (key_[j] < relaxed_from_[j]) {
          far[kept++] = j;
          smallest = std::min(smallest, key_[j]);
          keys_.push_back(key_[j]);
        }
      far.resize(kept);
    }
    if (smallest == inf) return false;
    base_ = smallest;
    if (buckets_ > 1) {
      const auto eighth = keys_.begin() + std::ptrdiff_t(keys_.size() / 8);
      std::nth_element(keys_.begin(), eighth, keys_.end());
      step_ = std::max(fine_step_, (*eighth - smallest) / double(beyond_));  // inf: every key in the first bucket
    }
    for (Lists& l : lists_) {
      std::vector<vertex_t>& far = l.pile[beyond_];
      std::size_t kept = 0;
      for (vertex_t j : far) {
        const std::size_t b = bucket_of(key_[j], 0);
        if (b == beyond_) far[kept++] = j;
        else l.pile[b].push_back(j);
      }
      far.resize(kept);
    }
    return true;
  }

  // The next bucket after b holding a column (beyond_: none in the window).
  // Columns only ever join the current bucket or later ones.
  std::size_t next_bucket(std::size_t b) const {
    for (std::size_t x = b + 1; x < beyond_; ++x)
      for (const Lists& l : lists_)
        if (!l.pile[x].empty()) return x;
    return beyond_;
  }

  void take_bucket(std::size_t b) {
    gather([b](Lists& l) -> std::vector<vertex_t>& { return l.pile[b]; });
  }

  // The round: the lists `list` picks of every thread, emptied, then 16 of -1.
  template <class Pick>
  void gather(Pick list) {
    round_size_ = 0;
    for (Lists& l : lists_) round_size_ += list(l).size();
    round_.resize(round_size_ + 16);
    std::size_t at = 0;
    for (Lists& l : lists_) {
      std::vector<vertex_t>& from = list(l);
      std::copy(from.begin(), from.end(), round_.begin() + std::ptrdiff_t(at));
      at += from.size();
      from.clear();
    }
    std::fill(round_.begin() + std::ptrdiff_t(at), round_.end(), -1);
  }

  void relax(std::size_t q, Lists& mine) {
    const auto& cm = d_.mates.col_mate;
    const vertex_t eighth = round_[q + 8], fourth = round_[q + 4], second = round_[q + 2], first = round_[q + 1];
    if (eighth >= 0) {
      prefetch(cm.data() + eighth);
      prefetch(key_.data() + eighth);
    }
    prefetch_rows_ahead(c_, key_.data(), first >= 0 ? cm[first] : -1, second >= 0 ? cm[second] : -1,
                        fourth >= 0 ? cm[fourth] : -1);
    const vertex_t j = round_[q];
    const double from = load(key_[j]);
    if (!atomic_lower(relaxed_from_[j], from)) return;  // relaxed from this key already
    const vertex_t i = cm[j];
    const double ui = d_.u[i];
    for (offset_t k = c_.offsets[i]; k < c_.offsets[i + 1]; ++k) {
      const vertex_t to = c_.cols[k];
      const double nd = from + std::max(0.0, c_.weights[k] - ui - d_.v[to]);
      if (nd < load(key_[to]) && atomic_lower(key_[to], nd)) {
        const std::size_t to_bucket = bucket_of(nd, current_);
        (to_bucket == current_ ? mine.next : mine.pile[to_bucket]).push_back(to);
      }
    }
  }

  static double load(const double& x) { return std::atomic_ref<const double>(x).load(std::memory_order_relaxed); }

  const Csr<double>& c_;
  const DualMatching& d_;
  std::vector<double>& key_;
  std::vector<double> relaxed_from_;  // the first relaxation was from x0
  int threads_;
  std::size_t team_round_;  // the fewest columns a round runs on the team with
  std::vector<Lists> lists_;
  std::vector<vertex_t> round_;
  std::size_t round_size_ = 0;
  double fine_step_ = 0, step_ = 0, base_ = 0;  // the step measured, and the current window's
  std::vector<double> keys_;                     // the pending keys beyond the window, at a move
  std::size_t buckets_ = 1, beyond_ = 0, current_ = 0;
};

}  // namespace

std::vector<double> shortest_augmenting_detail::greatest_column_shifts(const Csr<double>& c, const DualMatching& d,
                                                                        const std::vector<double>& x0, int threads) {
  const vertex_t n = c.n_rows;
  const auto& rm = d.mates.row_mate;
  const bool forced = threads > 0;
  if (!forced) threads = in_parallel(c) ? omp_get_max_threads() : 1;
  auto reduced = [&](vertex_t i, offset_t k) { return std::max(0.0, c.weights[k] - d.u[i] - d.v[c.cols[k]]); };
  // x0 the same everywhere (duals that were MC64's first ones already, as
  // MC64's start's are when no search ran: x0 = 0): no relaxation lowers
  // it, each adding a reduced cost >= 0.
  if (std::adjacent_find(x0.begin(), x0.end(), std::not_equal_to<>()) == x0.end()) return x0;
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
  // A team's round from 256 columns a thread on (at two threads 1.0-2.2x
  // one thread's on 300k-1M-row matrices); every round when the threads
  // are forced.
  BucketedRelaxation(c, d, x0, key, threads, forced ? 1 : 256 * std::size_t(threads)).run();
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
