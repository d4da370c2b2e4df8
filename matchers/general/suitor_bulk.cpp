// Suitor in bulk-synchronous rounds; see suitor_bulk.hpp.
#include "matchers/general/suitor_bulk.hpp"

#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "lib/error.hpp"
#include "lib/omp_threads.hpp"
#include "ops/graphblas_graph.hpp"
#include "ops/transpose.hpp"

namespace matchblas {

namespace {

// P: row u holds u's proposal (target[u], offer[u]) when it made one.
template <class W>
Csr<W> proposals(const std::vector<vertex_t>& target, const std::vector<W>& offer) {
  const auto n = vertex_t(target.size());
  Csr<W> p;
  p.n_rows = p.n_cols = n;
  p.offsets.resize(std::size_t(n) + 1);
  for (vertex_t u = 0; u < n; ++u) {
    p.offsets[std::size_t(u) + 1] = p.offsets[std::size_t(u)];
    if (target[std::size_t(u)] == no_vertex) continue;
    ++p.offsets[std::size_t(u) + 1];
    p.cols.push_back(target[std::size_t(u)]);
    p.weights.push_back(offer[std::size_t(u)]);
  }
  return p;
}

// The rounds on g: a Csr (plain or gpu backend) or a GraphBlasGraph
// (graphblas backend), both taken by the same ops.
template <class W, class Graph>
Matching suitor_rounds(const Graph& g, vertex_t n, ops::Backend backend) {
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
    Csr<W> p = proposals(target, offer);
    if (p.num_entries() == 0) break;
    // Conflicts: each v keeps its best proposal, the argmax of row v of P^T.
    if constexpr (std::is_same_v<Graph, Csr<W>>) {
      const Csr<W> pt = ops::transpose(p, backend);
      ops::argmax_rows(pt, ops::ArgmaxMasks<W>{}, std::span(winner), std::span(winning_offer), backend);
    } else {
      const auto pt = ops::transpose(Graph(p, ops::GraphBlasViews::rows_and_columns), backend);
      ops::argmax_rows(pt, ops::ArgmaxMasks<W>{}, std::span(winner), std::span(winning_offer), backend);
    }
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

}  // namespace

template <class W>
Matching suitor_bulk(const Csr<W>& g, int threads, ops::Backend backend) {
  MATCHBLAS_EXPECTS(g.n_rows == g.n_cols, "suitor-bulk needs a general (square) graph");
  const ScopedThreads scope(threads);
  return ops::with_backend_graph(g, backend, [&](auto&& graph) {
    return suitor_rounds<W>(graph, g.n_rows, backend);
  });
}

template Matching suitor_bulk(const Csr<float>&, int, ops::Backend);
template Matching suitor_bulk(const Csr<double>&, int, ops::Backend);

}  // namespace matchblas
