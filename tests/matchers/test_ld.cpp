// Locally-Dominant matchers (matchers/general/ld.hpp) against greedy, mate for mate:
// every test graph (random tie-heavy graphs, generated families, real
// matrices); ld_omp at 1, 2 and 8 threads, and repeated on mid-size tie-heavy
// R-MAT graphs so that races would show up as flakiness.
#include <doctest/doctest.h>

#include <string>

#include "datasets/generators.hpp"
#include "lib/error.hpp"
#include "matchers/common/greedy.hpp"
#include "matchers/general/ld.hpp"
#include "tests/check/check.hpp"
#include "tests/check/families.hpp"

using namespace matchblas;

TEST_CASE("ld_seq equals greedy on every test graph") {
  check::for_each_test_graph([&](const std::string& name, const Csr<double>& g) {
    CAPTURE(name);
    check::require_equals_greedy(g, ld_seq(g, 1), greedy(g, 1));
  });
}

TEST_CASE("ld_omp equals greedy on every test graph at 1, 2 and 8 threads") {
  check::for_each_test_graph([&](const std::string& name, const Csr<double>& g) {
    CAPTURE(name);
    const Matching reference = greedy(g, 1);
    for (int threads : {1, 2, 8}) {
      CAPTURE(threads);
      check::require_equals_greedy(g, ld_omp(g, threads), reference);
    }
  });
}

TEST_CASE("ld_omp equals greedy on tie-heavy R-MAT graphs, repeated") {
  for (std::uint64_t seed : {1, 2, 3}) {
    GenOptions opt;
    opt.seed = seed;
    opt.ties = 3;
    opt.edge_factor = 8;
    const Csr<float> g = rmat<float>(1 << 14, opt);
    const Matching reference = greedy(g, 1);
    CHECK(ld_seq(g, 1) == reference);
    for (int threads : {1, 2, 8})
      for (int repeat = 0; repeat < 20; ++repeat) {
        CAPTURE(seed);
        CAPTURE(threads);
        CAPTURE(repeat);
        const Matching m = ld_omp(g, threads);
        INFO("matching_violation: ", matching_violation(g, m));
        REQUIRE(m == reference);
      }
  }
}

TEST_CASE("ld matchers: empty graphs and input checks") {
  Csr<double> empty;
  CHECK(ld_seq(empty).size() == 0);
  CHECK(ld_omp(empty).size() == 0);
  Csr<double> rect;
  rect.n_rows = 2;
  rect.n_cols = 3;
  rect.offsets = {0, 0, 0};
  CHECK_THROWS_AS(ld_seq(rect), invalid_input);
  CHECK_THROWS_AS(ld_omp(rect), invalid_input);
}

TEST_CASE("ld_omp on graphs large enough for 8 threads, and on negative weights") {
  // ld_omp uses at most one thread per 1024 vertices: these graphs (2^14 and
  // 20000 vertices) run with every thread asked for.
  check::FamilyOptions none;
  none.random_graphs = 0;
  none.generated = false;
  none.real = false;
  check::require_greedy_family([](const Csr<double>& g, int t) { return ld_omp(g, t); },
                               [](const Csr<float>& g, int t) { return ld_omp(g, t); }, /*parallel=*/true, 5, none);
}
