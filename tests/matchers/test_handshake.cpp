// handshake (seed 003, written with the ops): exactly greedy's matching on every
// test graph, at any thread count, with either ops backend.
#include <doctest/doctest.h>

#include "matchers/greedy.hpp"
#include "matchers/handshake.hpp"
#include "tests/check/check.hpp"
#include "tests/check/families.hpp"

using namespace matchblas;

TEST_CASE("handshake equals greedy (plain backend)") {
  check::require_greedy_family([](const Csr<double>& g, int t) { return handshake(g, t); },
                               [](const Csr<float>& g, int t) { return handshake(g, t); }, /*parallel=*/true);
}

TEST_CASE("handshake equals greedy (graphblas backend)") {
  if (!ops::have_graphblas()) {
    MESSAGE("skipped: this build has no SuiteSparse:GraphBLAS");
    return;
  }
  check::FamilyOptions small;
  small.random_graphs = 120;
  small.real = false;
  check::for_each_test_graph(
      [](const std::string& name, const Csr<double>& g) {
        CAPTURE(name);
        check::require_equals_greedy(g, handshake(g, 1, ops::Backend::graphblas), greedy(g, 1));
      },
      small);
}
