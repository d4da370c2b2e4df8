// AWPM: a coarse auction's or the greedy start, maximum cardinality, then
// rounds of locally dominant weight-increasing 4-cycles (see awpm.hpp for
// source, guarantee and cost).
//
// Determinism. The auction start bids one row at a time from one stack in
// a fixed order (or, with jacobi_bids, in synchronous rounds whose outcome
// depends on the round's bids alone), so its assignment is the same on any
// thread count. The greedy start is the greedy matching of |a| under the order
// (weight descending, row ascending, column ascending): rows propose,
// columns keep their best offer (one-sided Suitor), whose result is that
// matching for every interleaving. In a round every matched row i finds its
// best cycle, the partner row i' with the largest gain and, on ties, the
// smallest index; this is the order (gain descending, smaller row, larger
// row) on cycles restricted to i's, and both rows of a cycle compute the
// same gain bit for bit (the sums are taken in the same pairs). A cycle is
// applied when each of its rows is the other's best: such cycles share no
// row, hence no column, so they are applied at once without conflicts; the
// best cycle of the whole matching is always among them (progress), and
// which ones are applied depends on the matching alone, not on the threads.
//
// Termination. A cycle that does not gain in exact arithmetic has a
// computed gain of at most about 2.2e-16 times the weight (its two old
// entries are part of it), so with min_gain above that (the default 1e-12)
// every applied cycle gains, no matching comes back, and the rounds end;
// max_rounds bounds them otherwise.
#include "matchers/bipartite/awpm.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <string>

#include "lib/error.hpp"
#include "lib/interrupt.hpp"
#include "lib/greedy_order.hpp"
#include "lib/omp_threads.hpp"
#include "matchers/bipartite/auction_start.hpp"
#include "matchers/bipartite/shortest_augmenting.hpp"
#include "ops/transpose.hpp"

namespace matchblas {
namespace {

// |a_ij| of the sorted s, or -1 when (i, j) is not an entry.
double entry(const Csr<double>& s, vertex_t i, vertex_t j) {
  const auto first = s.cols.begin() + s.offsets[i], last = s.cols.begin() + s.offsets[i + 1];
  const auto it = std::lower_bound(first, last, j);
  return it != last && *it == j ? s.weights[std::size_t(it - s.cols.begin())] : -1;
}

// The greedy matching of s by one-sided Suitor. offer[j] is the entry of
// column j's best proposal so far (-1: none); it only improves, by CAS. A
// row holds at most one proposal, and the thread that displaces it (the one
// CAS that replaces its entry, which never returns to that column) carries
// it on, so each row is worked on by one thread at a time. The entries are
// read-only, so relaxed order suffices: the CAS alone decides every race.
BipartiteMates suitor_start(const Csr<double>& s) {
  const vertex_t m = s.n_rows, n = s.n_cols;
  std::vector<vertex_t> entry_row(s.cols.size());
#pragma omp parallel for schedule(static)
  for (vertex_t i = 0; i < m; ++i)
    for (offset_t k = s.offsets[i]; k < s.offsets[i + 1]; ++k) entry_row[k] = i;
  std::vector<std::atomic<offset_t>> offer(static_cast<std::size_t>(n));
  for (auto& o : offer) o.store(-1, std::memory_order_relaxed);
  // Row i's proposal by entry k beats entry e (-1: nothing) in the greedy order.
  const auto beats = [&](offset_t k, vertex_t i, offset_t e) {
    return e < 0 || neighbour_beats(s.weights[k], i, s.weights[e], entry_row[e]);
  };
#pragma omp parallel for schedule(dynamic, 64)
  for (vertex_t first = 0; first < m; ++first) {
    vertex_t i = first;
    while (i >= 0) {
      offset_t pick = -1;  // the best column that i's offer would win
      for (offset_t k = s.offsets[i]; k < s.offsets[i + 1]; ++k) {
        if (pick >= 0 && !neighbour_beats(s.weights[k], s.cols[k], s.weights[pick], s.cols[pick])) continue;
        if (beats(k, i, offer[s.cols[k]].load(std::memory_order_relaxed))) pick = k;
      }
      if (pick < 0) break;  // i stays unmatched
      std::atomic<offset_t>& slot = offer[s.cols[pick]];
      offset_t held = slot.load(std::memory_order_relaxed);
      bool won = false;
      while (!won && beats(pick, i, held)) won = slot.compare_exchange_weak(held, pick, std::memory_order_relaxed);
      if (!won) continue;  // outbid meanwhile: choose again
      i = held < 0 ? -1 : entry_row[held];  // the displaced row proposes again
    }
  }
  BipartiteMates x;
  x.row_mate.assign(m, -1);
  x.col_mate.assign(n, -1);
  for (vertex_t j = 0; j < n; ++j)
    if (const offset_t e = offer[j].load(std::memory_order_relaxed); e >= 0) {
      x.row_mate[entry_row[e]] = j;
      x.col_mate[j] = entry_row[e];
      ++x.matched;
    }
  return x;
}

// The auction start on b, costs -|a_ij| with no more rows than columns and
// no empty row: Bertsekas's forward auction in one phase at `epsilon` from
// prices 0, its last rows / 2000 rows left over (their price war would
// cost more passes than the rest of the auction), at most 24 passes over
// the entries in bids. A column never bid on keeps price 0, the least, so
// a complete assignment is within rows x epsilon of the optimum. An
// auction that stops there (no matching of every row, or a price war
// across an outlier's gap) is mended by shortest augmenting paths from its
// prices: with v_j = -p_j (0 on the free columns) and u_i = min_j (c_ij -
// v_j) every reduced cost is >= 0 and each assigned pair's is its slack (<=
// epsilon); the pairs' costs are lowered by their slacks, which makes the
// start valid, and the searches match the free rows at the minimum cost for
// those costs, leaving free a row without an augmenting path, so the
// result has maximum cardinality and, when every row is matched, is within
// the sum of the slacks of the optimum. b's entries are restored, bit for
// bit, before it returns.
BipartiteMates bid_and_mend(Csr<double>& b, double epsilon, bool jacobi, bool& stopped) {
  const vertex_t rows = b.n_rows;
  // One phase: a ratio under which the first epsilon is the last.
  AuctionStart a = epsilon_scaling_auction(b, {.final_epsilon = epsilon,
                                                .ratio = std::numeric_limits<double>::max(),
                                                .work_limit = 24,
                                                .parallel_phases = 0,
                                                .jacobi = jacobi});
  stopped = !a.finished;
  if (a.finished) {
    a.mates.matched = vertex_t(rows - std::count(a.mates.row_mate.begin(), a.mates.row_mate.end(), no_vertex));
    return std::move(a.mates);
  }
  std::vector<std::pair<offset_t, double>> lowered;  // pair entries and their costs before lowering
  const auto restore = [&] {
    for (const auto& [k, w] : lowered) b.weights[k] = w;
  };
  try {
    DualMatching d;
    d.mates = std::move(a.mates);
    d.v = std::move(a.price);
    for (double& v : d.v) v = -v;
    d.u.assign(std::size_t(rows), 0);
    for (vertex_t i = 0; i < rows; ++i) {
      double u = std::numeric_limits<double>::infinity();
      for (offset_t k = b.offsets[i]; k < b.offsets[i + 1]; ++k) u = std::min(u, b.weights[k] - d.v[b.cols[k]]);
      d.u[i] = u;
      const vertex_t j = d.mates.row_mate[i];
      if (j < 0) continue;
      const offset_t k = offset_t(
          std::find(b.cols.begin() + b.offsets[i], b.cols.begin() + b.offsets[i + 1], j) - b.cols.begin());
      lowered.emplace_back(k, b.weights[k]);
      b.weights[k] = u + d.v[j];  // its slack taken off: tight
    }
    d.mates.matched = vertex_t(lowered.size());
    augment_free_rows_unchecked(b, d);
    restore();
    return std::move(d.mates);
  } catch (...) {
    restore();
    throw;
  }
}

// The auction start on a square s without empty rows: bid_and_mend on s
// negated in place (restored), epsilon from auction_start_epsilon.
std::optional<BipartiteMates> square_auction_start(Csr<double>& s, double fraction, bool jacobi, bool& stopped) {
  const double epsilon = auction_start_epsilon(s, fraction);
  if (!(epsilon > 0)) return std::nullopt;
  const auto negate = [&] {
#pragma omp parallel for schedule(static)
    for (std::size_t k = 0; k < s.weights.size(); ++k) s.weights[k] = -s.weights[k];
  };
  negate();
  try {
    BipartiteMates x = bid_and_mend(s, epsilon, jacobi, stopped);
    negate();
    return x;
  } catch (...) {
    negate();
    throw;
  }
}

// The auction start on any other shape: bid_and_mend on auction_bidders.
std::optional<BipartiteMates> wide_auction_start(const Csr<double>& s, double fraction, bool jacobi, bool& stopped) {
  AuctionBidders b = auction_bidders(s, fraction);
  if (!(b.epsilon > 0)) return std::nullopt;
  const BipartiteMates y = bid_and_mend(b.costs, b.epsilon, jacobi, stopped);
  return b.mates_of(y.row_mate, s.n_rows, s.n_cols);
}

// The auction start on any shape (nothing when every modulus is 0);
// stopped: the auction hit its work limit.
std::optional<BipartiteMates> auction_start(Csr<double>& s, double fraction, bool jacobi, bool& stopped) {
  return auction_in_place(s) ? square_auction_start(s, fraction, jacobi, stopped)
                             : wide_auction_start(s, fraction, jacobi, stopped);
}

// A row's best cycle: partner row, gain, and the two new entries' weights
// (the row's, the partner's). partner -1: no cycle gains anything.
struct Cycle {
  vertex_t partner = -1;
  double gain = 0, mine = 0, theirs = 0;
};

// The search for (i', j) is skipped when row i''s largest entry,
// row_max[i'], in place of |a_i'j| could not make the cycle gain or beat the
// best so far: rounding is monotone, so that bound computed in floating
// point is >= the gain computed the same way, and the result is the same as
// without the test.
Cycle best_cycle(const Csr<double>& s, const BipartiteMates& x, const std::vector<double>& mate_weight,
                 const std::vector<double>& row_max, vertex_t i) {
  Cycle best;
  const vertex_t j = x.row_mate[i];
  if (j < 0) return best;
  for (offset_t k = s.offsets[i]; k < s.offsets[i + 1]; ++k) {
    const vertex_t other = s.cols[k] == j ? -1 : x.col_mate[s.cols[k]];
    if (other < 0) continue;
    const double bound = (s.weights[k] + row_max[other]) - (mate_weight[i] + mate_weight[other]);
    if (!(bound > 0) || (best.partner >= 0 && bound < best.gain)) continue;
    const double back = entry(s, other, j);
    if (back < 0) continue;
    const double gain = (s.weights[k] + back) - (mate_weight[i] + mate_weight[other]);
    if (gain > 0 && (best.partner < 0 || gain > best.gain || (gain == best.gain && other < best.partner)))
      best = {other, gain, s.weights[k], back};
  }
  return best;
}

double weight_of(const std::vector<double>& mate_weight) {
  double w = 0;  // in row order, so the threshold is the same for every thread count
  for (double x : mate_weight) w += x;
  return w;
}

}  // namespace

bool auction_in_place(const Csr<double>& s) {
  if (s.n_rows != s.n_cols) return false;
  for (vertex_t i = 0; i < s.n_rows; ++i)
    if (s.offsets[i] == s.offsets[i + 1]) return false;
  return true;
}

double auction_start_epsilon(const Csr<double>& s, double fraction, double scale) {
  const vertex_t n = s.n_rows;
  std::vector<double> row_max(static_cast<std::size_t>(n), 0);
#pragma omp parallel for schedule(static)
  for (vertex_t i = 0; i < n; ++i)
    for (offset_t k = s.offsets[i]; k < s.offsets[i + 1]; ++k)
      row_max[i] = std::max(row_max[i], std::fabs(s.weights[k]) * scale);
  double sum = 0;  // in row order: the same epsilon on every thread count
  for (const double x : row_max) sum += x;
  return n > 0 && sum > 0 ? fraction * sum / double(n) : 0;
}

AuctionBidders auction_bidders(const Csr<double>& s, double fraction) {
  AuctionBidders b;
  b.tall = s.n_rows > s.n_cols;
  const Csr<double> transposed = b.tall ? ops::transpose(s, ops::Backend::plain) : Csr<double>{};
  const Csr<double>& w = b.tall ? transposed : s;  // w.n_rows <= w.n_cols
  b.costs.n_cols = w.n_cols;
  double sum = 0;  // in line order: the same epsilon on every thread count
  for (vertex_t i = 0; i < w.n_rows; ++i) {
    if (w.offsets[i] == w.offsets[i + 1]) continue;
    double largest = 0;
    for (offset_t k = w.offsets[i]; k < w.offsets[i + 1]; ++k) {
      b.costs.cols.push_back(w.cols[k]);
      b.costs.weights.push_back(-w.weights[k]);
      largest = std::max(largest, w.weights[k]);
    }
    sum += largest;
    b.line.push_back(i);
    b.costs.offsets.push_back(offset_t(b.costs.cols.size()));
  }
  b.costs.n_rows = vertex_t(b.line.size());
  b.epsilon = sum > 0 ? fraction * sum / double(b.costs.n_rows) : 0;
  return b;
}

BipartiteMates AuctionBidders::mates_of(const std::vector<vertex_t>& row_mate, vertex_t m, vertex_t n) const {
  BipartiteMates x;
  x.row_mate.assign(std::size_t(m), no_vertex);
  x.col_mate.assign(std::size_t(n), no_vertex);
  for (vertex_t r = 0; r < costs.n_rows; ++r)
    if (const vertex_t j = row_mate[r]; j >= 0) {
      const vertex_t row = tall ? j : line[r], col = tall ? line[r] : j;
      x.row_mate[row] = col;
      x.col_mate[col] = row;
      ++x.matched;
    }
  return x;
}

bool rows_strictly_sorted(const Csr<double>& a) {
  bool sorted = true;
#pragma omp parallel for schedule(static) reduction(&& : sorted)
  for (vertex_t i = 0; i < a.n_rows; ++i)
    for (offset_t k = a.offsets[i] + 1; k < a.offsets[i + 1]; ++k) sorted = sorted && a.cols[k - 1] < a.cols[k];
  return sorted;
}

Csr<double> sorted_moduli(const Csr<double>& a, double& scale) {
  scale = moduli_sum_scale(a.weights);
  Csr<double> s = a;
  if (rows_strictly_sorted(a)) {
#pragma omp parallel for schedule(static)
    for (std::size_t k = 0; k < s.weights.size(); ++k) s.weights[k] = std::fabs(s.weights[k]) * scale;
    return s;
  }
  s.cols.clear();
  s.weights.clear();
  std::vector<offset_t> order;
  for (vertex_t i = 0; i < a.n_rows; ++i) {
    order.resize(std::size_t(a.degree(i)));
    std::iota(order.begin(), order.end(), a.offsets[i]);
    std::sort(order.begin(), order.end(),  // by column, then position: the first of duplicates first
              [&](offset_t x, offset_t y) { return a.cols[x] != a.cols[y] ? a.cols[x] < a.cols[y] : x < y; });
    for (std::size_t t = 0; t < order.size(); ++t)
      if (t == 0 || a.cols[order[t]] != a.cols[order[t - 1]]) {
        s.cols.push_back(a.cols[order[t]]);
        s.weights.push_back(std::fabs(a.weights[order[t]]) * scale);
      }
    s.offsets[i + 1] = offset_t(s.cols.size());
  }
  return s;
}

AwpmResult awpm(const Csr<double>& a, const AwpmOptions& options) {
  check_bipartite_values(a, "awpm");
  MATCHBLAS_EXPECTS(options.min_gain >= 0 && std::isfinite(options.min_gain), "awpm: min_gain must be >= 0");
  MATCHBLAS_EXPECTS(options.max_rounds >= 0, "awpm: max_rounds must be >= 0");
  MATCHBLAS_EXPECTS(options.auction_epsilon > 0 && options.auction_epsilon <= 1,
                    "awpm: auction_epsilon must be in (0, 1]");
  const ScopedThreads scope(options.threads);
  const vertex_t m = a.n_rows;

  double scale = 1;
  Csr<double> sorted = sorted_moduli(a, scale);
  std::vector<double> row_max(static_cast<std::size_t>(m), 0);
#pragma omp parallel for schedule(static)
  for (vertex_t i = 0; i < m; ++i)
    for (offset_t k = sorted.offsets[i]; k < sorted.offsets[i + 1]; ++k)
      row_max[i] = std::max(row_max[i], sorted.weights[k]);
  AwpmResult r;
  std::optional<BipartiteMates> auctioned;
  if (options.start == AwpmOptions::Start::auction && m > 0 && a.n_cols > 0)
    auctioned = auction_start(sorted, options.auction_epsilon, options.jacobi_bids, r.auction_stopped);
  r.auction_start = auctioned.has_value();
  BipartiteMates start = auctioned ? std::move(*auctioned) : suitor_start(sorted);
  const Csr<double>& s = sorted;
  std::vector<double> mate_weight(std::size_t(m), 0);  // scale |a_ij| of each row's matched entry, 0 if unmatched
  const auto weigh = [&](const BipartiteMates& x) {
#pragma omp parallel for schedule(static)
    for (vertex_t i = 0; i < m; ++i) mate_weight[i] = x.row_mate[i] < 0 ? 0 : entry(s, i, x.row_mate[i]);
    return weight_of(mate_weight);
  };
  r.start_weight = weigh(start) / scale;
  BipartiteMates x = max_cardinality_bipartite_bfs(s, std::move(start));
  double weight = weigh(x);
  if (r.auction_stopped) {
    // Its searches matched the free rows in row order, which on a singular
    // matrix decides which rows stay free: the greedy start's maximum
    // matching too, the heavier kept (the first on a tie).
    BipartiteMates y = max_cardinality_bipartite_bfs(s, suitor_start(s));
    if (const double greedy = weigh(y); greedy > weight) {
      x = std::move(y);
      weight = greedy;
    } else {
      weight = weigh(x);
    }
  }
  r.maximum_weight = weight / scale;

  // Rounds. A row's best cycle changes only when its mate or the mate of a
  // column in its row changes, so only those rows are evaluated again.
  const Csr<double> t = ops::transpose(s, ops::Backend::plain);  // column -> rows
  std::vector<Cycle> best(static_cast<std::size_t>(m));
  std::vector<std::atomic<unsigned char>> stale(static_cast<std::size_t>(m));
  for (auto& f : stale) f.store(1, std::memory_order_relaxed);
  const auto mark_column = [&](vertex_t j) {
    for (offset_t k = t.offsets[j]; k < t.offsets[j + 1]; ++k) stale[t.cols[k]].store(1, std::memory_order_relaxed);
  };
  while (std::int64_t(r.rounds.size()) < options.max_rounds) {
    check_interrupt();
#pragma omp parallel for schedule(dynamic, 64)
    for (vertex_t i = 0; i < m; ++i)
      if (stale[i].load(std::memory_order_relaxed)) {
        stale[i].store(0, std::memory_order_relaxed);
        best[i] = best_cycle(s, x, mate_weight, row_max, i);
      }
    const double threshold = options.min_gain * weight;
    std::int64_t cycles = 0;
#pragma omp parallel for schedule(dynamic, 256) reduction(+ : cycles)
    for (vertex_t i = 0; i < m; ++i) {
      const vertex_t p = best[i].partner;
      if (p <= i || best[p].partner != i || !(best[i].gain > threshold)) continue;
      const vertex_t j = x.row_mate[i], jp = x.row_mate[p];
      x.row_mate[i] = jp;
      x.row_mate[p] = j;
      x.col_mate[jp] = i;
      x.col_mate[j] = p;
      mate_weight[i] = best[i].mine;
      mate_weight[p] = best[i].theirs;
      stale[i].store(1, std::memory_order_relaxed);
      stale[p].store(1, std::memory_order_relaxed);
      mark_column(j);
      mark_column(jp);
      ++cycles;
    }
    weight = weight_of(mate_weight);
    r.rounds.push_back({cycles, weight / scale});
    if (cycles == 0) {
      r.converged = true;
      break;
    }
  }
  r.mates = std::move(x);
  return r;
}

}  // namespace matchblas
