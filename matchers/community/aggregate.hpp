// What the Louvain levels share (louvain.hpp): the input check, dense
// renumbering of labels, the graph of the communities, and the sequential
// local moves (a level of louvain, and the final refinement of both
// entries).
#pragma once
#include <vector>

#include "lib/csr.hpp"
#include "lib/types.hpp"

namespace matchblas::community {

// Throws invalid_input unless g is a consistent square CSR, symmetric (each
// row's entries, loops aside, mirrored with equal weights; checked against
// ops::transpose) with non-negative finite weights, and resolution > 0.
// O(entries log degree).
void check_input(const Csr<double>& g, double resolution);

// Renumbers label to 0..k-1 in the order of first appearance (vertex 0's
// community is 0); returns k.
vertex_t renumber(std::vector<vertex_t>& label);

// The graph whose vertex c is community c of label (0..communities-1):
// w(c, d) = sum of w(u, v) over u in c, v in d; a community's loop is the
// weight inside it, each edge once (an entry u != v counts half, a loop of
// u whole), so the weighted degrees are the communities' degree sums and
// the modularity of any coarser partition is unchanged. Rows sorted by
// column; the same graph at any thread count (each row summed in member
// order). O(n + entries log degree) work, communities in parallel.
Csr<double> aggregate(const Csr<double>& g, const std::vector<vertex_t>& label, vertex_t communities,
                      int threads);

// The state of local moves on one graph.
struct MoveState {
  std::vector<vertex_t> label;  // community per vertex (ids < n)
  std::vector<double> k;        // weighted degree per vertex
  std::vector<double> tot;      // degree sum per community
  double two_m = 0;
  double gamma = 1;
};
MoveState singletons(const Csr<double>& g, double gamma);
MoveState from_labels(const Csr<double>& g, std::vector<vertex_t> label, double gamma);

// Passes over the vertices in order 0..n-1, each moved to the community
// of the largest gain when that beats its own (louvain.hpp's rule), until a pass gains less modularity than
// `threshold` (0: until a pass moves nothing). Returns the moves; adds the
// passes to *passes.
vertex_t local_moves(const Csr<double>& g, MoveState& s, double threshold, int* passes);

}  // namespace matchblas::community
