// AWPM: a maximum-cardinality matching of an m-by-n matrix with a heavy sum
// of matched |a_ij| (MC64 job 4's objective, approximately), by 4-cycles.
//   Source: A. Azad, A. Buluc, X. S. Li, X. Wang, J. Langguth, "A
//   distributed-memory algorithm for computing a heavy-weight perfect
//   matching on bipartite graphs", SIAM J. Sci. Comput. 42(4), 2020: a
//   heavy start, maximum cardinality, then rounds of weight-increasing
//   alternating 4-cycles. Here in shared memory (OpenMP), on any shape.
//   The start, by default, is Bertsekas's forward auction
//   (auction_start.hpp) on the moduli in one phase at a coarse epsilon
//   (auction_epsilon times the bidding rows' mean largest modulus) from
//   prices 0, its last rows / 2000 rows left over: the rows bid (on a
//   square matrix without empty rows, in place), or, on any other shape, the
//   rows with entries of the matrix or of its transpose, whichever has no
//   more rows than columns. A complete assignment would be within (bidding
//   rows) x epsilon of the optimum, where the exact job scales epsilon down
//   to span / (4 n) and repairs. An auction that stops at its work limit
//   (24 passes over the entries: a price war across an outlier's gap, or no
//   matching of every bidding row) is mended by shortest augmenting paths
//   from its prices (awpm.cpp), and the greedy start's maximum matching is
//   computed too: the rounds begin from the heavier. With start = greedy: the greedy matching of
//   |a| by one-sided Suitor, the source's maximal start. Maximum cardinality
//   by breadth-first phases (short augmenting paths keep more of the start
//   than Pothen-Fan's depth-first ones), the cycles of a round chosen
//   locally dominant.
//   Guarantee: approximate. A maximum matching (its size the structural
//   rank); the rounds never lower its weight, which is <= job 4's optimum;
//   on convergence no 4-cycle (rows i, i', their columns j, j',
//   entries (i, j'), (i', j)) gains more than min_gain times the weight.
//   From the auction start, below 2000 bidding rows, on a matrix whose
//   bidding side can be matched whole: within (bidding rows) x epsilon of
//   the optimum (no row is left over, and the searches' lowered costs keep
//   the bound). Otherwise no proven bound; the gaps are measured in
//   tests/matchers/test_awpm.cpp and bench/RESULTS.md (mean 0.21% over the
//   shared collection, 0.9-1.6% on generated 0.2-1M-row solver matrices).
//   Deterministic: the same matching for every thread count (the auction's
//   bids are made in synchronous rounds on the threads whose outcome does
//   not depend on them, or without jacobi_bids one at a time in a fixed
//   order; its phase start and everything else run on the threads).
//   Cost: the auction start at most 24 passes over the entries in bids
//   (sequential, or Jacobi rounds on the threads; 4-12 on generated solver
//   matrices) plus a parallel pass,
//   and when it stops a Dijkstra search per row it left free; the greedy
//   start O(sum over proposals of the proposer's degree) work (Suitor,
//   parallel); maximum cardinality O(nnz) per breadth-first phase, at most
//   min(m, n) + 1 phases (its large levels on the threads from 8 of them,
//   max_cardinality_bfs.cpp); each round O(m + sum over the rows
//   evaluated again of deg(i) log(max deg)) work, depth O(max deg log(max
//   deg)) plus an O(m) sum; O(m + n + nnz) memory (a row-sorted copy of |a|
//   and its transpose).
#pragma once
#include <cstdint>
#include <vector>

#include "lib/csr.hpp"
#include "matchers/bipartite/max_cardinality.hpp"

namespace matchblas {

struct AwpmOptions {
  enum class Start { auction, greedy };
  // The start: the coarse auction, or the greedy matching of |a|.
  Start start = Start::auction;
  // The auction start's epsilon, a fraction of the bidding rows' mean
  // largest modulus (rows x epsilon is this fraction of the sum of their
  // maxima); in (0, 1]. Smaller: closer to the optimum, more bids.
  double auction_epsilon = 0.1;
  // The auction start's bids: Jacobi rounds on every thread (true,
  // auction_start.hpp), or one row at a time from one stack (false); both
  // deterministic. Jacobi: 1.2-1.5x faster on one thread and about 2x on
  // two on 300k-1M-row solver matrices, within 0.04% of the same weight,
  // a mean gap of 0.21% over the shared collection against 0.23%
  // (bench/RESULTS.md, "awpm's bids in Jacobi rounds by default").
  bool jacobi_bids = true;
  // A cycle is applied when its gain exceeds min_gain times the matching's
  // weight at the start of the round (0: any positive gain).
  double min_gain = 1e-12;
  std::int64_t max_rounds = 100000;  // 0: the start and maximum cardinality only
  int threads = 0;                   // OpenMP threads (<= 0: the current setting)
};

struct AwpmRound {
  std::int64_t cycles = 0;  // 4-cycles applied in the round
  double weight = 0;        // the matching's weight after it
};

struct AwpmResult {
  BipartiteMates mates;
  double start_weight = 0;    // the start's (the auction's assignment or the greedy matching of |a|)
  bool auction_start = false; // the start was the auction's
  // The auction hit its work limit: its start (mended) and the greedy
  // start each went to maximum cardinality, and the rounds began from the
  // heavier.
  bool auction_stopped = false;
  double maximum_weight = 0;  // after maximum cardinality, before the rounds
  std::vector<AwpmRound> rounds;  // the last one applies nothing when converged
  bool converged = false;     // a round found no cycle above the threshold
};

// a's values are read through |.|; explicit zeros are entries; rows may be
// unsorted and hold duplicates (the first entry of a column in the row
// counts, as prepass_result reads it). Throws invalid_input for a malformed
// Csr, a non-finite value, or options out of range.
AwpmResult awpm(const Csr<double>& a, const AwpmOptions& options = {});

// The same on GPU gpu.device (awpm_gpu.cu): the same start (the auction's
// in Jacobi rounds, one phase at the same epsilon on the same bidders, at
// most 1000 rounds, its last rows left over; or the greedy matching of |a|
// by one-sided Suitor in rounds of proposals), maximum cardinality by cardinality-gpu's phases
// (after a stopped auction neither the searches nor the greedy start's
// matching: its assignment as it is), then the same rounds of cycles each of whose rows is the other's
// best. Guarantee: approximate, as awpm; the result depends on the
// schedule, so it is not deterministic. options.threads is not used. times,
// when given, gets upload, match (start, maximum cardinality, rounds) and
// download.
AwpmResult awpm_gpu(const Csr<double>& a, const AwpmOptions& options = {}, const GpuOptions& gpu = {},
                    GpuTimes* times = nullptr);

// Whether the auction start bids on s itself: s square without empty rows
// (else on auction_bidders' copy). O(m).
bool auction_in_place(const Csr<double>& s);

// The auction start's epsilon on the sorted moduli s (sorted_moduli) of a
// matrix for which auction_in_place holds: fraction times the mean over rows
// of the largest modulus, summed in row order (the same on every thread
// count); 0 when every modulus is 0 (the greedy start then). With a scale,
// the moduli are |s_ij| times it, read from the matrix itself (the same
// bits as on sorted_moduli's copy: a power of two scales exactly and keeps
// the order). O(nnz), parallel.
double auction_start_epsilon(const Csr<double>& s, double fraction, double scale = 1);

// The auction start's bidders on a shape other than square without empty
// rows: the rows with entries of the sorted moduli s, or of s's transpose
// when s has more rows than columns (so that no more lines bid than there
// are columns to bid for), as costs -|a_ij|; epsilon is fraction times
// their mean largest modulus (0 when every modulus is 0). mates_of turns
// the bidders' row_mate into a matching of the m x n s.
struct AuctionBidders {
  Csr<double> costs;            // bidders x columns (of s, or of its transpose when tall)
  std::vector<vertex_t> line;   // costs' row r is row line[r] of s, or column line[r] when tall
  bool tall = false;
  double epsilon = 0;
  BipartiteMates mates_of(const std::vector<vertex_t>& row_mate, vertex_t m, vertex_t n) const;
};
AuctionBidders auction_bidders(const Csr<double>& s, double fraction);

// |a| with each row sorted by column and one entry per column (the first in
// a's row order), so that (i, j) is found by binary search: what both
// versions search. The moduli are multiplied by scale = moduli_sum_scale
// (a power of two, 1 unless the largest is 2^511 or more), so that the
// matching's weight and the 4-cycles' gains stay finite; the versions
// divide the weights they report by it.
Csr<double> sorted_moduli(const Csr<double>& a, double& scale);

// Whether every row of a has strictly increasing columns (sorted_moduli's
// copy then holds a's own columns: awpm-gpu uploads a's arrays and takes the
// moduli on the device instead). O(nnz), parallel.
bool rows_strictly_sorted(const Csr<double>& a);

}  // namespace matchblas
