// Path growing matchers: Drake and Hougardy's Path Growing Algorithm (PGA)
// and its dynamic-programming refinement PGA'.
//
// Source: Hovland 2020 sec. 3.3.2; D. E. Drake and S. Hougardy, "A simple
// approximation algorithm for the weighted matching problem", IPL 85 (2003);
// PGA' after Maue and Sanders, WEA 2007.
//
// Path growing (shared by both): take the lowest-numbered vertex x not yet
// removed; while x has a neighbour that is not removed, follow x's heaviest
// such edge {x, y} (ties to the smaller y: neighbour_beats), remove x, and
// continue from y; then remove the last vertex. Repeat until every vertex is
// removed. The paths are vertex-disjoint and every edge is looked at twice.
//
//   pga     Drake and Hougardy as published: the path edges go alternately
//           into M1 and M2 (the alternation runs on across paths, i = 3 - i),
//           and the heavier of M1, M2 is returned (M1 on a tie). Hovland's (2020)
//           paraphrase picks the heavier of the odd and even edges of each
//           path separately; that choice is never lighter than this one and
//           is dominated in turn by pga_dp, so we keep the published rule.
//   pga_dp  PGA': the same paths, each replaced by its maximum weight
//           matching (path_max_matching of matchers/general/path_dp.hpp).
//
// Neither source completes the result to a maximal matching, so neither
// matcher does (call fill_maximal of matchers/general/maximal_fill.hpp for that).
// Guarantee: 1/2-approximate. Drake-Hougardy: charge each edge of an optimum
// matching to the path edge chosen at whichever of its ends was removed first;
// that edge is at least as heavy, and gets at most one charge, so
// w(M1) + w(M2) >= w(optimum). w(pga_dp) >= w(pga) (each path's optimum beats
// its share of M1 or M2). Deterministic; not equal to greedy and not
// necessarily maximal.
// Cost: O(n + m) time, O(n) extra memory; sequential (`threads` ignored).
// Preconditions: a general graph (square Csr, both directions, no
// self-loops).
#pragma once
#include "lib/csr.hpp"
#include "lib/matching.hpp"

namespace matchblas {

template <class W>
Matching pga(const Csr<W>& g, int threads = 1);

template <class W>
Matching pga_dp(const Csr<W>& g, int threads = 1);

}  // namespace matchblas
