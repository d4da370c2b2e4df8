// Bottleneck bipartite matching (MC64's jobs 2 and 3): among the
// maximum-cardinality matchings of an m-by-n matrix, one whose smallest
// matched |a_ij| is as large as possible.
//   Algorithm: the cardinality r of a maximum matching of the whole pattern,
//   then a binary search over the distinct values |a_ij|: a threshold t is
//   feasible when the entries with |a_ij| >= t still have a matching of size
//   r (Pothen-Fan, started from the last feasible matching's entries that
//   survive the threshold).
//   Source: the threshold method of I. S. Duff and J. Koster, "The design and
//   use of algorithms for permuting large entries to the diagonal of sparse
//   matrices", SIAM J. Matrix Anal. Appl. 20(4), 1999, sec. 3 (MC64's job 2
//   refines the threshold with partial matchings; job 3 here runs the same
//   search).
//   Guarantee: bottleneck-exact (a maximum-cardinality matching; no
//   maximum-cardinality matching has a larger smallest |a_ij|).
//   Cost: O(log nnz) maximum-cardinality runs of O(nnz * min(m, n)) worst
//   case each, plus a sort of the values; O(nnz) extra memory.
#pragma once
#include "lib/csr.hpp"
#include "matchers/bipartite/max_cardinality.hpp"

namespace matchblas {

struct BottleneckMatching {
  BipartiteMates mates;
  double bottleneck = 0;  // the smallest matched |a_ij| (0 when nothing is matched)
  int thresholds_tried = 0;
};

// Values are read through |.|; explicit zeros are entries (of value 0).
BottleneckMatching bottleneck_matching(const Csr<double>& a);

}  // namespace matchblas
