// Completes a matching to a maximal one: every edge whose endpoints are both
// free is considered in the greedy order (lib/greedy_order.hpp) and added when
// its endpoints are still free, exactly as greedy would on the free subgraph.
//
// Source: a post-processing step, not part of Hovland 2020 sec. 3.3.2-3.3.3 (nor
// of the KaHIP GPA code); gpa applies it, pga and
// pga_dp do not (their source does not), and any matcher may call it.
// Guarantee: the result is maximal, contains m, and with positive weights is
// at least as heavy as m.
// Cost: O(n + m) to collect the free-free edges, O(f log f) to sort the f
// found; nothing is allocated beyond them.
// Preconditions: g square; m a valid matching of g (m.size() == g.n_rows).
#pragma once
#include "lib/csr.hpp"
#include "lib/matching.hpp"

namespace matchblas {

template <class W>
void fill_maximal(const Csr<W>& g, Matching& m);

}  // namespace matchblas
