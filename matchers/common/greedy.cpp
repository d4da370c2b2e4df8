// Greedy matching; see greedy.hpp.
#include "matchers/common/greedy.hpp"

#include <vector>

#include "lib/edge_order.hpp"
#include "lib/error.hpp"

namespace matchblas {

namespace {

template <class W>
Matching scan(vertex_t n, const std::vector<WeightedEdge<W>>& edges) {
  Matching m(n);
  for (const WeightedEdge<W>& e : edges)
    if (m.is_free(e.u) && m.is_free(e.v)) m.match(e.u, e.v);
  return m;
}

}  // namespace

template <class W>
Matching greedy(const Csr<W>& g, int threads) {
  MATCHBLAS_EXPECTS(g.n_rows == g.n_cols, "greedy needs a general (square) graph");
  return scan(g.n_rows, edges_in_greedy_order(g, threads));
}

template <class W>
Matching greedy(const Dense<W>& g, int threads) {
  return scan(g.n, edges_in_greedy_order(g, threads));
}

template Matching greedy(const Csr<float>&, int);
template Matching greedy(const Csr<double>&, int);
template Matching greedy(const Dense<float>&, int);
template Matching greedy(const Dense<double>&, int);

}  // namespace matchblas
