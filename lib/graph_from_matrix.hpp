// The graph-from-matrix rules (docs/ARCHITECTURE.md "Graphs"; M. Naim, F. Manne,
// M. Halappanavar, A. Tumeo, J. Langguth, "Optimizing approximate weighted
// matching on Nvidia Kepler K40", HiPC 2015, sec. 5.1):
//   general_graph    square A -> general graph: vertex i = row i; weight of
//                    {u, v} = max(|a_uv|, |a_vu|) after duplicate entries are
//                    summed; the diagonal is ignored; zero weights dropped.
//                    Symmetric and skew-symmetric files stand for both
//                    triangles. A pattern file's entry (i, j) gets the weight
//                    U(0,1] drawn from (rules.pattern_seed, min(i,j), max(i,j)),
//                    the same for both directions.
//   bipartite_graph  any m x n A -> the m x n Csr of |A| (rows on one side,
//                    columns on the other), duplicates summed, zeros dropped,
//                    symmetric files expanded; the diagonal is kept.
//   matrix_as_given  any m x n A -> its m x n Csr with the signed values,
//                    duplicates summed, explicit zeros kept (also sums that
//                    cancel), symmetric and skew-symmetric files expanded,
//                    pattern entries 1 (the diagonal pre-pass's input).
//   bipartite_as_general  that bipartite graph as a general graph on m + n
//                    vertices (row i -> vertex i, column j -> vertex m + j), so
//                    every general-graph matcher runs on it.
//   community_graph  square A -> the weighted undirected graph community
//                    detection takes: as general_graph, but w(u, v) =
//                    max(a_uv, a_vu) of the values as given (a negative one
//                    is refused, naming the entry: modularity needs
//                    non-negative weights) and 1 for a pattern file's
//                    entries; the diagonal ignored, zeros dropped.
//   complete_graph_from_matrix  a square matrix (usually an array file) -> a
//                    complete graph, w(u,v) = max(|a_uv|, |a_vu|) after
//                    duplicates are summed, zero diagonal; missing entries
//                    (coordinate files) are weight 0.
// Weights must be finite (the reader already refuses NaN and Inf; a sum of
// duplicates that overflows W is an invalid_input). Cost O(entries + n)
// (O(n^2) for the complete graph).
// Before allocating, each builder estimates the memory it needs
// (graph_build_bytes) and throws out_of_memory naming the size when that
// exceeds the memory available (lib/memory_budget.hpp; a file may declare
// 2^31 rows in three lines).
#pragma once
#include <cstdint>

#include "lib/csr.hpp"
#include "lib/dense.hpp"
#include "lib/mmio.hpp"

namespace matchblas {

struct GraphRules {
  // Seed of the weights given to pattern-only matrices. Fixed and documented,
  // so that every tool reading the same file sees the same graph.
  std::uint64_t pattern_seed = 20201;
};

// The peak bytes a builder holds beyond its input matrix, for a file with
// this header (every stored entry counted, symmetric files expanded, as if
// no duplicate merged): `general` (general_graph), `bipartite`
// (bipartite_graph then bipartite_as_general: the bipartite view),
// `as_given` (matrix_as_given), `complete` (complete_graph_from_matrix).
// weight_bytes: sizeof(W). The estimates follow the builders' arrays
// (triples, csr_from_triples' entries and output) and were checked against
// measured peaks (bench/RESULTS.md, "Memory estimates").
enum class GraphBuild { general, bipartite, as_given, complete };
double graph_build_bytes(const MmHeader& h, GraphBuild build, std::size_t weight_bytes);

template <class W>
Csr<W> general_graph(const MmMatrix& a, const GraphRules& rules = {});

Csr<double> community_graph(const MmMatrix& a);
// |v| as a weight of type W, or invalid_input "entry (r+b, c+b) has the
// weight V (duplicates summed), which a float weight cannot hold" when it is
// not finite in W: the builders' check (also the distributed reader's,
// datasets/distributed/); b: the base the message numbers from
// (MmMatrix::shown_base); summed: whether v may be a sum of duplicates
// (false for a dense array's entry, whose message then does not say so).
template <class W>
W checked_weight(double v, vertex_t r, vertex_t c, int shown_base = 1, bool summed = true);

template <class W>
Csr<W> bipartite_graph(const MmMatrix& a, const GraphRules& rules = {});

Csr<double> matrix_as_given(const MmMatrix& a);

template <class W>
Csr<W> bipartite_as_general(const Csr<W>& b);

template <class W>
Dense<W> complete_graph_from_matrix(const MmMatrix& a, const GraphRules& rules = {});

}  // namespace matchblas
