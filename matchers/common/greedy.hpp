// Greedy matching: sort the edges by the greedy order (lib/greedy_order.hpp)
// and scan them, matching every edge whose endpoints are both free.
// Source: Hovland 2020 sec. 3.3.1 (Greedy); the order is lib/greedy_order.hpp's.
// Guarantee: 1/2-approximate; the reference matching that every
// 1/2-approximate matcher of matchblas must equal mate for mate.
// Cost: O(m log m) work (the sort; parallel with OpenMP when threads > 1,
// the result does not depend on the thread count), O(n + m) scan.
#pragma once
#include "lib/csr.hpp"
#include "lib/dense.hpp"
#include "lib/matching.hpp"

namespace matchblas {

// threads <= 0: all OpenMP threads.
template <class W>
Matching greedy(const Csr<W>& g, int threads = 0);

template <class W>
Matching greedy(const Dense<W>& g, int threads = 0);

}  // namespace matchblas
