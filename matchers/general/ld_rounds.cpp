// Locally-Dominant matching in synchronous rounds; see ld_rounds.hpp.
#include "matchers/general/ld_rounds.hpp"

#include <cstdint>
#include <vector>

#include "lib/error.hpp"
#include "lib/omp_threads.hpp"
#include "ops/assign.hpp"
#include "ops/graphblas_graph.hpp"

namespace matchblas {

namespace {

// The rounds on g: a Csr (plain or gpu backend) or a GraphBlasGraph
// (graphblas backend), both taken by the same ops.
template <class W, class Graph>
Matching ld_rounds_on(const Graph& g, vertex_t n, ops::Backend backend) {
  Matching m(n);
  std::vector<vertex_t> candidate(n, no_vertex);
  std::vector<W> candidate_weight(n);
  std::vector<vertex_t> fresh(n);
  std::vector<std::uint8_t> is_free(n, 1), active(n, 1), mutual(n, 0);
  for (;;) {
    ops::ArgmaxMasks<W> masks;
    masks.active_rows = active;
    masks.eligible_cols = is_free;
    // Inactive rows keep their candidate: argmax writes -1 there, so merge.
    ops::argmax_rows(g, masks, std::span(fresh), std::span(candidate_weight), backend);
    ops::assign(std::span(candidate), std::span<const std::uint8_t>(active), std::span<const vertex_t>(fresh),
                backend);
    std::int64_t matched = 0;
#pragma omp parallel for schedule(static) reduction(+ : matched)
    for (vertex_t u = 0; u < n; ++u) {
      const vertex_t v = candidate[u];
      mutual[u] = is_free[u] && v != no_vertex && candidate[v] == u;
      matched += mutual[u];
    }
    if (matched == 0) break;
    ops::assign(std::span(m.mate), std::span<const std::uint8_t>(mutual), std::span<const vertex_t>(candidate),
                backend);
    // Poll: a free vertex recomputes when its candidate has just been matched.
#pragma omp parallel for schedule(static)
    for (vertex_t u = 0; u < n; ++u) {
      is_free[u] = m.mate[u] == no_vertex;
      const vertex_t v = candidate[u];
      active[u] = is_free[u] && v != no_vertex && m.mate[v] != no_vertex;
    }
  }
  return m;
}

}  // namespace

template <class W>
Matching ld_rounds(const Csr<W>& g, int threads, ops::Backend backend) {
  MATCHBLAS_EXPECTS(g.n_rows == g.n_cols, "ld-rounds needs a general (square) graph");
  const ScopedThreads scope(threads);
  return ops::with_backend_graph(g, backend, [&](auto&& graph) {
    return ld_rounds_on<W>(graph, g.n_rows, backend);
  });
}

template Matching ld_rounds(const Csr<float>&, int, ops::Backend);
template Matching ld_rounds(const Csr<double>&, int, ops::Backend);

}  // namespace matchblas
