// Matching weight, cardinality and validation (lib/matching.hpp).
#include <doctest/doctest.h>

#include "lib/matching.hpp"
#include "tests/check/check.hpp"

using namespace matchblas;

namespace {
// The path 0 - 1 - 2 - 3 with weights 1, 2, 3.
Csr<double> path4() {
  Csr<double> g;
  g.n_rows = g.n_cols = 4;
  g.offsets = {0, 1, 3, 5, 6};
  g.cols = {1, 0, 2, 1, 3, 2};
  g.weights = {1, 1, 2, 2, 3, 3};
  return g;
}
}  // namespace

TEST_CASE("matching weight and cardinality") {
  const Csr<double> g = path4();
  Matching m(4);
  CHECK(cardinality(m) == 0);
  CHECK(matching_weight(g, m) == 0);
  m.match(0, 1);
  m.match(2, 3);
  CHECK(cardinality(m) == 2);
  CHECK(matching_weight(g, m) == 4);
  CHECK(matching_violation(g, m).empty());
  CHECK(is_maximal(g, m));
  Matching middle(4);
  middle.match(1, 2);
  CHECK(is_maximal(g, middle));
  CHECK(!is_maximal(g, Matching(4)));
}

TEST_CASE("matching validation names each violation") {
  const Csr<double> g = path4();
  Matching m(4);
  SUBCASE("wrong size") {
    CHECK(matching_violation(g, Matching(3)).find("3 entries") != std::string::npos);
  }
  SUBCASE("mate out of range") {
    m.mate[0] = 7;
    CHECK(matching_violation(g, m).find("outside") != std::string::npos);
  }
  SUBCASE("self match") {
    m.mate[2] = 2;
    CHECK(matching_violation(g, m).find("itself") != std::string::npos);
  }
  SUBCASE("asymmetric") {
    m.mate[0] = 1;
    CHECK(matching_violation(g, m).find("but 1 has mate -1") != std::string::npos);
  }
  SUBCASE("vertex twice") {
    m.mate = {1, 0, 1, -1};
    CHECK(!matching_violation(g, m).empty());
  }
  SUBCASE("not an edge") {
    m.match(0, 3);
    CHECK(matching_violation(g, m).find("not an edge") != std::string::npos);
    CHECK_THROWS_AS(matching_weight(g, m), invalid_input);
  }
}

TEST_CASE("dense matching: any pair is an edge") {
  Dense<float> d(4);
  d(0, 3) = d(3, 0) = 2.5f;
  d(1, 2) = d(2, 1) = 1.0f;
  Matching m(4);
  m.match(0, 3);
  m.match(1, 2);
  CHECK(matching_violation(d, m).empty());
  CHECK(matching_weight(d, m) == doctest::Approx(3.5));
  m.mate[1] = 1;
  CHECK(!matching_violation(d, m).empty());
}

TEST_CASE("padded_to_even adds one zero vertex to odd orders") {
  Dense<double> d(3);
  d(0, 1) = d(1, 0) = 1;
  const Dense<double> p = padded_to_even(d);
  CHECK(p.n == 4);
  CHECK(p(0, 1) == 1);
  for (vertex_t u = 0; u < 4; ++u) CHECK(p(u, 3) == 0);
  CHECK(padded_to_even(p).n == 4);
}
