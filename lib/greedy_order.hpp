// The greedy order (docs/ARCHITECTURE.md "The greedy order"): edges are
// totally ordered by (weight
// descending, min(u,v) ascending, max(u,v) ascending). Every 1/2-approximate
// matcher of matchblas returns the matching of this order, so every tie is
// broken by these two functions and nothing else.
#pragma once
#include <algorithm>
#include <utility>

#include "lib/csr.hpp"

#include "lib/types.hpp"

namespace matchblas {

// True when edge {ua, va} of weight wa comes before edge {ub, vb} of weight wb.
template <class W>
constexpr bool greedy_precedes(W wa, vertex_t ua, vertex_t va, W wb, vertex_t ub, vertex_t vb) noexcept {
  if (wa != wb) return wa > wb;
  const vertex_t la = std::min(ua, va), lb = std::min(ub, vb);
  if (la != lb) return la < lb;
  return std::max(ua, va) < std::max(ub, vb);
}

// For one vertex choosing between two of its neighbours: neighbour a (edge
// weight wa) beats neighbour b (weight wb). The same order as greedy_precedes
// restricted to the edges of one vertex: heavier first, then smaller index.
template <class W>
constexpr bool neighbour_beats(W wa, vertex_t a, W wb, vertex_t b) noexcept {
  return wa > wb || (wa == wb && a < b);
}

// The best neighbour of u (heaviest edge, then smallest index) among those
// that accepts(v, w) admits, and that edge's weight; {no_vertex, W{}} when
// none is admitted. u's row is read in order; accepts is asked only about a
// neighbour that would beat the best so far, so an expensive test (a random
// read of v's state) runs rarely. The scan every vertex-choice of the
// 1/2-approximate family shares (Suitor's proposal, LD's candidate, PGA's
// next step). Cost: O(degree(u)) plus the accepted tests.
template <class W, class Accepts>
std::pair<vertex_t, W> best_neighbour(const Csr<W>& g, vertex_t u, Accepts accepts) {
  vertex_t best = no_vertex;
  W best_w{};
  for (offset_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) {
    const vertex_t v = g.cols[k];
    const W w = g.weights[k];
    if (best != no_vertex && !neighbour_beats(w, v, best_w, best)) continue;
    if (!accepts(v, w)) continue;
    best = v;
    best_w = w;
  }
  return {best, best_w};
}

}  // namespace matchblas
