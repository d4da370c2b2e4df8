// The dense auction (matchers/complete/auction.hpp): a fixed-point-free permutation
// within n x epsilon of the best one (brute force on small n; twice the
// optimal perfect matching from LEMON as a lower bound on larger n), and the
// perfect matching read off it, near-optimal on the complete graphs of
// N. H. Hovland, "Maximum weighted matching on a GPU", Master's thesis,
// University of Bergen, 2020, sec. 5.1; the
// matching read off a given permutation (matching_from_assignment).
#include <doctest/doctest.h>

#include <limits>
#include <vector>

#include "datasets/generators.hpp"
#include "lib/error.hpp"
#include "lib/matching.hpp"
#include "matchers/complete/auction.hpp"
#include "matchers/general/exact.hpp"
#include "matchers/complete/roma.hpp"
#include "tests/check/check.hpp"

using namespace matchblas;

using check::assignment_value;
using check::best_derangement;
using check::require_derangement;

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
        const double slack = n * opt.final_epsilon * check::largest_off_diagonal(g) + 1e-9;
        CHECK(assignment_value(g, sigma) >= best_derangement(g) - slack);
      }
  CHECK(dense_auction(Dense<double>(0)).empty());
  CHECK_THROWS_AS(dense_auction(Dense<double>(1)), invalid_input);
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
  CHECK_THROWS_AS(assignment_matching(check::random_complete_graph(5, 0, 1)), invalid_input);  // odd order
}

TEST_CASE("assignment_matching: a perfect matching near the optimum (LEMON) on the Hovland 2020 graphs") {
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
      CHECK(assignment_value(g, sigma) >= 2 * optimum - n * opt.final_epsilon * check::largest_off_diagonal(g) - 1e-6);
      const double w = matching_weight(g, m);
      CHECK(w <= optimum * (1 + 1e-9));
      MESSAGE("assignment start n=", n, " dist ", int(dist), ": GTO ", 100.0 * (optimum - w) / optimum, "%");
      CHECK(w >= optimum * (1 - 5e-3));
    }
}

TEST_CASE("matching_from_assignment: 2-cycles kept, the heavier alternating edges of longer cycles") {
  // Cycles (0 1), (2 3 4 5), (6 7 8), (9 10 11 12 13): 14 vertices; the
  // vertices left out of the two odd cycles are paired.
  const std::vector<vertex_t> sigma{1, 0, 3, 4, 5, 2, 7, 8, 6, 10, 11, 12, 13, 9};
  std::vector<double> w(14, 1.0);
  w[3] = 5;   // edge (3, 4): the 4-cycle takes (3, 4), (5, 2)
  w[7] = 9;   // edge (7, 8): the 3-cycle takes it, leaving 6
  w[10] = 4;  // edges (10, 11), (12, 13): leaving 9
  w[12] = 4;
  const std::vector<vertex_t> mate = matching_from_assignment(sigma, w);
  const std::vector<vertex_t> want{1, 0, 5, 4, 3, 2, 9, 8, 7, 6, 11, 10, 13, 12};
  CHECK(mate == want);
  // Every odd-cycle start: the weights of one start's edges, the best taken.
  for (int heavy = 0; heavy < 5; ++heavy) {
    const std::vector<vertex_t> five{1, 2, 3, 4, 0, 6, 7, 5};  // (0 1 2 3 4), (5 6 7)
    std::vector<double> w5(8, 1.0);
    w5[heavy] = 3;
    w5[(heavy + 2) % 5] = 3;  // the start at `heavy` has weight 6, every other at most 4
    const std::vector<vertex_t> m = matching_from_assignment(five, w5);
    CAPTURE(heavy);
    CHECK(m[heavy] == (heavy + 1) % 5);
    CHECK(m[(heavy + 2) % 5] == (heavy + 3) % 5);
    CHECK(m[5] == 6);  // equal weights: the first start
    CHECK(m[7] == (heavy + 4) % 5);  // the two left out, paired
  }
  CHECK_THROWS_AS(matching_from_assignment(std::vector<vertex_t>{1, 0, 2, 3}, std::vector<double>(4)), invalid_input);
  CHECK_THROWS_AS(matching_from_assignment(std::vector<vertex_t>{1, 0, 0, 2}, std::vector<double>(4)), invalid_input);
  CHECK_THROWS_AS(matching_from_assignment(std::vector<vertex_t>{1, 2, 0}, std::vector<double>(3)), invalid_input);
  CHECK_THROWS_AS(matching_from_assignment(std::vector<vertex_t>{1, 0}, std::vector<double>(1)), invalid_input);
}

TEST_CASE("matching_from_assignment on a partial permutation: paths give their heavier alternating edges") {
  // Path 0 -> 1 -> 2 -> 3 (3 holds none; no one holds 0), cycle (4 5), path
  // 6 -> 7 (7 holds none), and 8, 9 alone (unassigned, held by no one).
  const std::vector<vertex_t> sigma{1, 2, 3, no_vertex, 5, 4, 7, no_vertex, no_vertex, no_vertex};
  std::vector<double> w(10, 0.0);
  w[0] = 1;
  w[1] = 5;  // edge (1, 2): heavier than (0, 1) + (2, 3)
  w[2] = 1;
  w[4] = w[5] = 2;
  w[6] = 3;
  const std::vector<vertex_t> mate = matching_from_assignment(sigma, w);
  const std::vector<vertex_t> want{3, 2, 1, 0, 5, 4, 7, 6, 9, 8};  // 0 and 3 left out of the path, paired
  CHECK(mate == want);
  w[1] = 1.5;  // now (0, 1) + (2, 3) = 2 is heavier
  const std::vector<vertex_t> other = matching_from_assignment(sigma, w);
  CHECK(other[0] == 1);
  CHECK(other[2] == 3);
  CHECK_THROWS_AS(matching_from_assignment(std::vector<vertex_t>{1, 1, no_vertex, no_vertex}, std::vector<double>(4)),
                  invalid_input);
}

TEST_CASE("dense_auction with unassigned > 0: a partial derangement leaving at most that fraction out") {
  for (const double f : {0.01, 0.1, 0.5})
    for (vertex_t n : {64, 256}) {
      GenOptions gen;
      gen.seed = 500 + n;
      const Dense<float> g = complete_graph<float>(WeightDist::exponential, n, gen);
      AuctionOptions opt;
      opt.unassigned = f;
      const std::vector<vertex_t> sigma = dense_auction(g, opt);
      const vertex_t left = check::require_partial_derangement(sigma);
      CAPTURE(f);
      CAPTURE(n);
      CHECK(left <= vertex_t(f * n));
      Matching m(n);
      m.mate = assignment_matching(g, opt);
      REQUIRE(matching_violation(g, m).empty());
      CHECK(cardinality(m) == n / 2);
    }
  AuctionOptions bad;
  bad.unassigned = 1;
  CHECK_THROWS_WITH_AS(dense_auction(check::random_complete_graph(6, 0, 1), bad), doctest::Contains("unassigned"),
                       invalid_input);
  for (const double b : {-1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    bad = {};
    bad.bids_per_person = b;
    CHECK_THROWS_WITH_AS(dense_auction(check::random_complete_graph(6, 0, 1), bad), doctest::Contains("bids per person"),
                         invalid_input);
  }
  // A cap of one bid per person: each phase stops after n bids, and the
  // matching read off the partial result is still perfect.
  AuctionOptions capped;
  capped.bids_per_person = 1;
  const Dense<float> g = complete_graph<float>(WeightDist::uniform, 128, GenOptions{});
  Matching m(128);
  m.mate = assignment_matching(g, capped);
  REQUIRE(matching_violation(g, m).empty());
  CHECK(cardinality(m) == 64);
}
