#include "matchers/bipartite/auction_start.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>
#include <vector>

#include "lib/error.hpp"
#include "lib/interrupt.hpp"
#include "lib/prefetch.hpp"
#include "lib/radix_sort.hpp"

namespace matchblas {

vertex_t auction_tail_rows(std::int64_t tail_rows, vertex_t n, vertex_t rows_per_tail_row) {
  MATCHBLAS_EXPECTS(rows_per_tail_row > 0, "auction_tail_rows: rows_per_tail_row must be positive");
  return tail_rows < 0    ? 0
         : tail_rows == 0 ? n / rows_per_tail_row
                          : vertex_t(std::min<std::int64_t>(tail_rows, n));
}

namespace {

// The spread of most costs: the 99th less the 1st percentile of at most
// about 2^16 of them (every (nnz / 2^16)-th), each capped at `ceiling`;
// 0 without costs. O(2^16) time and memory, deterministic.
double cost_spread(const Csr<double>& c, double ceiling) {
  const std::size_t nnz = c.weights.size(), step = std::max<std::size_t>(1, nnz >> 16);
  std::vector<double> s;
  s.reserve(nnz / step + 1);
  for (std::size_t k = 0; k < nnz; k += step) s.push_back(std::min(c.weights[k], ceiling));
  if (s.empty()) return 0;
  auto percentile = [&](double f) {
    const auto at = s.begin() + std::ptrdiff_t(f * double(s.size() - 1));
    std::nth_element(s.begin(), at, s.end());
    return *at;
  };
  const double low = percentile(0.01);
  return percentile(0.99) - low;
}

}  // namespace

EpsilonScale auction_epsilon_scale(const Csr<double>& c, double ceiling, double span, double ratio) {
  const double spread = cost_spread(c, ceiling);
  if (spread > 0 && spread * ratio < span) return {spread, std::min(ratio, std::max(4.0, ratio / 2))};
  return {span, ratio};
}

namespace {

constexpr double ninf = -std::numeric_limits<double>::infinity();


// Row i's best and second-best value -min(c_ij, ceiling) - p_j over its
// entries (ties to the smaller column), the best's column j1 (-1: no
// entries) and the price seen there, prices read through price(j); and the
// price a bid offers: v1 - v2 + eps above p1 (a row with one column:
// epsilon above the price it meets). Bertsekas 1988, sec. 2.
struct RowBid {
  double v1 = ninf, v2 = ninf, p1 = 0;
  vertex_t j1 = -1;
  double offer(double eps) const { return v2 == ninf ? p1 + eps : p1 + ((v1 - v2) + eps); }
};
template <class Price>
RowBid row_bid(const Csr<double>& c, vertex_t i, double ceiling, const Price& price) {
  RowBid r;
  for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k) {
    const vertex_t j = c.cols[k];
    const double pj = price(j), x = -std::min(c.weights[k], ceiling) - pj;
    if (x > r.v1 || (x == r.v1 && j < r.j1)) {
      if (j != r.j1) r.v2 = r.v1;
      r.v1 = x;
      r.j1 = j;
      r.p1 = pj;
    } else if (j != r.j1) {
      r.v2 = std::max(r.v2, x);
    }
  }
  return r;
}

// Bid b of m in `rows` order: its successors' rows and prices fetched
// ahead (prefetch_rows_ahead: the Jacobi auction 1.4-2.1x faster on the
// generated 300k-1M-row matrices at 1 and 2 threads, bench/RESULTS.md).
void prefetch_bids(const Csr<double>& c, const double* price, const vertex_t* rows, std::int64_t b, std::int64_t m) {
  prefetch_rows_ahead(c, price, b + 1 < m ? rows[b + 1] : -1, b + 2 < m ? rows[b + 2] : -1,
                      b + 4 < m ? rows[b + 4] : -1);
}

constexpr vertex_t locked = -2;  // a column's col_mate while a bid on it is being settled

// What the bidding threads share during a phase. Shared = false (one
// thread): plain loads and stores, the sequential auction.
//   Memory order: a bid locks its column by exchanging its col_mate with
// `locked` (acquire), reads and raises the price, and unlocks by storing the
// new owner (release); so whoever locks the column next sees the price, the
// owner and the row_mate writes made under the previous lock. The prices
// a bidder scans are read without the lock (relaxed): they only rise, so a
// stale price is one too low, which makes the bid's second-best value too
// high and its price increase too small, never too large (Bertsekas and
// Castanon, sec. 3): the row stays epsilon-complementary-slack at the price
// it pays. The bid is refused when the column's price has meanwhile risen
// to or above it; the row then bids again.
template <bool Shared>
struct Bidding {
  const Csr<double>& c;
  double ceiling, eps;
  std::size_t tail;
  double budget;
  AuctionStart& a;
  std::atomic<std::int64_t>& free_rows;  // rows on every stack together
  std::atomic<std::int64_t>& scanned;    // a.scanned, shared while the threads bid
  std::atomic<bool>& stop;               // over the budget or interrupted
  std::atomic<bool>& idle;               // a thread ran out of rows
  bool& interrupted;                     // set by the calling thread alone

  double price(vertex_t j) const {
    if constexpr (Shared) return std::atomic_ref<double>(a.price[j]).load(std::memory_order_relaxed);
    else return a.price[j];
  }

  // Bids from the rows of `stack` until the phase's unassigned rows are at
  // most `tail`, the stack is empty, the work is over budget, or (Shared)
  // another thread ran dry while this one holds rows to share.
  void run(std::vector<vertex_t>& stack, bool calling_thread) {
    std::int64_t taken = 0, work = 0;  // not yet added to free_rows, scanned
    std::int64_t free_seen = free_rows.load(std::memory_order_relaxed);
    std::int64_t scanned_seen = scanned.load(std::memory_order_relaxed);
    auto sync = [&] {
      free_seen = free_rows.fetch_sub(taken, std::memory_order_relaxed) - taken;
      scanned_seen = scanned.fetch_add(work, std::memory_order_relaxed) + work;
      taken = work = 0;
    };
    for (std::uint32_t bids = 1;; ++bids) {
      // One thread: free_seen - taken is exact (the sequential rule).
      if (free_seen - taken <= std::int64_t(tail)) {
        sync();
        if (free_seen <= std::int64_t(tail)) break;
      }
      if (double(scanned_seen + work) > budget) {
        sync();
        if (double(scanned_seen) > budget) {
          stop.store(true, std::memory_order_relaxed);
          break;
        }
      }
      if (bids % 64 == 0) {
        sync();
        if (stop.load(std::memory_order_relaxed)) break;
        if (Shared && idle.load(std::memory_order_relaxed) && stack.size() >= 2) break;
        if (calling_thread && bids % 65536 == 0) {
          try {
            check_interrupt();
          } catch (const matchblas::interrupted&) {
            interrupted = true;
            stop.store(true, std::memory_order_relaxed);
            break;
          }
        }
      }
      if (stack.empty()) {
        if (Shared) idle.store(true, std::memory_order_relaxed);
        break;
      }
      const vertex_t i = stack.back();
      stack.pop_back();
      // The rows below on the stack bid next, unless this bid displaces one.
      const std::size_t below = stack.size();
      prefetch_rows_ahead(c, a.price.data(), below >= 1 ? stack[below - 1] : -1, below >= 2 ? stack[below - 2] : -1,
                          below >= 4 ? stack[below - 4] : -1);
      const RowBid r = row_bid(c, i, ceiling, [&](vertex_t j) { return price(j); });
      const vertex_t j1 = r.j1;
      work += c.offsets[i + 1] - c.offsets[i];
      if (j1 < 0) {  // a row without entries: no perfect matching
        stop.store(true, std::memory_order_relaxed);
        break;
      }
      double offer = r.offer(eps);
      vertex_t held;
      if constexpr (Shared) {
        std::atomic_ref<vertex_t> owner(a.mates.col_mate[j1]);
        while ((held = owner.exchange(locked, std::memory_order_acquire)) == locked) {
        }
        const double now = price(j1);
        if (r.v2 == ninf) offer = std::max(offer, now + eps);
        if (!(offer > now)) {  // outbid meanwhile: bid again
          owner.store(held, std::memory_order_release);
          stack.push_back(i);
          continue;
        }
        std::atomic_ref<double>(a.price[j1]).store(offer, std::memory_order_relaxed);
        if (held >= 0) a.mates.row_mate[held] = -1;
        a.mates.row_mate[i] = j1;
        owner.store(i, std::memory_order_release);
      } else {
        a.price[j1] = offer;
        held = a.mates.col_mate[j1];
        if (held >= 0) a.mates.row_mate[held] = -1;
        a.mates.col_mate[j1] = i;
        a.mates.row_mate[i] = j1;
      }
      if (held >= 0) stack.push_back(held);
      else ++taken;
    }
    sync();
  }
};

// Jacobi bids for one phase (AuctionStartOptions::jacobi): `bidders`
// (the unassigned rows, each once, in any order) bid in rounds until at most `tail` are
// left, each round against the prices at its start: a row's bid is the
// Gauss-Seidel rule's (its best column, ties to the smaller, at v1 - v2 +
// eps above its price); each column bid on takes the highest bid, ties to
// the smaller row, so the outcome depends on the round's bids alone, not
// on the threads. The losers and the rows displaced bid in the next round,
// in the order of the bids that left them. Stops early when the work passes
// `budget` (a.scanned counts it) or a row has no entries (no matching of
// every row), saying which. A round of m bids runs on min(threads, m /
// bids_per_thread) threads (an atomic maximum of the bids' order keys per
// column, then an atomic minimum of the rows that made the highest), or on
// one (the same winners, in two passes without atomics). O(bidders' entries) a
// round; `top` (a record per column, all {0, n} on entry: no finite bid's
// key is 0) is left so.
struct ColumnBid {
  std::uint64_t key;  // the round's highest bid's order_key (0: none)
  vertex_t row;       // the smallest row bidding it (n: none)
};
// A Jacobi bid's successor: as prefetch_bids, and the round's records of
// the next row's columns too (the record of the column a row bids for was
// a cache miss on most bids: 64% of jacobi_bids' time on stencil2d:1000 at
// one thread, perf).
void prefetch_jacobi_bids(const Csr<double>& c, const double* price, const ColumnBid* top, const vertex_t* rows,
                          std::int64_t b, std::int64_t m) {
  prefetch_bids(c, price, rows, b, m);
  if (b + 1 < m) prefetch_rows_ahead(c, top, rows[b + 1], -1, -1);
}

// A round's resolution, bid b of m: the record and the owner of the column
// of the bid `ahead` places on fetched (the owner's miss was the next
// largest stall of the one-thread round after the records', perf).
constexpr std::int64_t resolution_ahead = 16;
void prefetch_resolution(const ColumnBid* top, const vertex_t* col_mate, const vertex_t* bid_col, std::int64_t b,
                         std::int64_t m) {
  if (b + resolution_ahead >= m) return;
  const vertex_t j = bid_col[b + resolution_ahead];
  prefetch(top + j);
  prefetch(col_mate + j);
}

enum class JacobiEnd { done, over_budget, empty_row };
JacobiEnd jacobi_bids(const Csr<double>& c, double ceiling, double eps, std::size_t tail, double budget, int threads,
                      std::int64_t bids_per_thread, AuctionStart& a, std::vector<vertex_t>& bidders,
                      std::vector<ColumnBid>& top) {
  std::vector<vertex_t> bid_col;
  std::vector<double> bid;
  std::vector<vertex_t> next;
  std::vector<vertex_t> left;              // the row bid b leaves to the next round (-1: none)
  std::vector<std::int64_t> chunk_rows;    // rows left by the chunks before each (a prefix sum)
  const vertex_t nobody = c.n_rows;
  auto price_of = [&](vertex_t j) { return a.price[std::size_t(j)]; };
  // Bid b's row takes its column; the row displaced, if any, is returned.
  auto take = [&](std::int64_t b) {
    const vertex_t i = bidders[std::size_t(b)], j = bid_col[std::size_t(b)];
    a.price[std::size_t(j)] = bid[std::size_t(b)];
    const vertex_t held = a.mates.col_mate[std::size_t(j)];
    if (held >= 0) a.mates.row_mate[std::size_t(held)] = -1;
    a.mates.col_mate[std::size_t(j)] = i;
    a.mates.row_mate[std::size_t(i)] = j;
    return held;
  };
  auto clear_bids = [&](std::int64_t m) {  // an empty row ends the phase: leave `top` as it came
    for (std::int64_t b = 0; b < m; ++b)
      if (bid_col[std::size_t(b)] >= 0) top[std::size_t(bid_col[std::size_t(b)])] = {0, nobody};
  };
  while (bidders.size() > tail) {
    if (double(a.scanned) > budget) return JacobiEnd::over_budget;
    check_interrupt();  // a round may scan most of the matrix
    const std::int64_t m = std::int64_t(bidders.size());
    bid_col.resize(bidders.size());
    bid.resize(bidders.size());
    std::int64_t work = 0;
    bool empty_row = false;
    const int team = int(std::clamp<std::int64_t>(m / std::max<std::int64_t>(1, bids_per_thread), 1, threads));
    if (team == 1) {
      // One thread: each column's record is the highest bid so far, ties
      // to the smaller row; then in the bids' order the row the record
      // names takes the column (and clears the record), the others lose.
      for (std::int64_t b = 0; b < m; ++b) {  // every bid, as on the threads (the same work counted)
        const vertex_t i = bidders[std::size_t(b)];
        prefetch_jacobi_bids(c, a.price.data(), top.data(), bidders.data(), b, m);
        const RowBid r = row_bid(c, i, ceiling, price_of);
        work += c.offsets[i + 1] - c.offsets[i];
        bid_col[std::size_t(b)] = r.j1;
        if (r.j1 < 0) {
          empty_row = true;
          continue;
        }
        bid[std::size_t(b)] = r.offer(eps);
        ColumnBid& t = top[std::size_t(r.j1)];
        const std::uint64_t key = order_key(bid[std::size_t(b)]);
        if (key > t.key || (key == t.key && i < t.row)) t = {key, i};
      }
      a.scanned += work;
      if (empty_row) {
        clear_bids(m);
        return JacobiEnd::empty_row;
      }
      next.clear();
      for (std::int64_t b = 0; b < m; ++b) {
        prefetch_resolution(top.data(), a.mates.col_mate.data(), bid_col.data(), b, m);
        const vertex_t i = bidders[std::size_t(b)];
        ColumnBid& t = top[std::size_t(bid_col[std::size_t(b)])];
        if (t.row != i) {
          next.push_back(i);
          continue;
        }
        t = {0, nobody};
        const vertex_t held = take(b);
        if (held >= 0) next.push_back(held);
      }
      bidders.swap(next);
      continue;
    }
    // On the threads, in one team: the bids with an atomic maximum of
    // their keys per column; the smallest row among each column's highest
    // bids (an atomic minimum); then in chunks of the bids, each bid's row
    // left over (the loser, or the row its win displaced: `left`, -1 for
    // none), the winners taking their columns and clearing their records
    // (a loser reading a cleared record still sees another row); and the
    // rows left gathered in the bids' order by a prefix sum over the chunks,
    // so `next` is the same for any team.
    const std::int64_t chunks = std::min<std::int64_t>(m, std::int64_t(team) * 8);
    chunk_rows.assign(std::size_t(chunks) + 1, 0);
    left.resize(bidders.size());
    next.resize(bidders.size());  // outside the team: bad_alloc leaves as usual
#pragma omp parallel num_threads(team)
    {
#pragma omp for schedule(dynamic, 256) reduction(+ : work) reduction(|| : empty_row)
      for (std::int64_t b = 0; b < m; ++b) {
        const vertex_t i = bidders[std::size_t(b)];
        prefetch_jacobi_bids(c, a.price.data(), top.data(), bidders.data(), b, m);
        const RowBid r = row_bid(c, i, ceiling, price_of);
        const vertex_t j1 = r.j1;
        work += c.offsets[i + 1] - c.offsets[i];
        bid_col[std::size_t(b)] = j1;
        if (j1 < 0) {
          empty_row = true;
          continue;
        }
        const double offer = r.offer(eps);
        bid[std::size_t(b)] = offer;
        std::atomic_ref<std::uint64_t> highest(top[std::size_t(j1)].key);
        const std::uint64_t key = order_key(offer);
        std::uint64_t seen = highest.load(std::memory_order_relaxed);
        while (seen < key && !highest.compare_exchange_weak(seen, key, std::memory_order_relaxed)) {
        }
      }
      if (!empty_row) {  // the same on every thread after the loop's barrier
#pragma omp for schedule(static)
        for (std::int64_t b = 0; b < m; ++b) {
          const vertex_t j = bid_col[std::size_t(b)];
          if (top[std::size_t(j)].key != order_key(bid[std::size_t(b)])) continue;
          std::atomic_ref<vertex_t> w(top[std::size_t(j)].row);
          const vertex_t i = bidders[std::size_t(b)];
          vertex_t seen = w.load(std::memory_order_relaxed);
          while (i < seen && !w.compare_exchange_weak(seen, i, std::memory_order_relaxed)) {
          }
        }
        // A column has one winner and a displaced row is held, not bidding:
        // no two bids write the same price, mate or row.
#pragma omp for schedule(static)
        for (std::int64_t k = 0; k < chunks; ++k) {
          std::int64_t rows = 0;
          for (std::int64_t b = m * k / chunks; b < m * (k + 1) / chunks; ++b) {
            prefetch_resolution(top.data(), a.mates.col_mate.data(), bid_col.data(), b, m);
            const vertex_t i = bidders[std::size_t(b)], j = bid_col[std::size_t(b)];
            std::atomic_ref<vertex_t> w(top[std::size_t(j)].row);
            if (w.load(std::memory_order_relaxed) != i) {
              left[std::size_t(b)] = i;
              ++rows;
              continue;
            }
            w.store(nobody, std::memory_order_relaxed);
            std::atomic_ref<std::uint64_t>(top[std::size_t(j)].key).store(0, std::memory_order_relaxed);
            const vertex_t held = take(b);
            left[std::size_t(b)] = held;
            rows += held >= 0;
          }
          chunk_rows[std::size_t(k) + 1] = rows;
        }
#pragma omp single
        for (std::int64_t k = 0; k < chunks; ++k) chunk_rows[std::size_t(k) + 1] += chunk_rows[std::size_t(k)];
#pragma omp for schedule(static)
        for (std::int64_t k = 0; k < chunks; ++k) {
          std::int64_t at = chunk_rows[std::size_t(k)];
          for (std::int64_t b = m * k / chunks; b < m * (k + 1) / chunks; ++b)
            if (left[std::size_t(b)] >= 0) next[std::size_t(at++)] = left[std::size_t(b)];
        }
      }
    }
    a.scanned += work;
    if (empty_row) {
      clear_bids(m);
      return JacobiEnd::empty_row;
    }
    next.resize(std::size_t(chunk_rows[std::size_t(chunks)]));  // smaller: does not allocate
    bidders.swap(next);
  }
  return JacobiEnd::done;
}

}  // namespace

AuctionStart epsilon_scaling_auction(const Csr<double>& c, const AuctionStartOptions& o) {
  const vertex_t n = c.n_rows, cols = c.n_cols;  // n rows bid for cols >= n columns
  if (cols < n)
    throw invalid_input("auction start: at least as many columns as rows are needed, got " +
                        std::to_string(c.n_rows) + " x " + std::to_string(c.n_cols));
  if (!(o.ratio > 1) || !std::isfinite(o.ratio) || !(o.final_fraction >= 0 && o.final_fraction < 1) ||
      !(o.final_epsilon >= 0 && std::isfinite(o.final_epsilon)) || !(o.work_limit >= 0) ||
      !(o.cost_ceiling > -std::numeric_limits<double>::infinity()) || o.threads < 0)
    throw invalid_input(
        "auction start: ratio must be > 1, final_fraction in [0, 1), final_epsilon finite and >= 0, work_limit >= 0, "
        "cost_ceiling a number above -inf, threads >= 0");
  // Below 2^16 entries a phase is over before a second thread pays for
  // starting: one thread unless asked for more.
  const int asked =
      o.threads > 0 ? o.threads : c.num_entries() >= (offset_t(1) << 16) ? omp_get_max_threads() : 1;
  // The team OpenMP actually gives (fewer under a thread limit or inside
  // another parallel region): the stacks below are one per thread, sized
  // for a block of n / threads rows.
  int threads = 1;
  if (asked > 1) {
#pragma omp parallel num_threads(asked)
#pragma omp single
    threads = omp_get_num_threads();
  }
  AuctionStart a;
  a.price.assign(cols, 0);
  a.mates.row_mate.assign(n, -1);
  a.mates.col_mate.assign(cols, -1);
  if (n == 0) {
    a.finished = true;
    return a;
  }
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  bool finite = true;
  const std::size_t nnz = c.weights.size();
#pragma omp parallel for num_threads(threads) schedule(static) reduction(min : lo) reduction(max : hi) \
    reduction(&& : finite)
  for (std::size_t k = 0; k < nnz; ++k) {
    const double w = c.weights[k];
    finite = finite && std::isfinite(w);
    lo = std::min(lo, w);
    hi = std::max(hi, std::min(w, o.cost_ceiling));
  }
  if (!finite) throw invalid_input("auction start: a cost is not finite");
  const double span = hi > lo ? hi - lo : 1.0;
  // Heavy-tailed costs (job 4 on values over several decades): when 98% of
  // the costs lie within span / ratio, a few outliers set the span, and
  // epsilons scaled from it sit far above the differences among the other
  // entries: the first phases bid blindly and the last leaves prices too
  // rough for the repair (heavy:30000, job 4: 42x the entries scanned, then
  // 5.7k rows freed by the lowering and as many searches as MC64's start).
  // The epsilons then scale from that spread, in phases of half the ratio
  // (auction_epsilon_scale).
  auto [scale, ratio] = auction_epsilon_scale(c, o.cost_ceiling, span, o.ratio);
  const double fraction = o.final_fraction > 0 ? o.final_fraction : 1.0 / (4.0 * double(n));
  double last = o.final_epsilon > 0 ? o.final_epsilon : scale * fraction;
  // The spread's small epsilons cannot settle a price war across an
  // outlier's gap (rows contending for fewer columns than themselves, each
  // step raising a price by about epsilon: gap / epsilon bids; the shared
  // mahindas and bayer10 matrices, job 4). A phase of that schedule that
  // scans more than this many times the entries falls back to the span's
  // schedule from the prices it reached (they keep epsilon-complementary
  // slackness at any larger epsilon), as if the spread had not been used.
  constexpr double spread_phase_work = 8;
  bool spread_schedule = scale < span;
  const std::size_t last_tail = std::size_t(auction_tail_rows(o.tail_rows, n, last_phase_rows_per_tail_row));
  // At most the last phase's: rows an earlier phase leaves bid again at
  // every smaller epsilon, and on heavy-tailed costs more of them than the
  // last phase may leave started price wars of 100-700x the entries (tests).
  const std::size_t earlier_tail =
      o.earlier_tail_rows == 0 && !o.jacobi
          ? last_tail
          : std::min(last_tail,
                     std::size_t(auction_tail_rows(o.earlier_tail_rows, n, earlier_phase_rows_per_tail_row)));
  const double budget = o.work_limit * double(c.num_entries() + n);
  // Each thread bids from its own stack of unassigned rows; a row displaced
  // by a bid goes on the bidder's stack.
  // Reserved here, outside the parallel regions (which must not throw): a
  // phase start puts at most a thread's block of rows on its stack and
  // loosened list, and a bid pushes a row only after popping one.
  std::vector<std::vector<vertex_t>> stacks(threads), loosened_rows(threads);
  for (int t = 0; t < threads; ++t) {
    stacks[t].reserve(std::size_t(n / threads + 1));
    loosened_rows[t].reserve(std::size_t(n / threads + 1));
  }
  std::atomic<std::int64_t> free_rows{0}, scanned{0};
  std::atomic<bool> stop{false}, idle{false};
  std::vector<ColumnBid> top;  // Jacobi: per column, the round's highest bid and its smallest row
  bool interrupted = false;
  int phase = 0;
  for (double eps = std::max(last, scale / ratio);;) {
    ++phase;
    const bool parallel_bids = threads > 1 && phase <= o.parallel_phases;
    const std::size_t tail = eps <= last ? last_tail : earlier_tail;
    a.epsilon = eps;
    check_interrupt();
    // Keep a row's column while epsilon-complementary slackness holds.
    // Thread t takes the t-th block of rows, in order; the rows the last
    // phase left unassigned go to the bottom of its stack, to bid last:
    // they are the tail, whose bids at a small epsilon would raise prices a
    // step at a time, and a phase that ends at `tail` rows leaves them to
    // the next phase or to the repair's shortest augmenting paths. (Jacobi
    // bids: every such row on the stack, in row order.)
    std::int64_t freed = 0;
#pragma omp parallel num_threads(threads) reduction(+ : freed)
    {
      std::vector<vertex_t>& stack = stacks[omp_get_thread_num()];
      std::vector<vertex_t>& loosened = loosened_rows[omp_get_thread_num()];
      stack.clear();
      loosened.clear();
#pragma omp for schedule(static)
      for (vertex_t i = 0; i < n; ++i) {
        const vertex_t mine = a.mates.row_mate[i];
        if (mine < 0) {
          stack.push_back(i);
          continue;
        }
        double best = ninf, own = ninf;
        for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k) {
          const double x = -std::min(c.weights[k], o.cost_ceiling) - a.price[c.cols[k]];
          best = std::max(best, x);
          if (c.cols[k] == mine) own = std::max(own, x);
        }
        if (own >= best - eps) continue;
        a.mates.row_mate[i] = a.mates.col_mate[mine] = -1;
        (o.jacobi ? stack : loosened).push_back(i);
      }
      freed += std::int64_t(stack.size() + loosened.size());
      if (parallel_bids && !o.jacobi) stack.insert(stack.end(), loosened.begin(), loosened.end());
    }
    if (!parallel_bids && !o.jacobi) {  // one stack, in the order one thread makes
      for (int t = 1; t < threads; ++t) stacks[0].insert(stacks[0].end(), stacks[t].begin(), stacks[t].end());
      for (int t = 0; t < threads; ++t) stacks[0].insert(stacks[0].end(), loosened_rows[t].begin(), loosened_rows[t].end());
      for (int t = 1; t < threads; ++t) stacks[t].clear();
    }
    free_rows = freed;
    scanned = a.scanned + c.num_entries();
    const double phase_budget =
        spread_schedule ? std::min(budget, double(scanned) + spread_phase_work * double(c.num_entries() + n)) : budget;
    bool fall_back = false;
    if (o.jacobi) {
      std::vector<vertex_t> bidders;  // in row order: the threads' blocks in turn
      bidders.reserve(std::size_t(freed));
      for (int t = 0; t < threads; ++t) {
        bidders.insert(bidders.end(), stacks[t].begin(), stacks[t].end());
        stacks[t].clear();
      }
      if (top.empty()) top.assign(std::size_t(cols), {0, n});
      a.scanned = scanned;
      const JacobiEnd end = jacobi_bids(c, o.cost_ceiling, eps, tail, phase_budget, threads, o.jacobi_bids_per_thread, a, bidders, top);
      if (end == JacobiEnd::over_budget && spread_schedule && double(a.scanned) <= budget) fall_back = true;
      else if (end != JacobiEnd::done) return a;  // not finished
    }
    // Gauss-Seidel bidding, in rounds: a round ends when the phase does or
    // (several threads) when one thread ran dry; the rows left are then
    // dealt out again.
    while (!o.jacobi) {
      idle = false;
      if (!parallel_bids) {
        Bidding<false>{c, o.cost_ceiling, eps, tail, phase_budget, a, free_rows, scanned, stop, idle, interrupted}.run(
            stacks[0], true);
      } else {
#pragma omp parallel num_threads(threads)
        Bidding<true>{c, o.cost_ceiling, eps, tail, phase_budget, a, free_rows, scanned, stop, idle, interrupted}.run(
            stacks[omp_get_thread_num()], omp_get_thread_num() == 0);
      }
      a.scanned = scanned;
      if (interrupted) throw matchblas::interrupted();
      if (stop && spread_schedule && double(a.scanned) <= budget) {  // the phase's own limit
        stop = false;
        fall_back = true;
        break;
      }
      if (stop) return a;  // not finished
      if (free_rows <= std::int64_t(tail)) break;
      std::vector<vertex_t> rest;
      for (auto& s : stacks) {
        rest.insert(rest.end(), s.begin(), s.end());
        s.clear();
      }
      if (rest.empty()) break;  // (free_rows counts the rows on the stacks)
      for (std::size_t r = 0; r < rest.size(); ++r) stacks[r % std::size_t(threads)].push_back(rest[r]);
    }
    if (fall_back) {
      spread_schedule = false;
      ratio = o.ratio;
      last = o.final_epsilon > 0 ? o.final_epsilon : span * fraction;
      eps = std::max(last, span / ratio);
      continue;
    }
    if (eps <= last) break;
    eps = std::max(last, eps / ratio);
  }
  a.mates.matched = n - vertex_t(std::count(a.mates.row_mate.begin(), a.mates.row_mate.end(), no_vertex));
  a.finished = true;
  return a;
}

}  // namespace matchblas
