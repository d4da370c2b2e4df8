// Bottleneck bipartite matching (MC64's jobs 2 and 3): among the
// maximum-cardinality matchings of an m-by-n matrix, one whose smallest
// matched |a_ij| is as large as possible.
//   Algorithm: rows are matched whole (a matrix with more rows than columns
//   is transposed). No matching of every row beats the smallest row maximum
//   U (nor, when the nonempty columns are as many as the rows, the smallest
//   column maximum), so one maximum-cardinality run (Karp-Sipser start,
//   Pothen-Fan) on the entries >= U comes first; when it matches every row,
//   U is the answer (so on every generated solver matrix of bench/). Else a
//   binary search over the values below U (median of a sample, no sort),
//   down from U and up from a maximum matching of all the entries, tests a
//   threshold t by Pothen-Fan on the entries >= t, started from the last
//   failed threshold's maximum matching or the last success's pairs >= t,
//   whichever has more, so that only the rows left free search. Once a
//   failed threshold (U first) leaves at most options.widest_limit rows
//   free, widest augmenting paths from them finish it: Dijkstra-like
//   searches with a heap, the bound lowered to each path's width (MC64's
//   job 2 searches, here only for the last few rows: from thousands, as MC64
//   runs them, they are slow on meshes). A structurally rank-deficient
//   matrix is split by the coarse Dulmage-Mendelsohn blocks (dm_blocks.hpp)
//   into three problems of that kind.
//   Source: the threshold method of I. S. Duff and J. Koster, "The design
//   and use of algorithms for permuting large entries to the diagonal of
//   sparse matrices", SIAM J. Matrix Anal. Appl. 20(4), 1999, sec. 3; the
//   bound of the row and column maxima and the widest augmenting paths are
//   MC64's job 2 (I. S. Duff and J. Koster, "On algorithms for permuting
//   large entries to the diagonal of a sparse matrix", SIAM J. Matrix Anal.
//   Appl. 22(4), 2001, sec. 3).
//   Guarantee: bottleneck-exact (a maximum-cardinality matching; no
//   maximum-cardinality matching has a larger smallest |a_ij|), on any shape
//   and rank; explicit zeros are entries of value 0. Deterministic.
//   Cost: O(nnz) and one maximum-cardinality run when U is reached; else
//   O(log nnz) more runs, each O(nnz * min(m, n)) worst case (O(nnz) a
//   phase), and at most widest_limit searches of O(nnz log nnz) each.
//   O(m + n + nnz) memory: a pattern copy of the entries >= a threshold
//   (4 bytes an entry); the transpose and the blocks when rank deficient.
#pragma once
#include "lib/csr.hpp"
#include "matchers/bipartite/max_cardinality.hpp"

namespace matchblas {

struct BottleneckMatching {
  BipartiteMates mates;
  double bottleneck = 0;  // the smallest matched |a_ij| (0 when nothing is matched)
  int thresholds_tried = 0;  // maximum-cardinality runs (each on the entries above a threshold, or on all)
  int widest_searches = 0;   // widest augmenting path searches
};

struct BottleneckOptions {
  // Widest augmenting paths take over once a failed threshold leaves at
  // most this many rows free (0: thresholds only; a huge value: widest
  // paths only, from the first threshold on). 16: on matrices whose bound
  // is not reached (dev machine, 2 shared cores; stencil2d:300 and :1000,
  // stencil3d:40 and :60 with the even columns' values x1e3 and one column
  // more), 4, 8 and 16 were within noise, 0 was 1.2-2.5x slower, 32 1.7x
  // (stencil2d:1000) and 64 4.2x (stencil2d:300) slower: more paths, each
  // scanning most of the mesh.
  vertex_t widest_limit = 16;
};

// Values are read through |.|; explicit zeros are entries (of value 0).
// Throws invalid_input for a malformed Csr, values of the wrong length, or a
// value that is not finite (check_bipartite_values, as prepass()).
BottleneckMatching bottleneck_matching(const Csr<double>& a, const BottleneckOptions& options = {});

}  // namespace matchblas
