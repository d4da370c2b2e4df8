// ops::modularity (ops/modularity.hpp) against its definition by pairs
// (tests/check/community_check.hpp) on random weighted graphs with loops,
// against hand-computed values, bit for bit the same at 1 and 4 threads;
// and community_graph's rules (lib/graph_from_matrix.hpp).
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "lib/error.hpp"
#include "lib/graph_from_matrix.hpp"
#include "lib/mmio.hpp"
#include "lib/omp_threads.hpp"
#include "ops/modularity.hpp"
#include "tests/check/community_check.hpp"

using namespace matchblas;

using check::graph_from_edges;

TEST_CASE("modularity: hand-computed values") {
  // Two triangles joined by one edge: m = 7, each side 3 edges inside and
  // degree sum 7: Q = 2 (3/7 - 1/4) = 5/14.
  const Csr<double> two = graph_from_edges(6, {{0, 1, 1}, {1, 2, 1}, {0, 2, 1}, {3, 4, 1}, {4, 5, 1}, {3, 5, 1}, {2, 3, 1}});
  CHECK(ops::modularity(two, std::vector<vertex_t>{0, 0, 0, 1, 1, 1}) == doctest::Approx(5.0 / 14).epsilon(1e-15));
  // One community: Q = 1 - gamma.
  CHECK(ops::modularity(two, std::vector<vertex_t>(6, 0)) == doctest::Approx(0).scale(1).epsilon(1e-15));
  CHECK(ops::modularity(two, std::vector<vertex_t>(6, 0), 0.5) == doctest::Approx(0.5).epsilon(1e-15));
  // A loop of weight 2 on vertex 0 and an edge {0, 1} of weight 1: k = (5,
  // 1), m = 3; apart: Q = 2/3 - (25 + 1)/36 = -1/18.
  const Csr<double> loop = graph_from_edges(2, {{0, 0, 2}, {0, 1, 1}});
  CHECK(ops::modularity(loop, std::vector<vertex_t>{0, 1}) == doctest::Approx(-1.0 / 18).epsilon(1e-15));
  // No edges: 0 for any partition.
  const Csr<double> empty = graph_from_edges(3, {});
  CHECK(ops::modularity(empty, std::vector<vertex_t>{0, 1, 2}) == 0);
  CHECK(ops::modularity(graph_from_edges(0, {}), std::vector<vertex_t>{}) == 0);
  // Bad labels.
  CHECK_THROWS_AS(ops::modularity(two, std::vector<vertex_t>{0, 0, 0}), invalid_input);
  CHECK_THROWS_AS(ops::modularity(two, std::vector<vertex_t>{0, 0, 0, 1, -1, 1}), invalid_input);
}

TEST_CASE("modularity: equal to its definition by pairs on random graphs with loops, same bits at 1 and 4 threads") {
  std::mt19937 rng(2004);
  for (int trial = 0; trial < 60; ++trial) {
    const vertex_t n = 1 + vertex_t(rng() % 120);
    const Csr<double> g = check::random_community_graph(n, 0.02 + 0.3 * (trial % 5) / 4, trial % 2 == 0 ? 5 : 0, 0.2, rng);
    std::vector<vertex_t> label(static_cast<std::size_t>(n));
    const vertex_t k = 1 + vertex_t(rng() % std::max<vertex_t>(1, n / 3));
    for (vertex_t& l : label) l = vertex_t(rng() % k);
    CAPTURE(trial);
    for (double gamma : {1.0, 0.3, 2.0}) {
      const double q = ops::modularity(g, label, gamma);
      CHECK(q == doctest::Approx(double(check::modularity_by_pairs(g, label, gamma))).epsilon(1e-12).scale(1));
      double at_four = 0;
      {
        ScopedThreads four(4);
        at_four = ops::modularity(g, label, gamma);
      }
      double at_one = 0;
      {
        ScopedThreads one(1);
        at_one = ops::modularity(g, label, gamma);
      }
      CHECK(at_four == at_one);
    }
  }
}

TEST_CASE("community_graph: values as given, max of both directions, pattern 1, diagonal ignored, negatives refused") {
  const auto graph = [](const std::string& text) { return community_graph(read_matrix_market_text(text, "t.mtx")); };
  const Csr<double> g = graph("%%MatrixMarket matrix coordinate real general\n3 3 5\n1 2 2\n2 1 5\n2 2 9\n3 1 1.5\n3 1 0.5\n");
  REQUIRE(g.n_rows == 3);
  // {1,2}: max(2, 5) = 5; {1,3}: duplicates summed to 2; the diagonal ignored.
  CHECK(g.offsets == std::vector<offset_t>{0, 2, 3, 4});
  CHECK(g.cols == std::vector<vertex_t>{1, 2, 0, 0});
  CHECK(g.weights == std::vector<double>{5, 2, 5, 2});
  const Csr<double> p = graph("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n");
  CHECK(p.weights == std::vector<double>{1, 1, 1, 1});
  try {
    graph("%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 2\n3 1 -0.5\n");
    FAIL("a negative weight was accepted");
  } catch (const invalid_input& e) {
    CHECK(std::string(e.what()).find("entry (3, 1)") != std::string::npos);
    CHECK(std::string(e.what()).find("non-negative") != std::string::npos);
  }
  CHECK_THROWS_AS(graph("%%MatrixMarket matrix coordinate real general\n2 3 1\n1 2 2\n"), shape_error);
  CHECK_THROWS_AS(graph("%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 2\n"), invalid_input);
}
