// Handshaking matching; see handshake.hpp.
#include "matchers/general/handshake.hpp"

#include <cstdint>
#include <utility>
#include <vector>

#include "lib/error.hpp"
#include "lib/omp_threads.hpp"
#include "ops/assign.hpp"
#include "ops/graphblas_graph.hpp"
#include "ops/select.hpp"

namespace matchblas {

namespace {

// The passes on `edges`: a Csr (plain or gpu backend) or a GraphBlasGraph
// (graphblas backend), both taken by the same ops.
template <class W, class Graph>
Matching handshake_passes(Graph edges, vertex_t n, ops::Backend backend) {
  Matching m(n);
  std::vector<vertex_t> strong(n);
  std::vector<W> strong_weight(n);
  std::vector<std::uint8_t> shakes(n);
  while (edges.num_entries() > 0) {
    // Strongest neighbour of every vertex among the remaining edges.
    ops::argmax_rows(edges, ops::ArgmaxMasks<W>{}, std::span(strong), std::span(strong_weight), backend);
    // Update matches: u and v shake hands when each is the other's strongest.
#pragma omp parallel for schedule(static)
    for (vertex_t u = 0; u < n; ++u) {
      const vertex_t v = strong[u];
      shakes[u] = v != no_vertex && strong[v] == u;
    }
    ops::assign(std::span(m.mate), std::span<const std::uint8_t>(shakes), std::span<const vertex_t>(strong), backend);
    // Keep the edges whose endpoints are both free; compact.
    const offset_t before = edges.num_entries();
    edges = ops::select_free_entries(edges, std::span<const vertex_t>(m.mate), backend);
    // The heaviest remaining edge always shakes, unless no entry can win an
    // argmax (NaN or -inf weights): then nothing would ever change.
    if (edges.num_entries() == before)
      throw invalid_input("handshake: no progress; the weights must be numbers above -infinity (NaN or -inf found)");
  }
  return m;
}

}  // namespace

template <class W>
Matching handshake(const Csr<W>& g, int threads, ops::Backend backend) {
  MATCHBLAS_EXPECTS(g.n_rows == g.n_cols, "handshake needs a general (square) graph");
  const ScopedThreads scope(threads);
  return ops::with_backend_graph(g, backend, [&](auto&& graph) {
    return handshake_passes<W>(std::forward<decltype(graph)>(graph), g.n_rows, backend);
  });
}

template Matching handshake(const Csr<float>&, int, ops::Backend);
template Matching handshake(const Csr<double>&, int, ops::Backend);

}  // namespace matchblas
