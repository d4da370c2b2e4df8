// Maximum weight matchings of paths and cycles by dynamic programming, and of
// a whole graph of maximum degree 2 (a set of vertex-disjoint paths and
// cycles) stored as two neighbour slots per vertex.
//
// Source: Hovland 2020 sec. 3.3.2 (PGA': "computes the optimal matching for each
// path ... by dynamic programming") and sec. 3.3.3 (GPA: "calculating a
// maximum weight matching for each of them by dynamic programming"); Maue and
// Sanders, WEA 2007. Used by pga_dp, gpa, and the heavy-matching step of
// Suitor (Mazankiewicz 3.1; Manne & Halappanavar 2014 sec. 4).
// Guarantee: exact (the optimum of each path or cycle, sums in double).
// Cost: O(k) time and O(1) extra memory for a path or cycle of k edges;
// O(n) for a degree-2 graph on n vertices.
//
// Conventions shared by every function here:
//  - A path of k edges has vertices 0..k with edge i joining vertices i and
//    i + 1; w[i] is its weight. A cycle of k edges is the same path plus the
//    edge k - 1 joining vertex k - 1 back to vertex 0 (so edge i joins i and
//    (i + 1) mod k).
//  - take[i] receives 1 when edge i is in the chosen matching, else 0; take
//    has w.size() entries.
//  - Ties: the recurrence best(i) = max(best(i-1), best(i-2) + w[i-1]) takes
//    edge i - 1 only when that is strictly heavier, so among equal optima the
//    one found is fixed by the input order alone (deterministic). A cycle takes
//    the "edge 0 left out" case unless the "edge k-1 left out" case is
//    strictly heavier.
//  - Weights may be any finite doubles; a negative or zero edge is never taken
//    unless strictly profitable (so never).
#pragma once
#include <cstdint>
#include <span>

#include "lib/matching.hpp"
#include "lib/types.hpp"

namespace matchblas {

// Maximum weight matching of a path with edge weights w; returns its weight.
double path_max_matching(std::span<const double> w, std::span<std::uint8_t> take);

// Maximum weight matching of a cycle with edge weights w (k = w.size() >= 2,
// or 0 for nothing; k == 1 throws invalid_input); returns its weight. Any
// matching of a cycle leaves out edge 0 or edge k - 1 (they share vertex 0),
// so the answer is the better of the two paths e1..e(k-1) and e0..e(k-2).
// Works for odd and even cycles.
double cycle_max_matching(std::span<const double> w, std::span<std::uint8_t> take);

// Adds to m a maximum weight matching of every path and cycle of a graph H of
// maximum degree 2 on n = nbr.size() / 2 vertices. Vertex v's neighbours in H
// are nbr[2v] and nbr[2v + 1] (no_vertex for an empty slot, either one), with
// edge weights nbr_w[2v], nbr_w[2v + 1].
// Preconditions (violations throw invalid_input, and m may then hold part of
// the result): H is simple and symmetric (u lists v exactly once iff v lists
// u, with the same weight); the vertices of H are free in m; m.size() == n.
// Order: paths first, each walked from its lower-numbered end in increasing
// order of that end; then cycles, each from its lowest vertex towards its
// slot-0 neighbour. The result depends only on the inputs.
template <class W>
void match_paths_and_cycles(std::span<const vertex_t> nbr, std::span<const W> nbr_w, Matching& m);

}  // namespace matchblas
