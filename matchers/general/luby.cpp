// Luby's algorithm on the line graph, OpenMP; see luby.hpp.
#include "matchers/general/luby.hpp"

#include <cstdint>
#include <vector>

#include "lib/error.hpp"
#include "lib/omp_threads.hpp"

namespace matchblas {

template <class W>
Matching luby(const Csr<W>& g, std::uint64_t seed, int threads, LubyStats* stats) {
  MATCHBLAS_EXPECTS(g.n_rows == g.n_cols, "luby needs a general (square) graph");
  const ScopedThreads scope(threads);
  const vertex_t n = g.n_rows;
  Matching m(n);
  std::vector<vertex_t> candidate(n, no_vertex);
  // live[u]: u is free and had a free neighbour when last asked (free
  // neighbours never come back, so a vertex that had none is done).
  std::vector<std::uint8_t> live(n);
#pragma omp parallel for schedule(static)
  for (vertex_t u = 0; u < n; ++u) live[u] = g.degree(u) > 0;
  const offset_t* offsets = g.offsets.data();
  const vertex_t* cols = g.cols.data();
  int rounds = 0;
  for (std::int64_t matched = 1; matched > 0; ++rounds) {
    const LubyRound round(seed, std::uint64_t(rounds));
    // Every live vertex picks its free neighbour of the largest value (the
    // vertices matched last round leave first).
#pragma omp parallel for schedule(dynamic, 512)
    for (vertex_t u = 0; u < n; ++u) {
      if (!live[u]) continue;
      if (m.mate[u] != no_vertex) {
        live[u] = 0;
        continue;
      }
      candidate[u] = luby_candidate(offsets, cols, m.mate.data(), round, u);
      live[u] = candidate[u] != no_vertex;
    }
    // Mutual picks are the locally largest live edges: match them (each end
    // writes its own mate).
    matched = 0;
#pragma omp parallel for schedule(static) reduction(+ : matched)
    for (vertex_t u = 0; u < n; ++u) {
      const vertex_t c = candidate[u];
      if (live[u] && candidate[c] == u) {
        m.mate[u] = c;
        ++matched;
      }
    }
  }
  if (stats) stats->rounds = rounds;
  return m;
}

template Matching luby(const Csr<float>&, std::uint64_t, int, LubyStats*);
template Matching luby(const Csr<double>&, std::uint64_t, int, LubyStats*);

}  // namespace matchblas
