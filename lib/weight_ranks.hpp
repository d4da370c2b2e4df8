// Weights replaced by floats in the same order: each weight's rank among the
// graph's distinct weights, as the finite positive float whose bits are
// that rank above the smallest normal float. Every algorithm that reads
// weights only through comparisons (the greedy order, lib/greedy_order.hpp:
// b-Suitor, Suitor, LD) returns the same edges on the ranks as on the
// weights, ties included. b-suitor-gpu's streamed rows use it for double
// weights: its offer keys then fit one 64-bit word without reading the
// holder's row (matchers/b_matching/b_suitor_gpu.cu).
// Cost: a parallel sort of the weights (O(E log E)) and a binary search
// per entry; 4 bytes per entry. Throws invalid_input on a NaN weight and
// error past 2^31 - 2^24 distinct weights (more than such floats).
#pragma once
#include <vector>

#include "lib/csr.hpp"

namespace matchblas {

template <class W>
std::vector<float> weight_ranks(const Csr<W>& g, int threads = 0);

}  // namespace matchblas
