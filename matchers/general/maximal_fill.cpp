// Greedy completion of a matching to a maximal one; see maximal_fill.hpp.
#include "matchers/general/maximal_fill.hpp"

#include <vector>

#include "lib/error.hpp"
#include "lib/edge_order.hpp"

namespace matchblas {

template <class W>
void fill_maximal(const Csr<W>& g, Matching& m) {
  MATCHBLAS_EXPECTS(g.n_rows == g.n_cols, "fill_maximal needs a general (square) graph");
  MATCHBLAS_EXPECTS(m.size() == g.n_rows, "fill_maximal: the matching must have one entry per vertex");
  std::vector<WeightedEdge<W>> free_edges;
  for (vertex_t u = 0; u < g.n_rows; ++u) {
    if (!m.is_free(u)) continue;
    for (offset_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k)
      if (u < g.cols[k] && m.is_free(g.cols[k])) free_edges.push_back({g.weights[k], u, g.cols[k]});
  }
  sort_in_greedy_order(free_edges, 1);
  for (const WeightedEdge<W>& e : free_edges)
    if (m.is_free(e.u) && m.is_free(e.v)) m.match(e.u, e.v);
}

template void fill_maximal(const Csr<float>&, Matching&);
template void fill_maximal(const Csr<double>&, Matching&);

}  // namespace matchblas
