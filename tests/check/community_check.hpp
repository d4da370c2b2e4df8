// Independent checks of a community detection result (matchers/community/;
// its validity is the library's communities_violation): modularity by its
// definition, and no vertex of the graph gaining modularity by moving alone
// to a neighbouring community or to a community of its own (the guarantee
// "local optimum"), each gain computed here from the modularity's
// definition in long double; and the test graphs.
#pragma once
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "lib/csr.hpp"
#include "matchers/community/louvain.hpp"

namespace matchblas::check {

// Modularity by its definition, (1/2m) sum_ij [A_ij - gamma k_i k_j / 2m]
// delta(c_i, c_j), A_uu = 2 w for a loop of weight w: O(n^2), for graphs of
// at most a few thousand vertices.
long double modularity_by_pairs(const Csr<double>& g, const std::vector<vertex_t>& label, double gamma);

// The symmetric graph of these undirected edges (u, v, w) on n vertices:
// both directions of each, a loop (u, u) once, rows sorted.
Csr<double> graph_from_edges(vertex_t n, const std::vector<std::tuple<vertex_t, vertex_t, double>>& edges);

// g with every weight multiplied by 2^k (std::ldexp: exact while the
// weights stay normal numbers).
Csr<double> scaled_by_power_of_two(const Csr<double>& g, int k);

// A random graph for the community tests: each pair an edge with
// probability `density`, a loop on a vertex with probability `loops`;
// weights integers 1..levels, or reals in [0.01, 3) when levels is 0.
Csr<double> random_community_graph(vertex_t n, double density, int levels, double loops, std::mt19937& rng);

// The first vertex move that gains more than 1e-9 max(1, gamma) k_u / 2m
// of modularity (a description), or "".
std::string improving_move(const Csr<double>& g, const std::vector<vertex_t>& label, double gamma);

// REQUIREs that c is a valid partition of g at its reported modularity
// (communities_violation) with no improving move (improving_move).
void require_local_optimum(const Csr<double>& g, const Communities& c, double gamma);

}  // namespace matchblas::check
