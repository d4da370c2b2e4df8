// An epsilon-optimal start for the repair tests: Bertsekas's forward
// auction with epsilon-scaling, sequential (Gauss-Seidel: one bid at a
// time), on a square cost matrix with a perfect matching. Its prices and
// matching satisfy epsilon-complementary slackness for the last epsilon,
// as the GPU auction's do (max_sum_gpu.cu), so the host repair can be
// tested and measured without a GPU.
//   Source: D. P. Bertsekas, "The auction algorithm: a distributed
//   relaxation method for the assignment problem", Annals of Operations
//   Research 14, 1988, sec. 2-4.
//   Cost: pseudo-polynomial; a few passes over the entries per phase on
//   the test and bench matrices.
#pragma once
#include <vector>

#include "lib/csr.hpp"
#include "matchers/bipartite/max_cardinality.hpp"

namespace matchblas::check {

struct AuctionStart {
  std::vector<double> price;  // p_j; the repair's column duals are v_j = -p_j
  BipartiteMates mates;       // every row assigned but at most `tail`
  double epsilon = 0;         // the last phase's
};

// Minimum cost (benefits -c_ij); epsilon from span / 4 down by 4 to
// final_fraction * span (span: the costs' largest minus smallest); a phase
// ends with at most `tail` rows unassigned (the GPU auction's tail), the
// next takes them on. Throws invalid_input unless c is square with a
// perfect matching.
AuctionStart epsilon_optimal_auction(const Csr<double>& c, double final_fraction, vertex_t tail = 0);

}  // namespace matchblas::check
