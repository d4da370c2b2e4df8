// Greedy (matchers/common/greedy.hpp) against an independent quadratic reference,
// the exact optimum (half-approximation), and itself across thread counts.
#include <doctest/doctest.h>
#include <omp.h>

#include <tuple>

#include "datasets/generators.hpp"
#include "matchers/general/exact.hpp"
#include "matchers/common/greedy.hpp"
#include "tests/check/check.hpp"
#include "tests/check/families.hpp"

using namespace matchblas;

namespace {
// The greedy matching by its definition: repeatedly take the first edge in
// the order (weight desc, min id asc, max id asc) whose endpoints are free.
// O(n m); written without the library's sort or comparator.
Matching reference_greedy(const Csr<double>& g) {
  Matching m(g.n_rows);
  for (;;) {
    std::tuple<double, vertex_t, vertex_t> best{0, -1, -1};
    bool found = false;
    for (vertex_t u = 0; u < g.n_rows; ++u)
      for (offset_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) {
        const vertex_t v = g.cols[k];
        if (v <= u || !m.is_free(u) || !m.is_free(v)) continue;
        const std::tuple<double, vertex_t, vertex_t> key{-g.weights[k], u, v};
        if (!found || key < best) best = key, found = true;
      }
    if (!found) return m;
    m.match(std::get<1>(best), std::get<2>(best));
  }
}
}  // namespace

TEST_CASE("greedy equals the definition on random graphs with heavy ties") {
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    CAPTURE(seed);
    const vertex_t n = static_cast<vertex_t>(seed % 40);
    const int ties = static_cast<int>(seed % 4);  // 0: continuous weights; 1: all equal
    const Csr<double> g = check::random_graph(n, 0.05 + (seed % 10) / 10.0, ties, seed);
    const Matching m = greedy(g, 1);
    check::require_valid(g, m);
    CHECK(is_maximal(g, m));
    REQUIRE(m == reference_greedy(g));
  }
}

TEST_CASE("greedy is at least half the optimum") {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    CAPTURE(seed);
    const vertex_t n = static_cast<vertex_t>(seed % 13);
    const Csr<double> g = check::random_graph(n, 0.2 + (seed % 8) / 10.0, static_cast<int>(seed % 3), seed);
    const Matching m = greedy(g);
    check::require_valid(g, m);
    CHECK(matching_weight(g, m) >= 0.5 * check::brute_force_max_weight(g) - 1e-12);
  }
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    const Dense<double> d = check::random_complete_graph(static_cast<vertex_t>(2 * (seed % 6)), 2, seed);
    const Matching m = greedy(d);
    check::require_valid(d, m);
    CHECK(cardinality(m) == d.n / 2);  // every pair is an edge: greedy is perfect
    CHECK(matching_weight(d, m) >= 0.5 * check::brute_force_max_weight(d, true) - 1e-12);
  }
}

TEST_CASE("greedy on a complete graph equals greedy on the same graph stored sparse") {
  const Dense<double> d = check::random_complete_graph(30, 3, 11);
  Csr<double> g;
  g.n_rows = g.n_cols = d.n;
  g.offsets.assign(1, 0);
  for (vertex_t u = 0; u < d.n; ++u) {
    for (vertex_t v = 0; v < d.n; ++v)
      if (u != v) {
        g.cols.push_back(v);
        g.weights.push_back(d(u, v));
      }
    g.offsets.push_back(static_cast<offset_t>(g.cols.size()));
  }
  CHECK(greedy(d) == greedy(g));
}

TEST_CASE("greedy does not depend on the thread count") {
  GenOptions opt;
  opt.ties = 5;
  opt.edge_factor = 8;
  const Csr<float> g = rmat<float>(1 << 14, opt);
  const Matching one = greedy(g, 1);
  for (int threads : {2, 8})
    for (int repeat = 0; repeat < 3; ++repeat) CHECK(greedy(g, threads) == one);
}

TEST_CASE("greedy on every shared matrix: valid, maximal, at least half the optimum") {
  if (!have_exact()) MESSAGE("half-optimum check skipped: the exact matcher needs LEMON");
  check::FamilyOptions real_only;
  real_only.random_graphs = 0;
  real_only.generated = false;
  check::for_each_test_graph(
      [](const std::string& name, const Csr<double>& g) {
        CAPTURE(name);
        const Matching m = greedy(g);
        check::require_valid(g, m);
        CHECK(is_maximal(g, m));
        if (have_exact())
          CHECK(matching_weight(g, m) >= 0.5 * matching_weight(g, exact_matching(g)) * (1 - 1e-12));
      },
      real_only);
}
