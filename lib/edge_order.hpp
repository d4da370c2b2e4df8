// Edge lists in the greedy order: the edges {u, v} (u < v) of a graph,
// collected and sorted by greedy_precedes (lib/greedy_order.hpp). Greedy,
// GPA and the maximal fill all scan such a list.
// Cost: O(m) to collect, O(m log m) to sort; the sort is parallel (GNU
// multiway mergesort) when threads > 1 and the list is long. Edges are
// distinct under the order, so every sort gives the same list.
#pragma once
#include <vector>

#include "lib/csr.hpp"
#include "lib/dense.hpp"
#include "lib/types.hpp"

namespace matchblas {

template <class W>
struct WeightedEdge {
  W w;
  vertex_t u, v;  // u < v
};

// Sorts edges by the greedy order; threads <= 0: all OpenMP threads.
template <class W>
void sort_in_greedy_order(std::vector<WeightedEdge<W>>& edges, int threads);

// Every edge of g (upper triangle of a general Csr; every pair of a Dense),
// sorted by the greedy order.
template <class W>
std::vector<WeightedEdge<W>> edges_in_greedy_order(const Csr<W>& g, int threads);
template <class W>
std::vector<WeightedEdge<W>> edges_in_greedy_order(const Dense<W>& g, int threads);

}  // namespace matchblas
