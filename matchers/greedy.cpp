// Greedy matching; see greedy.hpp.
#include "matchers/greedy.hpp"

#include <omp.h>

#include <algorithm>
#include <parallel/algorithm>
#include <vector>

#include "lib/error.hpp"
#include "lib/greedy_order.hpp"

namespace matchblas {

namespace {

template <class W>
struct Edge {
  W w;
  vertex_t u, v;  // u < v
};

template <class W>
Matching scan_sorted(vertex_t n, std::vector<Edge<W>>& edges, int threads) {
  const auto before = [](const Edge<W>& a, const Edge<W>& b) {
    return greedy_precedes(a.w, a.u, a.v, b.w, b.u, b.v);
  };
  const int t = threads > 0 ? threads : omp_get_max_threads();
  if (t > 1 && edges.size() > (1u << 16)) {
    // Edges are distinct under the order, so every sort gives the same result.
    __gnu_parallel::sort(edges.begin(), edges.end(), before,
                         __gnu_parallel::multiway_mergesort_tag(t));
  } else {
    std::sort(edges.begin(), edges.end(), before);
  }
  Matching m(n);
  for (const Edge<W>& e : edges)
    if (m.is_free(e.u) && m.is_free(e.v)) m.match(e.u, e.v);
  return m;
}

}  // namespace

template <class W>
Matching greedy(const Csr<W>& g, int threads) {
  MATCHBLAS_EXPECTS(g.n_rows == g.n_cols, "greedy needs a general (square) graph");
  std::vector<Edge<W>> edges;
  edges.reserve(static_cast<std::size_t>(g.num_entries() / 2));
  for (vertex_t u = 0; u < g.n_rows; ++u)
    for (offset_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k)
      if (u < g.cols[k]) edges.push_back({g.weights[k], u, g.cols[k]});
  return scan_sorted(g.n_rows, edges, threads);
}

template <class W>
Matching greedy(const Dense<W>& g, int threads) {
  std::vector<Edge<W>> edges;
  edges.reserve(static_cast<std::size_t>(g.num_edges()));
  for (vertex_t u = 0; u < g.n; ++u)
    for (vertex_t v = u + 1; v < g.n; ++v) edges.push_back({g(u, v), u, v});
  return scan_sorted(g.n, edges, threads);
}

template Matching greedy(const Csr<float>&, int);
template Matching greedy(const Csr<double>&, int);
template Matching greedy(const Dense<float>&, int);
template Matching greedy(const Dense<double>&, int);

}  // namespace matchblas
