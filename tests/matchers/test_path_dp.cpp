// The path and cycle dynamic programming of matchers/general/path_dp.hpp against
// brute force over every subset of edges (paths and cycles up to 14 edges,
// seeded weights with and without ties), and match_paths_and_cycles on random
// unions of paths and cycles, plus its input checks.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "lib/error.hpp"
#include "matchers/general/path_dp.hpp"
#include "tests/check/check.hpp"

using namespace matchblas;

namespace {

// The heaviest set of pairwise non-adjacent edges of a path or cycle of
// k = w.size() edges, by trying all 2^k subsets.
double brute_force(const std::vector<double>& w, bool cycle) {
  const std::size_t k = w.size();
  double best = 0;
  for (std::uint32_t set = 0; set < (1u << k); ++set) {
    bool ok = true;
    double sum = 0;
    for (std::size_t i = 0; i < k && ok; ++i) {
      if (!(set >> i & 1)) continue;
      const std::size_t next = i + 1 < k ? i + 1 : (cycle ? 0 : k);
      ok = next == k || next == i || !(set >> next & 1);
      sum += w[i];
    }
    if (ok) best = std::max(best, sum);
  }
  return best;
}

// Fails unless `take` picks pairwise non-adjacent edges weighing `value`.
void require_matching(const std::vector<double>& w, const std::vector<std::uint8_t>& take, bool cycle, double value) {
  const std::size_t k = w.size();
  double sum = 0;
  for (std::size_t i = 0; i < k; ++i) {
    if (!take[i]) continue;
    sum += w[i];
    const std::size_t next = i + 1 < k ? i + 1 : (cycle ? 0 : k);
    if (next != k && next != i) REQUIRE_FALSE(take[next]);
  }
  REQUIRE(sum == doctest::Approx(value));
}

std::vector<double> random_weights(std::size_t k, int ties, std::mt19937_64& rng) {
  std::vector<double> w(k);
  for (double& x : w)
    x = ties > 0 ? static_cast<double>(rng() % ties + 1) : std::uniform_real_distribution<double>(0.0, 1.0)(rng);
  return w;
}

}  // namespace

TEST_CASE("path and cycle DP equal brute force over all subsets") {
  for (std::uint64_t seed = 1; seed <= 3000; ++seed) {
    CAPTURE(seed);
    std::mt19937_64 rng(seed);
    const std::size_t k = seed % 15;  // 0..14 edges
    const int ties = static_cast<int>(seed % 4);
    const std::vector<double> w = random_weights(k, ties, rng);
    CAPTURE(k);
    std::vector<std::uint8_t> take(k, 7);
    const double p = path_max_matching(w, take);
    REQUIRE(p == doctest::Approx(brute_force(w, false)));
    require_matching(w, take, false, p);
    if (k == 1) continue;
    std::fill(take.begin(), take.end(), 7);
    const double c = cycle_max_matching(w, take);
    REQUIRE(c == doctest::Approx(brute_force(w, true)));
    require_matching(w, take, true, c);
  }
}

TEST_CASE("path and cycle DP on hand cases") {
  std::vector<std::uint8_t> take(4);
  const std::vector<double> w{1, 1.5, 1};  // a-b-c-d: the two outer edges
  CHECK(path_max_matching(w, std::span(take).first(3)) == 2);
  CHECK((take[0] == 1 && take[1] == 0 && take[2] == 1));
  const std::vector<double> c4{1, 3, 1, 3};  // a 4-cycle: edges 1 and 3
  CHECK(cycle_max_matching(c4, take) == 6);
  CHECK((take[0] == 0 && take[1] == 1 && take[2] == 0 && take[3] == 1));
  const std::vector<double> c3{2, 5, 4};  // a triangle: one edge
  CHECK(cycle_max_matching(c3, std::span(take).first(3)) == 5);
  const std::vector<double> neg{-1, -2};  // never profitable
  CHECK(path_max_matching(neg, std::span(take).first(2)) == 0);
  CHECK((take[0] == 0 && take[1] == 0));
  const std::vector<double> one{1};
  CHECK_THROWS_AS(cycle_max_matching(one, std::span(take).first(1)), invalid_input);
  CHECK_THROWS_AS(path_max_matching(one, std::span(take).first(2)), invalid_input);
  CHECK(path_max_matching({}, {}) == 0);
  CHECK(cycle_max_matching({}, {}) == 0);
}

TEST_CASE("match_paths_and_cycles: optimum of every component of a degree-2 graph") {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    CAPTURE(seed);
    std::mt19937_64 rng(seed);
    const vertex_t n = static_cast<vertex_t>(seed % 60);
    std::vector<vertex_t> order(static_cast<std::size_t>(n));
    for (vertex_t v = 0; v < n; ++v) order[v] = v;
    std::shuffle(order.begin(), order.end(), rng);
    // Cut the shuffled vertices into pieces; each becomes a lone vertex, a
    // path, or (3+ vertices, every other time) a cycle.
    std::vector<vertex_t> nbr(2 * order.size(), no_vertex);
    std::vector<float> nbr_w(nbr.size(), 0);
    std::vector<std::uint8_t> deg(order.size(), 0);
    const auto link = [&](vertex_t a, vertex_t b, float x) {
      nbr[2 * a + deg[a]] = b, nbr_w[2 * a + deg[a]++] = x;
      nbr[2 * b + deg[b]] = a, nbr_w[2 * b + deg[b]++] = x;
    };
    double expected = 0;
    for (std::size_t at = 0; at < order.size();) {
      const std::size_t len = std::min<std::size_t>(1 + rng() % 12, order.size() - at);
      const bool cycle = len >= 3 && rng() % 2;
      std::vector<double> w;
      for (std::size_t i = 0; i + 1 < len + (cycle ? 1 : 0); ++i) {
        const float x = static_cast<float>(seed % 3 == 0 ? rng() % 3 + 1 : (rng() % 1000 + 1) / 1000.0);
        link(order[at + i], order[at + (i + 1) % len], x);
        w.push_back(x);
      }
      expected += brute_force(w, cycle);
      at += len;
    }
    Matching m(n);
    match_paths_and_cycles<float>(nbr, nbr_w, m);
    double got = 0;
    for (vertex_t v = 0; v < n; ++v) {
      if (m.is_free(v) || m.mate[v] < v) continue;
      REQUIRE(m.mate[m.mate[v]] == v);
      const bool adjacent = nbr[2 * v] == m.mate[v] || nbr[2 * v + 1] == m.mate[v];
      REQUIRE(adjacent);
      got += nbr_w[2 * v + (nbr[2 * v] == m.mate[v] ? 0 : 1)];
    }
    CHECK(got == doctest::Approx(expected));
  }
}

TEST_CASE("match_paths_and_cycles rejects slots that are not a simple symmetric graph") {
  Matching m(3);
  const std::vector<double> w(6, 1.0);
  const std::vector<vertex_t> one_way{1, no_vertex, no_vertex, no_vertex, no_vertex, no_vertex};
  CHECK_THROWS_AS(match_paths_and_cycles<double>(one_way, w, m), invalid_input);
  const std::vector<vertex_t> self{0, no_vertex, no_vertex, no_vertex, no_vertex, no_vertex};
  CHECK_THROWS_AS(match_paths_and_cycles<double>(self, w, m), invalid_input);
  const std::vector<vertex_t> out_of_range{5, no_vertex, no_vertex, no_vertex, no_vertex, no_vertex};
  CHECK_THROWS_AS(match_paths_and_cycles<double>(out_of_range, w, m), invalid_input);
  Matching taken(3);
  taken.match(0, 2);
  const std::vector<vertex_t> edge01{1, no_vertex, 0, no_vertex, no_vertex, no_vertex};
  CHECK_THROWS_AS(match_paths_and_cycles<double>(edge01, w, taken), invalid_input);
  match_paths_and_cycles<double>(edge01, w, m);
  CHECK((m.mate[0] == 1 && m.mate[1] == 0 && m.is_free(2)));
}
