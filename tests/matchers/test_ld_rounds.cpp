// ld_rounds (A. Thorsen, P. Merkey, "Approximating weighted matchings using the
// partitioned global address space model", Tech. Report CS-TR-10-02, Michigan
// Technological University, 2010, Alg. 1, sync-poll; written with the ops):
// exactly greedy's matching on every test graph, at any thread count, with
// either ops backend (graphblas: every op on it); and its registry option
// --backend.
#include <doctest/doctest.h>

#include "matchers/general/ld_rounds.hpp"
#include "tests/check/families.hpp"
#include "tests/matchers/backend_option.hpp"

using namespace matchblas;

TEST_CASE("ld_rounds equals greedy on both ops backends") {
  check::require_greedy_family_on_both_backends(
      [](const auto& g, int threads, ops::Backend backend) { return ld_rounds(g, threads, backend); });
}

TEST_CASE("ld-rounds --backend graphblas equals the plain backend through the registry") {
  check::require_backend_option("ld-rounds");
}
