// Maximum-cardinality matching of a bipartite graph given as an m-by-n Csr
// (rows on one side, columns on the other; MC64's job 1 without the permutation).
//   Algorithm: a one-sided Karp-Sipser start (a column left with one
//   unmatched row takes it, cascading; other rows take their first free
//   column; Karp and Sipser, FOCS 1981), then Pothen-Fan phases: depth-first
//   augmenting-path searches with one-step lookahead from every free row,
//   columns visited at most once per phase, a row's entries scanned
//   forwards and backwards in alternate phases (fairness: Duff, Kaya and
//   Ucar, "Design, implementation, and analysis of maximum transversal
//   algorithms", ACM TOMS 38(2), 2011).
//   Source: A. Pothen and C.-J. Fan, "Computing the block triangular form of a
//   sparse matrix", ACM Trans. Math. Softw. 16(4), 1990, sec. 3 (algorithm MC21-style
//   DFS with lookahead); I. S. Duff, "On algorithms for obtaining a maximum
//   transversal", ACM TOMS 7(3), 1981.
//   Guarantee: cardinality (a maximum matching; for a structurally singular
//   matrix a maximum partial matching, its size the structural rank).
//   Cost: O(nnz * min(m, n)) worst case, O(m + n + nnz) memory.
#pragma once
#include <string>
#include <vector>

#include "lib/csr.hpp"
#include "lib/types.hpp"
#include "ops/gpu/device_graph.hpp"

namespace matchblas {

struct BipartiteMates {
  std::vector<vertex_t> row_mate;  // n_rows entries, column matched to row i or -1
  std::vector<vertex_t> col_mate;  // n_cols entries, row matched to column j or -1
  vertex_t matched = 0;
};

// Flips the augmenting path that ends at the free column j: row
// col_pred[j] takes j, the column it held goes to that column's col_pred,
// and so on back to a row that was free; one more matched pair.
template <class Pred>
void flip_augmenting_path(BipartiteMates& m, const Pred& col_pred, vertex_t j) {
  for (;;) {
    const vertex_t i = col_pred[j], previous = m.row_mate[i];
    m.row_mate[i] = j;
    m.col_mate[j] = i;
    if (previous == no_vertex) break;
    j = previous;
  }
  ++m.matched;
}

// Weights are ignored (only the pattern counts). Throws invalid_input when the
// Csr is malformed (offsets not monotone, column index out of range).
template <class W>
BipartiteMates max_cardinality_bipartite(const Csr<W>& a);

// The same from a valid matching `start` of a (its own start skipped):
// the result contains every row and column `start` matched.
template <class W>
BipartiteMates max_cardinality_bipartite(const Csr<W>& a, BipartiteMates start);

// The same from `start` by breadth-first phases (max_cardinality_bfs.cpp:
// vertex-disjoint alternating trees from every free row, short paths), the
// CPU form of the GPU search below; the same matching on any number of
// threads (large levels on teams of 8 or more). Augmenting from a
// heavy start, it keeps more of the start matched than Pothen-Fan. Throws
// invalid_input when the start's arrays do not fit a or do not name each
// other back (not a matching).
template <class W>
BipartiteMates max_cardinality_bipartite_bfs(const Csr<W>& a, BipartiteMates start);
namespace detail {
// The same, its levels of at least team_rows rows on the team when OpenMP
// gives at least team_threads threads (the tests lower both): the same
// matching either way.
template <class W>
BipartiteMates max_cardinality_bipartite_bfs(const Csr<W>& a, BipartiteMates start, std::size_t team_rows,
                                             int team_threads);
}  // namespace detail

// The same on GPU opt.device (max_cardinality_gpu.cu: a greedy start, then
// phases of alternating BFS from every free row at once with vertex-disjoint
// trees, APFB of Deveci, Kaya, Ucar and Catalyurek, Euro-Par 2013): a
// maximum matching, its size the same, which one not deterministic. Throws
// error without a GPU (or in a build without CUDA), out_of_memory when the
// graph does not fit; times, when given, gets upload, match and download;
// counts the phases and levels searched.
struct GpuSearchCounts {
  long long phases = 0;  // BFS phases (the last one finds no path or has no root)
  long long levels = 0;  // BFS levels over all phases
};
BipartiteMates max_cardinality_bipartite_gpu(const Csr<double>& a, const GpuOptions& opt = {},
                                             GpuTimes* times = nullptr, GpuSearchCounts* counts = nullptr);

// Throws invalid_input unless a is a well-formed m-by-n Csr (offsets from 0,
// non-decreasing, as many as rows + 1; column indices in range).
template <class W>
void check_bipartite_csr(const Csr<W>& a);

// The same, and one finite value per entry; `who` starts the message, which
// names the first entry that is not finite.
void check_bipartite_values(const Csr<double>& a, const std::string& who);

// A power of two p with |w| p < 2^512 for every (finite) w: 1 when the
// largest |w| is below 2^512 already (values unchanged), else the one that
// brings it into [2^511, 2^512). Job 4 and AWPM multiply the moduli by it
// before they add them: sums of up to 2^31 of them, and the differences of
// such sums, then stay finite (near DBL_MAX they overflowed to inf, and the
// matching came back far from the heaviest). A power of two scales exactly,
// so the heaviest matching is the same; only moduli below 2^-562 times the
// largest lose bits (at most 2^-562 of the largest each).
double moduli_sum_scale(const std::vector<double>& w);
// The same from the largest modulus itself (a caller's own pass found it).
double moduli_sum_scale_of_largest(double largest);

}  // namespace matchblas
