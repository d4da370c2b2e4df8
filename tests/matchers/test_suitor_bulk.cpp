// suitor_bulk (bulk-synchronous Suitor, written with the ops): exactly greedy's matching on every
// test graph, at any thread count, with either ops backend.
#include <doctest/doctest.h>

#include "matchers/greedy.hpp"
#include "matchers/suitor_bulk.hpp"
#include "tests/check/check.hpp"
#include "tests/check/families.hpp"

using namespace matchblas;

TEST_CASE("suitor_bulk equals greedy (plain backend)") {
  check::require_greedy_family([](const Csr<double>& g, int t) { return suitor_bulk(g, t); },
                               [](const Csr<float>& g, int t) { return suitor_bulk(g, t); }, /*parallel=*/true);
}

TEST_CASE("suitor_bulk equals greedy (graphblas backend)") {
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
        check::require_equals_greedy(g, suitor_bulk(g, 1, ops::Backend::graphblas), greedy(g, 1));
      },
      small);
}
