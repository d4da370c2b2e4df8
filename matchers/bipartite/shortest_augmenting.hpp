// Minimum-cost matching of every row of an m-by-n cost matrix (m <= n, full
// row rank), with dual variables: the engine of MC64's jobs 4 and 5.
//   Algorithm: successive shortest augmenting paths. Start as MC64 does:
//   (square) each row's smallest cost r_i, then column duals
//   v_j = min_i (c_ij - r_i) (0 when m < n: a free column keeps v_j = 0
//   and every v_j <= 0), row duals u_i = min_j (c_ij - v_j), each
//   row matched to a free tight column, or to a tight column whose row can
//   move to another free tight column. Then, for every free row, a Dijkstra
//   search over the reduced costs c_ij - u_i - v_j >= 0 (an indexed binary
//   heap on columns, the columns at the current smallest distance kept
//   on a stack beside it as MC64's Q2; a matched column leads to its row),
//   stopped as soon as
//   no column left in the heap is closer than the best free column reached;
//   the duals of the settled columns and their rows move by the distances,
//   which keeps every reduced cost non-negative and the matched ones zero,
//   and the path is flipped.
//   Source: I. S. Duff and J. Koster, "On algorithms for permuting large
//   entries to the diagonal of a sparse matrix", SIAM J. Matrix Anal. Appl.
//   22(4), 2001, sec. 4 (MC64's weighted algorithm, after the Hungarian
//   method of Kuhn 1955 with the sparse Dijkstra of Carpaneto, Martello and
//   Toth 1988; R. Jonker and A. Volgenant, "A shortest augmenting path
//   algorithm for dense and sparse linear assignment problems", Computing
//   38, 1987 for the initialisation by column and row minima).
//   Guarantee: exact. Every row is matched; the sum of the matched costs is
//   the minimum over all row-perfect matchings; on return c_ij - u_i - v_j
//   >= 0 for every entry (up to rounding) and = 0 on the matched entries.
//   Cost: O(m (nnz + n) log n) worst case; far less in practice (the
//   searches stop early and most rows are matched by the initialisation).
//   O(m + n) extra memory besides the result.
#pragma once
#include <vector>

#include "lib/csr.hpp"
#include "matchers/bipartite/max_cardinality.hpp"

namespace matchblas {

struct DualMatching {
  BipartiteMates mates;
  std::vector<double> u;  // n_rows row duals
  std::vector<double> v;  // n_cols column duals
  double cost = 0;        // sum of the matched costs
  std::int64_t searches = 0;  // Dijkstra searches (rows the initialisation left free)
};

// `cost` holds finite costs (any sign). Throws invalid_input when some row
// cannot be matched (the matrix does not have full row rank: use
// min_cost_max_cardinality).
DualMatching min_cost_row_perfect(const Csr<double>& cost);

// Minimum-cost matching among the maximum-cardinality matchings of any
// m-by-n cost matrix (rectangular or structurally singular). First the
// searches of min_cost_row_perfect on the smaller side, which succeed
// whenever that side can be matched whole (the usual case, with no separate
// maximum matching); when one fails, the rows and
// columns are split by the coarse Dulmage-Mendelsohn decomposition of a
// maximum matching into the horizontal, square and vertical blocks, which
// every maximum matching respects; each block is solved by
// min_cost_row_perfect (the vertical one transposed), and the blocks' duals
// are shifted by constants so that the entries between blocks keep
// non-negative reduced costs. Exact; duals feasible on every entry.
DualMatching min_cost_max_cardinality(const Csr<double>& cost);

}  // namespace matchblas
