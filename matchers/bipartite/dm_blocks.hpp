// The coarse Dulmage-Mendelsohn decomposition of an m-by-n pattern, from one
// of its maximum matchings: the vertical block (the rows reachable from a
// free row by alternating paths, and their columns: more rows than
// columns), the horizontal block (the columns reachable from a free column,
// and their rows: more columns than rows) and the square block (the rest,
// perfectly matched). Every maximum matching pairs rows and columns of the
// same block only, and matches every row of the horizontal block, the whole
// square block and every column of the vertical block; an entry between
// blocks joins a row of a lower block to a column of a higher one
// (horizontal < square < vertical).
//   Source: A. L. Dulmage and N. S. Mendelsohn, "Coverings of bipartite
//   graphs", Canad. J. Math. 10, 1958; computed by alternating searches as in
//   A. Pothen and C.-J. Fan, "Computing the block triangular form of a sparse
//   matrix", ACM Trans. Math. Softw. 16(4), 1990 (the coarse decomposition).
//   Cost: O(m + n + nnz) work and memory (two alternating breadth-first
//   searches); a block's matrix O(its entries) more.
#pragma once
#include <vector>

#include "lib/csr.hpp"
#include "matchers/bipartite/max_cardinality.hpp"

namespace matchblas {

struct DmBlocks {
  enum Block : unsigned char { horizontal = 0, square = 1, vertical = 2 };
  std::vector<unsigned char> row_block, col_block;  // each row's and column's block
  std::vector<vertex_t> rows[3], cols[3];           // each block's rows and columns, increasing
  std::vector<vertex_t> local_row, local_col;       // a row's (column's) index within its block
};

// `at` is a's transpose, `maximum` a maximum matching of a (not checked).
template <class W>
DmBlocks coarse_dm_blocks(const Csr<W>& a, const Csr<W>& at, const BipartiteMates& maximum);

// Block b of a as its own matrix, rows and columns renumbered in order,
// entries to other blocks left out. With `transposed`, `a` is the
// transpose of the decomposed matrix and so is the result (rows: block b's
// columns).
template <class W>
Csr<W> dm_block(const Csr<W>& a, const DmBlocks& d, int b, bool transposed = false);

// Adds the matching s of dm_block(..., b, transposed) to r, a matching of
// the whole (untransposed) matrix.
void add_dm_block(BipartiteMates& r, const BipartiteMates& s, const DmBlocks& d, int b, bool transposed = false);

}  // namespace matchblas
