// roma and rama (matchers/complete/roma.hpp): every phase keeps a perfect matching and
// never lowers the weight; with min-gain 0 and phases to convergence no
// 4-cycle of positive gain is left (checked by brute force over all pairs of
// matching edges); the start matchings are what they say; the runs are
// reproducible by seed; against LEMON's maximum weight perfect matching on
// n <= 512 the result is at least 2/3 of the optimum and never above it.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include "datasets/generators.hpp"
#include "lib/error.hpp"
#include "matchers/general/exact.hpp"
#include "matchers/common/greedy.hpp"
#include "matchers/complete/roma.hpp"
#include "tests/check/check.hpp"

using namespace matchblas;

namespace {

void require_perfect_or_one_free(const Dense<double>& g, const Matching& m) {
  INFO(matching_violation(g, m));
  REQUIRE(matching_violation(g, m).empty());
  REQUIRE(cardinality(m) == g.n / 2);
}

// The largest gain of any flip of two matching edges (both options).
double best_flip_gain(const Dense<double>& g, const Matching& m) {
  double best = -std::numeric_limits<double>::infinity();
  for (vertex_t u = 0; u < g.n; ++u)
    for (vertex_t x = 0; x < g.n; ++x) {
      const vertex_t v = m.mate[u], y = m.mate[x];
      if (v == no_vertex || y == no_vertex || !(u < v) || !(x < y) || x == u) continue;
      const double current = g(u, v) + g(x, y);
      best = std::max({best, g(u, x) + g(v, y) - current, g(u, y) + g(v, x) - current});
    }
  return best;
}

const WeightDist dists[] = {WeightDist::uniform, WeightDist::exponential, WeightDist::geometric};

}  // namespace

TEST_CASE("roma and rama: every phase keeps a perfect matching and never lowers the weight") {
  for (const WeightDist dist : dists)
    for (vertex_t n : {2, 3, 4, 10, 37, 64}) {
      GenOptions gen;
      gen.seed = 7 + n;
      const Dense<double> g = complete_graph<double>(dist, n, gen);
      for (const int order : {0, 1, 2})  // roma, roma scanning changed pairs, rama
        for (const RomaStart start :
             {RomaStart::neighbour, RomaStart::half, RomaStart::shuffled, RomaStart::random, RomaStart::greedy}) {
          const bool random_order = order < 2;
          CAPTURE(n);
          CAPTURE(order);
          CAPTURE(to_string(start));
          RomaOptions opt;
          opt.start = start;
          opt.scan = order == 1 ? RomaScan::changed : RomaScan::all;
          opt.seed = 3;
          opt.phases = 6;
          const RomaRun full = random_order ? roma(g, opt) : rama(g, opt);
          require_perfect_or_one_free(g, full.matching);
          double previous = full.start_weight;
          const std::int64_t padded_n = n + n % 2;
          for (const RomaPhase& p : full.phases) {
            CAPTURE(p.phase);
            CHECK(p.weight >= previous);
            CHECK(p.flips >= 0);
            previous = p.weight;
            // Scan all (and rama) augments n vertices a phase; scan changed
            // those whose edge changed in this phase or the one before
            // (each flip changes four).
            if (order != 1 || p.phase == 0) CHECK(p.scanned == padded_n);
            else CHECK(p.scanned <= 4 * (full.phases[p.phase - 1].flips + p.flips));
          }
          CHECK(matching_weight(g, full.matching) == doctest::Approx(previous).epsilon(1e-12));
          if (random_order && full.phases.size() < 6 && !full.phases.empty()) CHECK(full.phases.back().flips == 0);
          // The run stopped after k phases is the prefix of the full one: each
          // phase's matching is a valid perfect matching too.
          for (int k = 0; k < int(full.phases.size()); ++k) {
            opt.phases = k;
            const RomaRun part = random_order ? roma(g, opt) : rama(g, opt);
            require_perfect_or_one_free(g, part.matching);
            REQUIRE(part.phases.size() == std::size_t(k));
            const double expected = k == 0 ? full.start_weight : full.phases[k - 1].weight;
            CHECK(matching_weight(g, part.matching) == doctest::Approx(expected).epsilon(1e-12));
          }
        }
    }
}

// Under RomaScan::changed later phases augment only the changed pairs; it
// must still end with no 4-cycle of positive gain.
TEST_CASE("roma with min-gain 0 run to convergence leaves no 4-cycle of positive gain") {
  for (const WeightDist dist : dists)
    for (vertex_t n : {4, 6, 16, 37, 50, 120}) {
      for (int ties : {0, 3}) {
        CAPTURE(n);
        CAPTURE(ties);
        GenOptions gen;
        gen.seed = 11 + n;
        gen.ties = ties;
        const Dense<double> g = complete_graph<double>(dist, n, gen);
        for (const RomaScan scan : {RomaScan::all, RomaScan::changed}) {
          CAPTURE(to_string(scan));
          RomaOptions opt;
          opt.min_gain = 0;
          opt.phases = 100000;
          opt.scan = scan;
          const RomaRun run = roma(g, opt);
          REQUIRE(!run.phases.empty());
          CHECK(run.phases.back().flips == 0);
          require_perfect_or_one_free(g, run.matching);
          CHECK(best_flip_gain(g, run.matching) <= 1e-12);
        }
      }
    }
}

TEST_CASE("the start matchings") {
  const Dense<double> g = check::random_complete_graph(12, 0, 5);
  const auto neighbour = roma_start_matching(g, RomaStart::neighbour, 1);
  const auto half = roma_start_matching(g, RomaStart::half, 1);
  for (vertex_t u = 0; u < 12; ++u) {
    CHECK(neighbour[u] == (u % 2 == 0 ? u + 1 : u - 1));
    CHECK(half[u] == (u < 6 ? u + 6 : u - 6));
  }
  for (const RomaStart s : {RomaStart::shuffled, RomaStart::random, RomaStart::greedy, RomaStart::assignment}) {
    CAPTURE(to_string(s));
    const auto a = roma_start_matching(g, s, 1), b = roma_start_matching(g, s, 1);
    CHECK(a == b);  // seeded
    Matching m(12);
    m.mate = a;
    require_perfect_or_one_free(g, m);
    if (s == RomaStart::shuffled)
      for (vertex_t u = 0; u < 6; ++u) CHECK(a[u] >= 6);
    if (s == RomaStart::greedy) CHECK(matching_weight(g, m) >= matching_weight(g, greedy(g, 1)));
  }
  const Dense<double> big = check::random_complete_graph(40, 0, 5);
  CHECK(roma_start_matching(big, RomaStart::random, 1) != roma_start_matching(big, RomaStart::random, 2));
  CHECK_THROWS_AS(roma_start_matching(check::random_complete_graph(5, 0, 1), RomaStart::neighbour, 1), invalid_input);
}

TEST_CASE("roma is reproducible by seed and refuses bad options") {
  GenOptions gen;
  gen.seed = 2;
  const Dense<float> g = complete_graph<float>(WeightDist::exponential, 200, gen);
  RomaOptions opt;
  opt.seed = 9;
  const RomaRun a = roma(g, opt), b = roma(g, opt);
  CHECK(a.matching == b.matching);
  REQUIRE(a.phases.size() == b.phases.size());
  for (std::size_t i = 0; i < a.phases.size(); ++i) CHECK(a.phases[i].flips == b.phases[i].flips);
  opt.phases = -1;
  CHECK_THROWS_AS(roma(g, opt), invalid_input);
  opt = {};
  opt.min_gain = -1;
  CHECK_THROWS_AS(rama(g, opt), invalid_input);
  opt.min_gain = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_AS(roma(g, opt), invalid_input);
  CHECK_THROWS_AS(parse_roma_start("sorted"), invalid_input);
  CHECK(parse_roma_scan("changed") == RomaScan::changed);
  CHECK(parse_roma_scan("auto") == RomaScan::automatic);
  for (const RomaScan s : {RomaScan::all, RomaScan::changed, RomaScan::automatic})
    CHECK(parse_roma_scan(to_string(s)) == s);
  CHECK_THROWS_WITH_AS(parse_roma_scan("some"), doctest::Contains("known: all, changed"), invalid_input);
  opt = {};
  opt.scan = RomaScan::changed;
  CHECK_THROWS_WITH_AS(rama(g, opt), doctest::Contains("scan 'changed' is for roma"), invalid_input);
  const RomaRun c = roma(g, opt), d = roma(g, opt);
  CHECK(c.matching == d.matching);
  CHECK(parse_roma_start("assignment") == RomaStart::assignment);
  CHECK_THROWS_WITH_AS(roma_start_matching(vertex_t(8), RomaStart::assignment, 1), doctest::Contains("needs the weights"),
                       invalid_input);
  for (vertex_t n : {0, 1}) {
    const RomaRun r = roma(Dense<float>(n));
    CHECK(r.matching.mate.size() == std::size_t(n));
    CHECK(r.phases.empty());
  }
}

TEST_CASE("roma against the exact maximum weight perfect matching (LEMON), n <= 512") {
  if (!have_exact()) {
    MESSAGE("skipped: this build has no LEMON");
    return;
  }
  for (const WeightDist dist : dists)
    for (vertex_t n : {64, 256, 512}) {
      GenOptions gen;
      gen.seed = 100 + n;
      const Dense<double> g = complete_graph<double>(dist, n, gen);
      const double optimum = matching_weight(g, exact_perfect_matching(g));
      for (const RomaStart start : {RomaStart::neighbour, RomaStart::greedy, RomaStart::assignment})
        for (const bool exact_auction : {false, true}) {
          if (exact_auction && start != RomaStart::assignment) continue;
          RomaOptions opt;
          opt.start = start;
          if (exact_auction) opt.auction = AuctionOptions{};
          const double w = matching_weight(g, roma(g, opt).matching);
          CAPTURE(n);
          CAPTURE(to_string(start));
          CAPTURE(exact_auction);
          CHECK(w <= optimum * (1 + 1e-12));
          CHECK(w >= optimum * 2.0 / 3.0);
          MESSAGE("GTO ", 100.0 * (optimum - w) / optimum, "% (", n, ", start ", to_string(start),
                  exact_auction ? ", exact auction)" : ")");
          if (start != RomaStart::assignment) continue;
          // From the exact auction's start: within 0.5% of the optimum before
          // ROMA runs (tests/matchers/test_auction.cpp), so after it as well.
          // The default auction stops early (roma_start_auction): measured
          // 0.0001-1.4% at these sizes, 0.1-0.5% at n = 4096.
          CHECK(w >= optimum * (1 - (exact_auction ? 5e-3 : 2e-2)));
        }
    }
}
