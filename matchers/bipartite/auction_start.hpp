// An epsilon-optimal start for MC64's jobs 4 and 5: Bertsekas's forward
// auction with epsilon-scaling, sequential (Gauss-Seidel: one bid at a
// time, the displaced row bidding next), on a square cost matrix. Its
// prices and matching satisfy epsilon-complementary slackness for the last
// epsilon; min_cost_row_perfect_from_column_duals (shortest_augmenting.hpp)
// lowers those prices until the pairs are tight and finishes the rows left
// over by shortest augmenting paths, so the job stays exact. The GPU
// auction (max_sum_gpu.cu) is the same method in Jacobi rounds.
//   Sources: D. P. Bertsekas, "The auction algorithm: a distributed
//   relaxation method for the assignment problem", Annals of Operations
//   Research 14, 1988, sec. 2-4 (bids, epsilon-complementary slackness,
//   epsilon-scaling).
//   Guarantee: epsilon-complementary slackness on every assigned row at the
//   last epsilon when `finished`; nothing about the matching's cost by
//   itself (the repair makes it exact).
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
  // of those auctioned); 0: 1 / (4 n).
  double final_fraction = 0;
  double ratio = 16;  // epsilon divided by this from phase to phase, from span / ratio
  // A phase ends with at most this many rows unassigned (the next takes
  // them on; the repair matches the last ones): auction_tail_rows.
  std::int64_t tail_rows = 0;
  double work_limit = 40;  // at most this many times the entries scanned by bids, in all
  // Costs above this are auctioned as this value (job 5's stand-in cost of
  // explicit zeros; the repair takes the true costs).
  double cost_ceiling = std::numeric_limits<double>::infinity();
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
// n / 2000 when 0, none when negative.
vertex_t auction_tail_rows(std::int64_t tail_rows, vertex_t n);

// Minimum cost (benefits -c_ij). Throws invalid_input unless c is square
// with finite costs; a matrix without a perfect matching comes back
// unfinished.
AuctionStart epsilon_scaling_auction(const Csr<double>& c, const AuctionStartOptions& options = {});

}  // namespace matchblas
