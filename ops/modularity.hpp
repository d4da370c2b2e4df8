// modularity: the quality of a partition of a weighted undirected graph, a
// reduction over the edges keyed by community (Newman and Girvan 2004;
// with a resolution, Reichardt and Bornholdt 2006):
//
//   Q = sum over communities c of  e_c / m  -  gamma (a_c / 2m)^2
//
// g is symmetric (each edge {u, v}, u != v, stored in both rows) and may
// hold self-loops (an entry (u, u), stored once, is one loop of that
// weight). The degree k_u is row u's sum with its loop counted twice, a_c
// the sum of its members' degrees, 2m the sum of all degrees, and e_c the
// weight of the edges inside c, each counted once (a loop once): the
// convention of networkx's community.modularity and igraph's modularity.
// A graph without edges (m = 0) has Q = 0. Weights must be non-negative.
//
// Cost: O(n + entries) time, O(n) memory; rows in parallel (OpenMP), their
// sums added in row order in long double: the same result at any thread
// count.
//
// The one modularity every community entry reports and every test checks
// against (the GPU entries compute theirs on the device and are compared
// with this one).
#pragma once
#include <span>
#include <vector>

#include "lib/csr.hpp"
#include "lib/types.hpp"

namespace matchblas::ops {

// label.size() == g.n_rows, each label in 0..communities-1 where
// communities = 1 + the largest label (throws invalid_input naming the
// first vertex otherwise; a negative label is refused too).
double modularity(const Csr<double>& g, std::span<const vertex_t> label, double gamma = 1.0);

// The weighted degree of every vertex (a loop counted twice), the input of
// the modularity above and of the Louvain moves.
std::vector<double> weighted_degrees(const Csr<double>& g);

}  // namespace matchblas::ops
