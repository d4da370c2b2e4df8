// Seeded sparse matrices of the kinds a solver's diagonal pre-pass meets
// (rows and columns are two sides; signed values; each matrix a pure
// function of its arguments, the same for every thread count):
//   stencil2d(side)   the side^2 x side^2 5-point stencil pattern (2D
//                     Laplacian), values |a| = 10^U(-3, 3) with random signs,
//                     rows randomly permuted (the stencil's diagonal is no
//                     longer on the diagonal)
//   stencil3d(side)   the same with the 7-point 3D stencil on side^3 rows
//   circuit(n)        unsymmetric, circuit-like: each row 1 + a geometric
//                     number (mean 2) of random columns, one row in 1000 and
//                     one column in 1000 dense-ish hubs (sqrt(n) entries), the
//                     diagonal on only half the rows, plus the entries of a
//                     hidden random permutation (structurally nonsingular);
//                     |a| = 10^U(-6, 2)
//   heavy_tailed(n, degree)  a random bipartite graph: `degree` uniform
//                     columns per row plus a hidden random permutation,
//                     |a| Pareto-distributed (tail index 1.5, minimum 1)
// Duplicates keep the largest value; no entry is zero.
// Cost: O(entries) work and memory (csr_from_triples).
#pragma once
#include <cstdint>
#include <string>

#include "lib/csr.hpp"

namespace matchblas {

Csr<double> stencil2d(vertex_t side, std::uint64_t seed = 1);
Csr<double> stencil3d(vertex_t side, std::uint64_t seed = 1);
Csr<double> circuit(vertex_t n, std::uint64_t seed = 1);
Csr<double> heavy_tailed(vertex_t n, int degree, std::uint64_t seed = 1);

// "stencil2d:SIDE", "stencil3d:SIDE", "circuit:N", "heavy:N[:DEGREE]" (DEGREE
// 8 by default) -> the matrix; invalid_input naming the kinds otherwise.
Csr<double> solver_matrix(const std::string& spec, std::uint64_t seed = 1);

}  // namespace matchblas
