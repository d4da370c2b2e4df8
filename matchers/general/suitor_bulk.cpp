// Suitor in bulk-synchronous rounds; see suitor_bulk.hpp.
#include "matchers/general/suitor_bulk.hpp"

#include <cstdint>
#include <limits>
#include <vector>

#include "lib/csr_build.hpp"
#include "lib/error.hpp"
#include "lib/omp_threads.hpp"

namespace matchblas {

template <class W>
Matching suitor_bulk(const Csr<W>& g, int threads, ops::Backend backend) {
  MATCHBLAS_EXPECTS(g.n_rows == g.n_cols, "suitor-bulk needs a general (square) graph");
  const ScopedThreads scope(threads);
  const vertex_t n = g.n_rows;
  // The best offer each vertex holds; -inf with no suitor is beaten by any
  // finite weight, negative ones included (argmax's "no suitor" floor of 0
  // assumes positive weights).
  std::vector<W> ws(n, -std::numeric_limits<W>::infinity());
  std::vector<vertex_t> suitor(n, no_vertex);    // and who made it
  std::vector<std::uint8_t> active(n, 1);
  std::vector<vertex_t> target(n), winner(n);
  std::vector<W> offer(n), winning_offer(n);
  for (std::int64_t proposers = n; proposers > 0;) {
    // Proposals: each active u to its best neighbour whose floor it beats.
    ops::ArgmaxMasks<W> masks;
    masks.active_rows = active;
    masks.floor_weight = ws;
    masks.floor_vertex = suitor;
    ops::argmax_rows(g, masks, std::span(target), std::span(offer), backend);
    // P^T: row v holds the proposals made to v.
    Triples<W> pt;
    pt.reserve(static_cast<std::size_t>(proposers));
    for (vertex_t u = 0; u < n; ++u)
      if (target[u] != no_vertex) pt.push_back(target[u], u, offer[u]);
    if (pt.size() == 0) break;
    const Csr<W> proposals = csr_from_triples(n, n, pt, Duplicates::max, /*drop_zeros=*/false);
    // Conflicts: each v keeps its best proposal (column-wise argmax of P).
    ops::argmax_rows(proposals, ops::ArgmaxMasks<W>{}, std::span(winner), std::span(winning_offer), backend);
    std::vector<std::uint8_t> next(n, 0);
    for (vertex_t v = 0; v < n; ++v) {
      if (winner[v] == no_vertex) continue;
      if (suitor[v] != no_vertex) next[suitor[v]] = 1;  // displaced
      suitor[v] = winner[v];
      ws[v] = winning_offer[v];
    }
    proposers = 0;
    for (vertex_t u = 0; u < n; ++u) {
      if (target[u] != no_vertex && winner[target[u]] != u) next[u] = 1;  // lost: try again
      proposers += next[u];
    }
    active.swap(next);
  }
  Matching m(n);
  for (vertex_t u = 0; u < n; ++u)
    if (suitor[u] != no_vertex && suitor[suitor[u]] == u) m.mate[u] = suitor[u];
  return m;
}

template Matching suitor_bulk(const Csr<float>&, int, ops::Backend);
template Matching suitor_bulk(const Csr<double>&, int, ops::Backend);

}  // namespace matchblas
