// Tests of the exact references (matchers/general/exact.hpp): LEMON's maximum weight
// matching and maximum weight perfect matching against brute force on
// hundreds of seeded random graphs (n <= 12, with and without ties), hand-made
// graphs with known optima, and the input checks. Skips when the build lacks
// LEMON (and then checks that the calls throw).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <tuple>
#include <vector>

#include "lib/error.hpp"
#include "matchers/general/exact.hpp"
#include "tests/check/check.hpp"

using namespace matchblas;

namespace {

// A general graph (both directions stored, rows sorted) from undirected edges.
Csr<double> graph_of(vertex_t n, const std::vector<std::tuple<vertex_t, vertex_t, double>>& edges) {
  std::vector<std::vector<std::pair<vertex_t, double>>> adj(n);
  for (auto [u, v, w] : edges) {
    adj[u].push_back({v, w});
    adj[v].push_back({u, w});
  }
  Csr<double> g;
  g.n_rows = g.n_cols = n;
  for (vertex_t u = 0; u < n; ++u) {
    std::sort(adj[u].begin(), adj[u].end());
    for (auto [v, w] : adj[u]) {
      g.cols.push_back(v);
      g.weights.push_back(w);
    }
    g.offsets.push_back(static_cast<offset_t>(g.cols.size()));
  }
  return g;
}

// The complete graph of d as a Csr.
Csr<double> csr_of(const Dense<double>& d) {
  std::vector<std::tuple<vertex_t, vertex_t, double>> edges;
  for (vertex_t u = 0; u < d.n; ++u)
    for (vertex_t v = u + 1; v < d.n; ++v) edges.push_back({u, v, d(u, v)});
  return graph_of(d.n, edges);
}

template <class W, class V>
Csr<W> with_weights(const Csr<V>& g) {
  Csr<W> h;
  h.n_rows = g.n_rows;
  h.n_cols = g.n_cols;
  h.offsets = g.offsets;
  h.cols = g.cols;
  h.weights.assign(g.weights.begin(), g.weights.end());
  return h;
}

bool close(double a, double b, double rel = 1e-9) {
  return std::abs(a - b) <= rel * std::max({1.0, std::abs(a), std::abs(b)});
}

bool skip_without_lemon() {
  if (have_exact()) return false;
  MESSAGE("skipped: this build lacks LEMON, so the exact references are unavailable");
  return true;
}

}  // namespace

TEST_CASE("exact: without LEMON, the calls throw matchblas::error") {
  if (have_exact()) return;
  CHECK_THROWS_AS(exact_matching(check::random_graph(4, 1.0, 0, 1)), matchblas::error);
  CHECK_THROWS_AS(exact_perfect_matching(check::random_complete_graph(4, 0, 1)), matchblas::error);
}

TEST_CASE("exact_matching equals brute force on random graphs") {
  if (skip_without_lemon()) return;
  int graphs = 0;
  for (vertex_t n = 0; n <= 12; ++n)
    for (double density : {0.0, 0.1, 0.25, 0.5, 0.75, 1.0})
      for (int ties : {0, 2, 3})
        for (std::uint64_t rep = 0; rep < 3; ++rep) {
          const std::uint64_t seed = 1000003ull * n + 1009ull * std::uint64_t(density * 100) +
                                     31ull * ties + rep;
          CAPTURE(n);
          CAPTURE(density);
          CAPTURE(ties);
          CAPTURE(seed);
          const Csr<double> g = check::random_graph(n, density, ties, seed);
          const Matching m = exact_matching(g);
          check::require_valid(g, m);
          const double best = check::brute_force_max_weight(g);
          CHECK(close(matching_weight(g, m), best));
          ++graphs;
        }
  MESSAGE(graphs, " random graphs checked");
}

TEST_CASE("exact_perfect_matching equals brute force on random complete graphs") {
  if (skip_without_lemon()) return;
  for (vertex_t n = 0; n <= 12; n += 2)
    for (int ties : {0, 2, 3})
      for (std::uint64_t rep = 0; rep < 20; ++rep) {
        const std::uint64_t seed = 7919ull * n + 131ull * ties + rep;
        CAPTURE(n);
        CAPTURE(ties);
        CAPTURE(seed);
        const Dense<double> d = check::random_complete_graph(n, ties, seed);
        const Matching m = exact_perfect_matching(d);
        check::require_valid(d, m);
        REQUIRE(cardinality(m) == n / 2);
        CHECK(close(matching_weight(d, m), check::brute_force_max_weight(d, true)));
      }
}

TEST_CASE("exact_perfect_matching with negative weights: perfect beats heavier partial") {
  if (skip_without_lemon()) return;
  for (vertex_t n = 2; n <= 12; n += 2)
    for (std::uint64_t seed = 0; seed < 10; ++seed) {
      CAPTURE(n);
      CAPTURE(seed);
      Dense<double> d = check::random_complete_graph(n, 0, 424242 + seed);
      for (double& w : d.values) w -= 0.75;  // most edges negative
      const Matching m = exact_perfect_matching(d);
      check::require_valid(d, m);
      REQUIRE(cardinality(m) == n / 2);
      CHECK(close(matching_weight(d, m), check::brute_force_max_weight(d, true)));
      // The unconstrained optimum on the same graph, and it is no lighter.
      const Csr<double> g = csr_of(d);
      const Matching mm = exact_matching(g);
      check::require_valid(g, mm);
      CHECK(close(matching_weight(g, mm), check::brute_force_max_weight(g)));
      CHECK(matching_weight(g, mm) >= matching_weight(d, m) - 1e-12);
    }
}

TEST_CASE("exact references take float weights") {
  if (skip_without_lemon()) return;
  for (vertex_t n = 0; n <= 10; ++n)
    for (std::uint64_t seed = 0; seed < 5; ++seed) {
      CAPTURE(n);
      CAPTURE(seed);
      const Csr<float> gf = with_weights<float>(check::random_graph(n, 0.6, 0, 555 + seed));
      const Csr<double> gd = with_weights<double>(gf);  // the float values, exactly
      const Matching m = exact_matching(gf);
      check::require_valid(gf, m);
      CHECK(close(matching_weight(gd, m), check::brute_force_max_weight(gd)));
      if (n % 2 == 0) {
        const Dense<double> dd = check::random_complete_graph(n, 0, 777 + seed);
        Dense<float> df(n);
        for (std::size_t k = 0; k < dd.values.size(); ++k) df.values[k] = float(dd.values[k]);
        Dense<double> back(n);
        for (std::size_t k = 0; k < df.values.size(); ++k) back.values[k] = df.values[k];
        const Matching p = exact_perfect_matching(df);
        check::require_valid(df, p);
        CHECK(close(matching_weight(back, p), check::brute_force_max_weight(back, true)));
      }
    }
}

TEST_CASE("exact_matching on hand-made graphs") {
  if (skip_without_lemon()) return;
  SUBCASE("path 1-2-1") {
    const auto g = graph_of(4, {{0, 1, 1.0}, {1, 2, 2.0}, {2, 3, 1.0}});
    const Matching m = exact_matching(g);
    check::require_valid(g, m);
    CHECK(matching_weight(g, m) == doctest::Approx(2.0));
  }
  SUBCASE("path 1-3-1: the middle edge alone") {
    const auto g = graph_of(4, {{0, 1, 1.0}, {1, 2, 3.0}, {2, 3, 1.0}});
    const Matching m = exact_matching(g);
    CHECK(m.mate == std::vector<vertex_t>{-1, 2, 1, -1});
  }
  SUBCASE("triangle: the heaviest edge") {
    const auto g = graph_of(3, {{0, 1, 1.0}, {1, 2, 3.0}, {0, 2, 2.0}});
    const Matching m = exact_matching(g);
    CHECK(m.mate == std::vector<vertex_t>{-1, 2, 1});
    CHECK(matching_weight(g, m) == doctest::Approx(3.0));
  }
  SUBCASE("4-cycle 1,1,1,1.5") {
    const auto g = graph_of(4, {{0, 1, 1.0}, {1, 2, 1.0}, {2, 3, 1.0}, {3, 0, 1.5}});
    const Matching m = exact_matching(g);
    CHECK(m.mate == std::vector<vertex_t>{3, 2, 1, 0});
    CHECK(matching_weight(g, m) == doctest::Approx(2.5));
    Dense<double> d(4);
    for (auto [u, v, w] : std::vector<std::tuple<int, int, double>>{
             {0, 1, 1.0}, {1, 2, 1.0}, {2, 3, 1.0}, {3, 0, 1.5}, {0, 2, 0.0}, {1, 3, 0.0}})
      d(u, v) = d(v, u) = w;
    CHECK(exact_perfect_matching(d).mate == std::vector<vertex_t>{3, 2, 1, 0});
  }
  SUBCASE("a blossom: 5-cycle with a pendant edge") {
    // Greedy takes 0-1 (weight 3); the optimum is 1-2, 3-4 and 0-5.
    const auto g = graph_of(6, {{0, 1, 3.0}, {1, 2, 2.0}, {2, 3, 1.0}, {3, 4, 2.0}, {4, 0, 1.0},
                                {0, 5, 2.0}});
    const Matching m = exact_matching(g);
    check::require_valid(g, m);
    CHECK(matching_weight(g, m) == doctest::Approx(6.0));
  }
  SUBCASE("negative edges are left out") {
    const auto g = graph_of(2, {{0, 1, -1.0}});
    CHECK(exact_matching(g).mate == std::vector<vertex_t>{-1, -1});
  }
  SUBCASE("no vertices, no edges") {
    CHECK(exact_matching(graph_of(0, {})).size() == 0);
    CHECK(exact_matching(graph_of(5, {})).mate == std::vector<vertex_t>(5, no_vertex));
    CHECK(exact_perfect_matching(Dense<double>(0)).size() == 0);
  }
}

TEST_CASE("exact references reject bad input") {
  if (skip_without_lemon()) return;
  SUBCASE("odd order for a perfect matching") {
    CHECK_THROWS_AS(exact_perfect_matching(Dense<double>(1)), matchblas::invalid_input);
    CHECK_THROWS_AS(exact_perfect_matching(check::random_complete_graph(7, 0, 3)),
                    matchblas::invalid_input);
  }
  SUBCASE("rectangular Csr") {
    Csr<double> g;
    g.n_rows = 2;
    g.n_cols = 3;
    g.offsets = {0, 1, 1};
    g.cols = {2};
    g.weights = {1.0};
    CHECK_THROWS_AS(exact_matching(g), matchblas::shape_error);
  }
  SUBCASE("non-finite weights") {
    auto g = graph_of(3, {{0, 1, 1.0}, {1, 2, 1.0}});
    g.weights[0] = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_AS(exact_matching(g), matchblas::invalid_input);
    Dense<double> d(2);
    d(0, 1) = d(1, 0) = std::numeric_limits<double>::infinity();
    CHECK_THROWS_AS(exact_perfect_matching(d), matchblas::invalid_input);
  }
  SUBCASE("column out of range") {
    auto g = graph_of(3, {{0, 1, 1.0}});
    g.cols[0] = 7;
    CHECK_THROWS_AS(exact_matching(g), matchblas::invalid_input);
  }
}

TEST_CASE("exact references on a medium graph: valid, perfect no heavier than free") {
  if (skip_without_lemon()) return;
  const Dense<double> d = check::random_complete_graph(120, 0, 99);
  const Matching p = exact_perfect_matching(d);
  check::require_valid(d, p);
  CHECK(cardinality(p) == 60);
  const Csr<double> g = csr_of(d);
  const Matching m = exact_matching(g);
  check::require_valid(g, m);
  CHECK(matching_weight(g, m) >= matching_weight(d, p) - 1e-9);
  // All weights positive on a complete graph of even order: the maximum
  // weight matching is perfect, so the two optima coincide.
  CHECK(close(matching_weight(g, m), matching_weight(d, p)));
  const Csr<double> s = check::random_graph(300, 0.05, 3, 17);
  const Matching ms = exact_matching(s);
  check::require_valid(s, ms);
}
