// An independent checker for 4-cycle local optimality of a bipartite
// matching (written here, sharing no code with matchers/bipartite/): the
// exchange of two matched entries (i, j), (k, l) of an m-by-n matrix for
// (i, l), (k, j), both entries of a, gains |a_il| + |a_kj| - |a_ij| - |a_kl|.
//   largest_4_cycle   brute force over every pair of matched rows, entries
//                     looked up in a hash map (the first entry of a row for
//                     a repeated column, as the pre-pass's report reads it).
//                     O(r^2) pairs for r matched rows.
#pragma once
#include <vector>

#include "lib/csr.hpp"

namespace matchblas::check {

struct FourCycle {
  vertex_t row = -1, other = -1;  // -1: no pair of matched rows can be exchanged
  double gain = 0;                // the largest gain (negative when every exchange loses)
};

// row_mate[i]: the column matched to row i, -1 when unmatched.
FourCycle largest_4_cycle(const Csr<double>& a, const std::vector<vertex_t>& row_mate);

}  // namespace matchblas::check
