// Weights replaced by floats in the same order: each weight's rank among the
// graph's distinct weights, as the finite positive float whose bits are
// that rank above the smallest normal float. Every algorithm that reads
// weights only through comparisons (the greedy order, lib/greedy_order.hpp:
// b-Suitor, Suitor, LD) returns the same edges on the ranks as on the
// weights, ties included. b-suitor-gpu's streamed rows use it for double
// weights: its offer keys then fit one 64-bit word without reading the
// holder's row (matchers/b_matching/b_suitor_gpu.cu).
// Cost: a parallel radix sort of (weight, entry) pairs (O(E), at most 8
// passes: lib/radix_sort.hpp) and two passes over them (distinct_values
// below); 4 bytes per entry in the result, 28 while it runs. Throws invalid_input on a NaN weight and
// error past 2^31 - 2^24 distinct weights (more than such floats).
#pragma once
#include <cstdint>
#include <vector>

#include "lib/csr.hpp"

namespace matchblas {

template <class W>
std::vector<float> weight_ranks(const Csr<W>& g, int threads = 0);

// The distinct values of v in increasing order (-0 and +0 one value) and
// each entry's position among them: what weight_ranks computes, shared with
// the ranks' version (datasets/distributed/dist_weight_ranks.hpp). A
// parallel radix sort of (value, entry) pairs on `threads` threads (<= 0:
// all), then two passes over them: no search per entry. 24 bytes per entry
// while it runs; v holds no NaN (the callers check).
template <class W>
struct DistinctValues {
  std::vector<W> values;
  std::vector<std::uint32_t> position;  // v[k] == values[position[k]]
};
template <class W>
DistinctValues<W> distinct_values(const std::vector<W>& v, int threads = 0);

}  // namespace matchblas
