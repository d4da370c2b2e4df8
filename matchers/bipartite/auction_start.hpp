// An epsilon-optimal start for MC64's jobs 4 and 5: Bertsekas's forward
// auction with epsilon-scaling on a square (or wide) cost matrix, Gauss-Seidel (one
// bid at a time, the displaced row bidding next) on each of `threads`
// OpenMP threads: with several, each thread bids from its own stack of
// unassigned rows, reading prices without locks and settling a bid under
// its column's lock, the asynchronous auction of Bertsekas and Castanon
// (a bid computed from stale prices still leaves its row epsilon-
// complementary-slack; one the column's price has meanwhile overtaken is
// made again). Its prices and matching satisfy epsilon-complementary
// slackness for the last epsilon; min_cost_row_perfect_from_column_duals
// (shortest_augmenting.hpp) lowers those prices until the pairs are tight
// and finishes the rows left over by shortest augmenting paths, so the job
// stays exact. The GPU auction (max_sum_gpu.cu) is the same method in
// Jacobi rounds.
//   Sources: D. P. Bertsekas, "The auction algorithm: a distributed
//   relaxation method for the assignment problem", Annals of Operations
//   Research 14, 1988, sec. 2-4 (bids, epsilon-complementary slackness,
//   epsilon-scaling); D. P. Bertsekas and D. A. Castanon, "Parallel
//   synchronous and asynchronous implementations of the auction
//   algorithm", Parallel Computing 17, 1991 (the asynchronous bids).
//   Guarantee: epsilon-complementary slackness on every assigned row at the
//   last epsilon when `finished`; nothing about the matching's cost by
//   itself (the repair makes it exact). One thread, or Jacobi bids on any
//   number: deterministic; Gauss-Seidel bids on several threads: the prices
//   and matching depend on the threads' timing.
//   Cost: each bid scans one row; the work is capped at
//   options.work_limit times the entries (then `finished` is false: a
//   matrix whose auction would run long, or one with no perfect matching,
//   whose unassigned rows would bid forever). O(n) extra memory.
#pragma once
#include <cstdint>
#include <limits>
#include <vector>

#include "lib/csr.hpp"
#include "matchers/bipartite/max_cardinality.hpp"

namespace matchblas {

struct AuctionStartOptions {
  // The last epsilon as a fraction of the costs' span (largest - smallest
  // of those auctioned; where outliers set it, the spread of most costs
  // with the ratio halved: auction_epsilon_scale); 0: 1 / (4 n).
  double final_fraction = 0;
  // > 0: the last epsilon itself (final_fraction is then not used).
  double final_epsilon = 0;
  double ratio = 16;  // epsilon divided by this from phase to phase, from span / ratio
  // The last phase ends with at most this many rows unassigned (the repair
  // matches them): auction_tail_rows, 0 for n /
  // last_phase_rows_per_tail_row.
  std::int64_t tail_rows = 0;
  // The phases before the last end with at most this many (the next phase
  // takes them on), never more than the last phase's tail: 0 for n /
  // earlier_phase_rows_per_tail_row with Jacobi bids, the last phase's tail
  // with Gauss-Seidel bids (there the earlier tails were measured
  // 0.89-1.12x: bench/RESULTS.md).
  std::int64_t earlier_tail_rows = 0;
  double work_limit = 40;  // at most this many times the entries scanned by bids, in all
  // Costs above this are auctioned as this value (job 5's stand-in cost of
  // explicit zeros; the repair takes the true costs).
  double cost_ceiling = std::numeric_limits<double>::infinity();
  // 0: OpenMP's current setting (omp_get_max_threads) from 2^16 entries
  // on, one thread below.
  int threads = 0;
  // With several threads: the first phases whose bids run on all of them;
  // the later phases' bids run on one (their phase starts on all). Later
  // phases bid on few rows, and the rows bidding in an order other than
  // one thread's (each thread's block of rows in turn) made them scan 1.5-8
  // times the entries on stencil2d (bench/RESULTS.md, "Job 5 on two
  // threads"); the first two scan about as many either way.
  int parallel_phases = 2;
  // Jacobi bids: in synchronous rounds, every unassigned row bidding
  // against the round's prices on all threads, each column taking its
  // highest bid (ties to the smaller row), the rows outbid and displaced
  // bidding in the next round (Bertsekas 1988, sec. 4). The same prices and
  // matching on any thread count (parallel_phases is then not used).
  bool jacobi = false;
  // A Jacobi round of m bids runs on min(threads, m / this) threads (a
  // team costs more than it saves on fewer), one thread in two passes
  // without atomics; the outcome is the same either way.
  std::int64_t jacobi_bids_per_thread = 256;
};

struct AuctionStart {
  std::vector<double> price;  // p_j; the repair's column duals are v_j = -p_j
  BipartiteMates mates;       // every row assigned but at most the tail (when finished)
  double epsilon = 0;         // the last phase's
  bool finished = false;      // every phase ended within the work limit
  std::int64_t scanned = 0;   // entries scanned by bids and phase starts
};

// The rows an auction phase may leave unassigned for the shortest
// augmenting paths, given the option `tail_rows` (this auction's and the
// GPU auction's, AuctionGpuOptions): that many when positive (at most n),
// n / rows_per_tail_row (> 0) when 0, none when negative.
vertex_t auction_tail_rows(std::int64_t tail_rows, vertex_t n, vertex_t rows_per_tail_row);

// The defaults' rows_per_tail_row: n / 2000 rows for an auction's last
// phase (this one's and the GPU's), n / 10000 for this auction's phases
// before the last with Jacobi bids. The rows an earlier phase leaves bid
// again in the next, at a smaller epsilon; with fewer of them the prices
// the last phase ends with make the repair's searches cheaper: jobs 4-5
// 1.2-1.7x faster on 3D meshes, circuit-like and heavy-tailed matrices at
// 1 and 16 threads; on 2D meshes job 5 1.25x on one thread and 0.94x on
// 16, job 4 0.78-0.87x
// (bench/RESULTS.md, "The auction's earlier tails"). A last phase at n /
// 10000 made 2D meshes slower still (its tail's bids cost more than the
// searches they save there). The GPU auction keeps n / 2000 in every phase
// by default (AuctionGpuOptions::earlier_tail_rows).
inline constexpr vertex_t last_phase_rows_per_tail_row = 2000;
inline constexpr vertex_t earlier_phase_rows_per_tail_row = 10000;

// What an epsilon-scaling auction over the costs of c (each capped at
// `ceiling`, their span `span`) scales its epsilons from: the span, or,
// when a few outliers set it (the 1st-99th percentile spread of at most
// 2^16 sampled costs is below span / ratio: job 4 on values over several
// decades), that spread with the ratio halved (down to 4). The first
// epsilon is scale / ratio, the last scale times the final fraction. A
// phase of the spread's schedule that scans more than 8x the entries (a
// price war across an outlier's gap) hands over to the span's schedule
// from the prices it reached (epsilon_scaling_auction). (The
// GPU auction keeps the span: there this schedule left longer searches for
// the host repair on heavy:1000000, bench/RESULTS.md.) O(2^16) time and
// memory, deterministic.
struct EpsilonScale {
  double scale, ratio;
};
EpsilonScale auction_epsilon_scale(const Csr<double>& c, double ceiling, double span, double ratio);

// Minimum cost (benefits -c_ij) on an n x cols matrix, cols >= n (the
// rows bid; the exact jobs pass square ones). With more columns than rows
// the assignment is epsilon-optimal only after a single phase (a column
// never bid on keeps price 0, the least; later phases may leave a priced
// column free). Throws invalid_input for fewer columns than rows, a
// non-finite cost or options out of range; a matrix without a matching of
// every row comes back unfinished.
AuctionStart epsilon_scaling_auction(const Csr<double>& c, const AuctionStartOptions& options = {});

}  // namespace matchblas
