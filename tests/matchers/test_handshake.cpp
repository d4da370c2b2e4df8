// handshake ("Parallel graph matching", a course project on handshaking
// matching on GPUs, no author named; written with the ops): exactly greedy's
// matching on every test graph, at any thread count, with either ops backend
// (graphblas: every op on it); and its registry option --backend.
#include <doctest/doctest.h>

#include <limits>

#include "lib/error.hpp"
#include "matchers/general/handshake.hpp"
#include "tests/check/check.hpp"
#include "tests/check/families.hpp"
#include "tests/matchers/backend_option.hpp"

using namespace matchblas;

TEST_CASE("handshake equals greedy on both ops backends") {
  check::require_greedy_family_on_both_backends(
      [](const auto& g, int threads, ops::Backend backend) { return handshake(g, threads, backend); });
}

TEST_CASE("handshake refuses weights no argmax can pick (NaN, -inf) instead of looping") {
  for (const double bad : {std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::infinity()}) {
    Csr<double> g = check::random_graph(12, 0.6, 0, 5);
    for (double& w : g.weights) w = bad;
    CHECK_THROWS_WITH_AS(handshake(g, 1), doctest::Contains("no progress"), invalid_input);
  }
}

TEST_CASE("handshake --backend graphblas equals the plain backend through the registry") {
  check::require_backend_option("handshake");
}
