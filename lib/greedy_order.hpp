// The greedy order of DESIGN.md: edges are totally ordered by (weight
// descending, min(u,v) ascending, max(u,v) ascending). Every 1/2-approximate
// matcher of matchblas returns the matching of this order, so every tie is
// broken by these two functions and nothing else.
#pragma once
#include <algorithm>

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

}  // namespace matchblas
