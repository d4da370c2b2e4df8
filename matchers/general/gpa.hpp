// Global Paths Algorithm (GPA) of Maue and Sanders: a heavy set of paths and
// even cycles built in the greedy order, then an optimal matching of each by
// dynamic programming.
//
// Source: Hovland 2020 sec. 3.3.3; J. Maue and P. Sanders, "Engineering
// algorithms for approximate weighted matching", WEA 2007.
// Rule: scan the edges in the greedy order (weight descending, then
// min(u,v), then max(u,v): lib/greedy_order.hpp) and keep an edge when it is
// "applicable": it joins two endpoints of different paths (a lone vertex is a
// path of length 0), or the two endpoints of one path of odd length (odd
// number of edges), closing an even cycle. An edge at a vertex that already
// has two kept edges is never applicable; odd cycles never form. Then each
// path and each cycle gets its maximum weight matching (matchers/general/path_dp.hpp;
// a cycle as the better of "first edge left out" and "last edge left out"),
// and finally fill_maximal (matchers/general/maximal_fill.hpp) adds the free-free
// edges in the greedy order. That last step is not in Hovland 2020 nor in the
// KaHIP GPA code; it only adds weight.
// Guarantee: 1/2-approximate (Maue-Sanders); maximal; deterministic. Not
// equal to greedy (usually heavier).
// Cost: O(m log m) for the sort (parallel when threads != 1, the result does
// not depend on it), O(m alpha(n)) for the scan with union-find, O(n) for the
// dynamic programming.
// Preconditions: a general graph (square Csr, both directions, no
// self-loops).
#pragma once
#include "lib/csr.hpp"
#include "lib/matching.hpp"

namespace matchblas {

// threads <= 0: all OpenMP threads (used by the sort only).
template <class W>
Matching gpa(const Csr<W>& g, int threads = 0);

}  // namespace matchblas
