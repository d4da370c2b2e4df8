// Edge lists in the greedy order; see edge_order.hpp.
#include "lib/edge_order.hpp"

#include <omp.h>

#include <algorithm>
#include <parallel/algorithm>

#include "lib/greedy_order.hpp"

namespace matchblas {

template <class W>
void sort_in_greedy_order(std::vector<WeightedEdge<W>>& edges, int threads) {
  const auto before = [](const WeightedEdge<W>& a, const WeightedEdge<W>& b) {
    return greedy_precedes(a.w, a.u, a.v, b.w, b.u, b.v);
  };
  const int t = threads > 0 ? threads : omp_get_max_threads();
  if (t > 1 && edges.size() > (std::size_t(1) << 16))
    __gnu_parallel::sort(edges.begin(), edges.end(), before, __gnu_parallel::multiway_mergesort_tag(t));
  else
    std::sort(edges.begin(), edges.end(), before);
}

template <class W>
std::vector<WeightedEdge<W>> edges_in_greedy_order(const Csr<W>& g, int threads) {
  std::vector<WeightedEdge<W>> edges;
  edges.reserve(static_cast<std::size_t>(g.num_entries() / 2));
  for (vertex_t u = 0; u < g.n_rows; ++u)
    for (offset_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k)
      if (u < g.cols[k]) edges.push_back({g.weights[k], u, g.cols[k]});
  sort_in_greedy_order(edges, threads);
  return edges;
}

template <class W>
std::vector<WeightedEdge<W>> edges_in_greedy_order(const Dense<W>& g, int threads) {
  std::vector<WeightedEdge<W>> edges;
  edges.reserve(static_cast<std::size_t>(g.num_edges()));
  for (vertex_t u = 0; u < g.n; ++u)
    for (vertex_t v = u + 1; v < g.n; ++v) edges.push_back({g(u, v), u, v});
  sort_in_greedy_order(edges, threads);
  return edges;
}

#define MATCHBLAS_INSTANTIATE(W)                                                           \
  template void sort_in_greedy_order(std::vector<WeightedEdge<W>>&, int);                  \
  template std::vector<WeightedEdge<W>> edges_in_greedy_order(const Csr<W>&, int);         \
  template std::vector<WeightedEdge<W>> edges_in_greedy_order(const Dense<W>&, int);
MATCHBLAS_INSTANTIATE(float)
MATCHBLAS_INSTANTIATE(double)
#undef MATCHBLAS_INSTANTIATE

}  // namespace matchblas
