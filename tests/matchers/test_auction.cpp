// The dense auction (matchers/auction.hpp): a fixed-point-free permutation
// within n x epsilon of the best one (brute force on small n; twice the
// optimal perfect matching from LEMON as a lower bound on larger n), and the
// perfect matching read off it, near-optimal on the seed 000 graphs.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "datasets/generators.hpp"
#include "lib/error.hpp"
#include "lib/matching.hpp"
#include "matchers/auction.hpp"
#include "matchers/exact.hpp"
#include "matchers/roma.hpp"
#include "tests/check/check.hpp"

using namespace matchblas;

namespace {

template <class W>
double assignment_value(const Dense<W>& g, const std::vector<vertex_t>& sigma) {
  double value = 0;
  for (vertex_t u = 0; u < g.n; ++u) value += g(u, sigma[u]);
  return value;
}

template <class W>
double largest_weight(const Dense<W>& g) {
  double largest = 0;
  for (vertex_t u = 0; u < g.n; ++u)
    for (vertex_t v = 0; v < g.n; ++v)
      if (u != v) largest = std::max(largest, std::abs(double(g(u, v))));
  return largest;
}

void require_derangement(const std::vector<vertex_t>& sigma) {
  const vertex_t n = vertex_t(sigma.size());
  std::vector<char> hit(n, 0);
  for (vertex_t u = 0; u < n; ++u) {
    REQUIRE(sigma[u] >= 0);
    REQUIRE(sigma[u] < n);
    REQUIRE(sigma[u] != u);
    REQUIRE(!hit[sigma[u]]);
    hit[sigma[u]] = 1;
  }
}

// The best fixed-point-free permutation by brute force (n <= 8).
double best_derangement(const Dense<double>& g) {
  std::vector<vertex_t> p(g.n);
  std::iota(p.begin(), p.end(), 0);
  double best = -std::numeric_limits<double>::infinity();
  do {
    bool fixed = false;
    for (vertex_t u = 0; u < g.n; ++u) fixed = fixed || p[u] == u;
    if (!fixed) best = std::max(best, assignment_value(g, p));
  } while (std::next_permutation(p.begin(), p.end()));
  return best;
}

}  // namespace

TEST_CASE("dense_auction: a derangement within n x epsilon of the best, by brute force") {
  for (vertex_t n : {2, 3, 4, 5, 7, 8})
    for (int ties : {0, 3})
      for (std::uint64_t seed : {1, 2, 3}) {
        const Dense<double> g = check::random_complete_graph(n, ties, seed);
        AuctionOptions opt;
        const std::vector<vertex_t> sigma = dense_auction(g, opt);
        CAPTURE(n);
        CAPTURE(ties);
        CAPTURE(seed);
        require_derangement(sigma);
        const double slack = n * opt.final_epsilon * largest_weight(g) + 1e-9;
        CHECK(assignment_value(g, sigma) >= best_derangement(g) - slack);
      }
  CHECK(dense_auction(Dense<double>(0)).empty());
  CHECK_THROWS_AS(dense_auction(Dense<double>(1)), error);
  Dense<float> zeros(6);  // every weight 0: still a derangement
  require_derangement(dense_auction(zeros));
}

TEST_CASE("dense_auction refuses weights that are not finite and bad options") {
  Dense<double> g = check::random_complete_graph(6, 0, 1);
  g(2, 4) = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH_AS(dense_auction(g), doctest::Contains("weight (2, 4)"), invalid_input);
  g(2, 4) = -std::numeric_limits<double>::infinity();
  CHECK_THROWS_AS(assignment_matching(g), invalid_input);
  const Dense<double> ok = check::random_complete_graph(6, 0, 1);
  AuctionOptions bad;
  bad.final_epsilon = 0;
  CHECK_THROWS_WITH_AS(dense_auction(ok, bad), doctest::Contains("final epsilon"), invalid_input);
  bad = {};
  bad.ratio = 1;
  CHECK_THROWS_WITH_AS(dense_auction(ok, bad), doctest::Contains("ratio"), invalid_input);
  CHECK_THROWS_AS(assignment_matching(check::random_complete_graph(5, 0, 1)), error);  // odd order
}

TEST_CASE("assignment_matching: a perfect matching near the optimum (LEMON) on the seed 000 graphs") {
  const WeightDist dists[] = {WeightDist::uniform, WeightDist::exponential, WeightDist::geometric};
  for (const WeightDist dist : dists)
    for (vertex_t n : {64, 256, 512}) {
      GenOptions gen;
      gen.seed = 200 + n;
      const Dense<float> g = complete_graph<float>(dist, n, gen);
      AuctionOptions opt;
      const std::vector<vertex_t> sigma = dense_auction(g, opt);
      require_derangement(sigma);
      Matching m(n);
      m.mate = assignment_matching(g, opt);
      CAPTURE(n);
      CAPTURE(int(dist));
      INFO(matching_violation(g, m));
      REQUIRE(matching_violation(g, m).empty());
      REQUIRE(cardinality(m) == n / 2);
      if (!have_exact()) continue;
      const Matching best = exact_perfect_matching(g);
      const double optimum = matching_weight(g, best);
      // A perfect matching M is a derangement of value 2 w(M).
      CHECK(assignment_value(g, sigma) >= 2 * optimum - n * opt.final_epsilon * largest_weight(g) - 1e-6);
      const double w = matching_weight(g, m);
      CHECK(w <= optimum * (1 + 1e-9));
      MESSAGE("assignment start n=", n, " dist ", int(dist), ": GTO ", 100.0 * (optimum - w) / optimum, "%");
      CHECK(w >= optimum * (1 - 5e-3));
    }
}
