// Bottleneck bipartite matching (MC64's jobs 2 and 3): among the
// maximum-cardinality matchings of an m-by-n matrix, one whose smallest
// matched |a_ij| is as large as possible.
//   Algorithm: rows are matched whole (a matrix with more rows than columns
//   is transposed). No matching of every row beats the smallest row maximum
//   U (nor, when the nonempty columns are as many as the rows, the smallest
//   column maximum), so one maximum-cardinality run (Karp-Sipser start,
//   Pothen-Fan) on the entries >= U comes first; when it matches every row,
//   U is the answer (so on every generated solver matrix of bench/). Else a
//   maximum matching of all the entries, grown from it, gives a lower bound,
//   and a binary search over the values between (the median by selection,
//   not a sort) tests a threshold t by Pothen-Fan on the entries >= t,
//   started from the last failed threshold's maximum matching or from the
//   last success's pairs >= t, whichever has more, so that only the rows
//   left free search. When no matching of every row exists (structurally
//   rank deficient), the coarse Dulmage-Mendelsohn blocks (dm_blocks.hpp)
//   split the matrix into three problems of that kind.
//   Source: the threshold method of I. S. Duff and J. Koster, "The design
//   and use of algorithms for permuting large entries to the diagonal of
//   sparse matrices", SIAM J. Matrix Anal. Appl. 20(4), 1999, sec. 3; the
//   bound of the row and column maxima is the start of MC64's job 2.
//   Guarantee: bottleneck-exact (a maximum-cardinality matching; no
//   maximum-cardinality matching has a larger smallest |a_ij|), on any shape
//   and rank; explicit zeros are entries of value 0.
//   Cost: O(nnz) and one maximum-cardinality run when U is reached;
//   otherwise O(log nnz) more runs, each O(nnz * min(m, n)) worst case
//   (O(nnz) a phase). O(m + n + nnz) memory.
#pragma once
#include "lib/csr.hpp"
#include "matchers/bipartite/max_cardinality.hpp"

namespace matchblas {

struct BottleneckMatching {
  BipartiteMates mates;
  double bottleneck = 0;  // the smallest matched |a_ij| (0 when nothing is matched)
  int thresholds_tried = 0;  // maximum-cardinality runs (each on the entries above a threshold, or on all)
};

// Values are read through |.|; explicit zeros are entries (of value 0).
// Throws invalid_input for a malformed Csr, values of the wrong length, or a
// NaN value.
BottleneckMatching bottleneck_matching(const Csr<double>& a);

}  // namespace matchblas
