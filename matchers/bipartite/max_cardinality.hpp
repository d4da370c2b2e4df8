// Maximum-cardinality matching of a bipartite graph given as an m-by-n Csr
// (rows on one side, columns on the other; MC64's job 1 without the permutation).
//   Algorithm: greedy start (first free column of each row), then Pothen-Fan
//   phases: depth-first augmenting-path searches with one-step lookahead from
//   every free row, columns visited at most once per phase.
//   Source: A. Pothen and C.-J. Fan, "Computing the block triangular form of a
//   sparse matrix", ACM Trans. Math. Softw. 16(4), 1990, sec. 3 (algorithm MC21-style
//   DFS with lookahead); I. S. Duff, "On algorithms for obtaining a maximum
//   transversal", ACM TOMS 7(3), 1981.
//   Guarantee: cardinality (a maximum matching; for a structurally singular
//   matrix a maximum partial matching, its size the structural rank).
//   Cost: O(nnz * min(m, n)) worst case, O(m + n + nnz) memory.
#pragma once
#include <vector>

#include "lib/csr.hpp"
#include "lib/types.hpp"

namespace matchblas {

struct BipartiteMates {
  std::vector<vertex_t> row_mate;  // n_rows entries, column matched to row i or -1
  std::vector<vertex_t> col_mate;  // n_cols entries, row matched to column j or -1
  vertex_t matched = 0;
};

// Weights are ignored (only the pattern counts). Throws invalid_input when the
// Csr is malformed (offsets not monotone, column index out of range).
template <class W>
BipartiteMates max_cardinality_bipartite(const Csr<W>& a);

}  // namespace matchblas
