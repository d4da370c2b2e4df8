// Independent checks of a community detection result (matchers/community/):
// a partition of the vertices into 0..k-1 with the modularity it reports
// (ops::modularity), and no vertex of the graph gaining modularity by
// moving alone to a neighbouring community or to a community of its own
// (the guarantee "local optimum"), each gain computed here from the
// modularity's definition in long double.
#pragma once
#include <string>
#include <vector>

#include "lib/csr.hpp"
#include "matchers/community/louvain.hpp"

namespace matchblas::check {

// Modularity by its definition, (1/2m) sum_ij [A_ij - gamma k_i k_j / 2m]
// delta(c_i, c_j), A_uu = 2 w for a loop of weight w: O(n^2), for graphs of
// at most a few thousand vertices.
long double modularity_by_pairs(const Csr<double>& g, const std::vector<vertex_t>& label, double gamma);

// Why c is not a valid partition with its reported modularity (1e-9
// relative), or "".
std::string partition_violation(const Csr<double>& g, const Communities& c, double gamma);

// The first vertex move that gains more than 1e-9 max(1, gamma) k_u / 2m
// of modularity (a description), or "".
std::string improving_move(const Csr<double>& g, const std::vector<vertex_t>& label, double gamma);

}  // namespace matchblas::check
