// Handshaking matching; see handshake.hpp.
#include "matchers/general/handshake.hpp"

#include <cstdint>
#include <vector>

#include "lib/error.hpp"
#include "lib/omp_threads.hpp"
#include "ops/assign.hpp"
#include "ops/select.hpp"

namespace matchblas {

template <class W>
Matching handshake(const Csr<W>& g, int threads, ops::Backend backend) {
  MATCHBLAS_EXPECTS(g.n_rows == g.n_cols, "handshake needs a general (square) graph");
  const ScopedThreads scope(threads);
  const vertex_t n = g.n_rows;
  Matching m(n);
  std::vector<vertex_t> strong(n);
  std::vector<W> strong_weight(n);
  std::vector<std::uint8_t> shakes(n);
  Csr<W> edges = g;
  while (edges.num_entries() > 0) {
    // Strongest neighbour of every vertex among the remaining edges.
    ops::argmax_rows(edges, ops::ArgmaxMasks<W>{}, std::span(strong), std::span(strong_weight), backend);
    // Update matches: u and v shake hands when each is the other's strongest.
#pragma omp parallel for schedule(static)
    for (vertex_t u = 0; u < n; ++u) {
      const vertex_t v = strong[u];
      shakes[u] = v != no_vertex && strong[v] == u;
    }
    ops::assign(std::span(m.mate), std::span<const std::uint8_t>(shakes), std::span<const vertex_t>(strong));
    // Keep the edges whose endpoints are both free; compact.
    const offset_t before = edges.num_entries();
    edges = ops::select_free_entries(edges, std::span<const vertex_t>(m.mate));
    // The heaviest remaining edge always shakes, unless no entry can win an
    // argmax (NaN or -inf weights): then nothing would ever change.
    if (edges.num_entries() == before)
      throw invalid_input("handshake: no progress; the weights must be numbers above -infinity (NaN or -inf found)");
  }
  return m;
}

template Matching handshake(const Csr<float>&, int, ops::Backend);
template Matching handshake(const Csr<double>&, int, ops::Backend);

}  // namespace matchblas
