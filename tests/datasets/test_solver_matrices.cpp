// Tests of the solver-like matrices (datasets/solver_matrices.hpp): the same
// arguments give the same matrix for any thread count; sizes and entry
// counts of the stencils; every value nonzero and within its kind's range;
// the hidden permutation makes circuit and heavy-tailed matrices
// structurally nonsingular (and the stencils are); bad specs are refused.
#include <doctest/doctest.h>
#include <omp.h>

#include <cmath>

#include "datasets/solver_matrices.hpp"
#include "lib/error.hpp"
#include "matchers/bipartite/max_cardinality.hpp"
#include "tests/check/check.hpp"

using namespace matchblas;

TEST_CASE("solver matrices: shapes, values, nonsingular, the same for any thread count") {
  struct Case {
    std::string spec;
    vertex_t n;
    offset_t entries;  // 0: not fixed
    double lo, hi;     // range of |a|
  };
  const std::vector<Case> cases = {
      {"stencil2d:30", 900, 900 + 4 * 30 * 29, 1e-3, 1e3},
      {"stencil3d:9", 729, 729 + 6 * 81 * 8, 1e-3, 1e3},
      {"circuit:5000", 5000, 0, 1e-6, 1e2},
      {"heavy:4000", 4000, 0, 1, 1e300},
      {"heavy:4000:3", 4000, 0, 1, 1e300},
  };
  for (const Case& c : cases) {
    CAPTURE(c.spec);
    omp_set_num_threads(1);
    const Csr<double> a = solver_matrix(c.spec, 7);
    omp_set_num_threads(2);
    const Csr<double> b = solver_matrix(c.spec, 7);
    check::require_same_csr(a, b);
    CHECK(a.n_rows == c.n);
    CHECK(a.n_cols == c.n);
    if (c.entries) CHECK(a.num_entries() == c.entries);
    for (double w : a.weights) {
      REQUIRE(w != 0);
      REQUIRE(std::fabs(w) >= c.lo * (1 - 1e-12));
      REQUIRE(std::fabs(w) <= c.hi * (1 + 1e-12));
    }
    CHECK(max_cardinality_bipartite(a).matched == c.n);
    const Csr<double> other = solver_matrix(c.spec, 8);
    CHECK(other.weights != a.weights);
  }
  // The stencils' rows are permuted: the diagonal is mostly elsewhere.
  const Csr<double> s = stencil2d(40);
  vertex_t on_diagonal = 0;
  for (vertex_t i = 0; i < s.n_rows; ++i)
    for (vertex_t j : s.row_cols(i)) on_diagonal += j == i;
  CHECK(on_diagonal < s.n_rows / 10);
}

TEST_CASE("solver matrices: bad specs name the kinds") {
  for (const char* spec : {"stencil2d", "stencil2d:x", "stencil2d:-3", "mesh:10", "heavy:10:2:3", "circuit:1e9"}) {
    CAPTURE(spec);
    CHECK_THROWS_AS(solver_matrix(spec), invalid_input);
  }
  CHECK_THROWS_WITH_AS(solver_matrix("mesh:10"), doctest::Contains("stencil2d:SIDE"), invalid_input);
}
