// luby (M. Luby, STOC 1985, on the line graph as A. Thorsen, P. Merkey,
// Tech. Report CS-TR-10-02, 2010, sec. 3, Alg. 2 present it): the matching
// equals an edge-centric reference of the same rounds (a live edge list, each
// edge matched when its value beats every live edge adjacent to it), mate for
// mate; one matching per seed on 1, 2 and 4 threads, others for other seeds;
// the weights are never read (NaN and negative weights give the same
// matching); few rounds (Luby's O(log m) in expectation); self-loops never
// matched; a rectangular matrix refused. The registry's conformance test
// checks the guarantee (maximal) on every family; tests/gpu checks luby-gpu
// against this twin.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "datasets/generators.hpp"
#include "lib/error.hpp"
#include "matchers/common/greedy.hpp"
#include "matchers/general/luby.hpp"
#include "tests/check/check.hpp"

using namespace matchblas;

namespace {

// Alg. 2 on the line graph, written from the edges' side: each round lists
// the live edges (both ends free), gives each its value, and matches every
// edge whose value is larger than those of all live edges sharing an end.
Matching luby_by_edges(const Csr<double>& g, std::uint64_t seed, int* rounds_out = nullptr) {
  Matching m(g.n_rows);
  int rounds = 0;
  for (;; ++rounds) {
    std::vector<std::pair<vertex_t, vertex_t>> live;
    for (vertex_t u = 0; u < g.n_rows; ++u)
      for (vertex_t v : g.row_cols(u))
        if (u < v && m.is_free(u) && m.is_free(v)) live.emplace_back(u, v);
    if (live.empty()) break;
    const LubyRound round(seed, std::uint64_t(rounds));
    // The largest value at each vertex among its live edges.
    std::vector<std::uint64_t> largest(std::size_t(g.n_rows), 0);
    std::vector<std::uint8_t> has(std::size_t(g.n_rows), 0);
    for (auto [u, v] : live) {
      const std::uint64_t key = round.key(u, v);
      for (vertex_t x : {u, v}) {
        if (!has[x] || key > largest[x]) largest[x] = key;
        has[x] = 1;
      }
    }
    int matched = 0;
    for (auto [u, v] : live) {
      const std::uint64_t key = round.key(v, u);  // the same value from either end
      if (key == largest[u] && key == largest[v]) {
        m.mate[u] = v;
        m.mate[v] = u;
        ++matched;
      }
    }
    REQUIRE(matched > 0);  // the largest live edge always wins
  }
  if (rounds_out) *rounds_out = rounds + 1;  // and the pass that finds no live edge
  return m;
}

}  // namespace

TEST_CASE("luby equals an edge-centric reference of Luby's rounds, on any thread count") {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    CAPTURE(seed);
    const vertex_t n = vertex_t(seed * 7 % 90);
    const Csr<double> g = check::random_graph(n, seed % 3 == 0 ? 0.5 : 0.08, int(seed % 4), seed);
    int want_rounds = 0;
    const Matching want = luby_by_edges(g, seed, &want_rounds);
    REQUIRE(is_maximal(g, want));
    for (int threads : {1, 2, 4}) {
      CAPTURE(threads);
      LubyStats stats;
      const Matching got = luby(g, seed, threads, &stats);
      check::require_valid(g, got);
      CHECK(got == want);
      CHECK(stats.rounds == want_rounds);
      CHECK(luby(check::with_weights<float>(g), seed, threads) == want);
    }
  }
}

TEST_CASE("luby: a seed gives one matching, other seeds others, in few rounds") {
  GenOptions opt;
  opt.seed = 5;
  opt.edge_factor = 8;
  for (const Csr<double>& g : {erdos_renyi<double>(1 << 14, opt), rmat<double>(1 << 14, opt)}) {
    const offset_t m = num_edges(g);
    LubyStats stats;
    const Matching first = luby(g, 11, 2, &stats);
    check::require_valid(g, first);
    CHECK(is_maximal(g, first));
    CHECK(luby(g, 11, 1) == first);
    CHECK(luby(g, 11, 4) == first);
    CHECK(luby(g, 12, 2) != first);
    // Luby: O(log m) rounds in expectation; log2(m) is about 17 here.
    CAPTURE(stats.rounds);
    CHECK(stats.rounds <= 2 * int(std::log2(double(m))));
    // A maximal matching is at least half a maximum one; the weight is not
    // promised, only reported (bench/bench_luby), yet it is not nothing.
    CHECK(matching_weight(g, first) > 0.3 * matching_weight(g, greedy(g, 1)));
  }
}

TEST_CASE("luby reads no weight: NaN, infinite and negative weights give the same matching") {
  const Csr<double> g = check::random_graph(60, 0.2, 2, 9);
  const Matching want = luby(g, 3, 2);
  Csr<double> odd = g;
  for (std::size_t k = 0; k < odd.weights.size(); ++k)
    odd.weights[k] = k % 3 == 0   ? std::numeric_limits<double>::quiet_NaN()
                     : k % 3 == 1 ? -1e300
                                  : -std::numeric_limits<double>::infinity();
  CHECK(luby(odd, 3, 2) == want);
}

TEST_CASE("luby never matches a vertex with itself, and refuses a rectangular matrix") {
  // A triangle whose vertices all carry self-loops, and an isolated vertex
  // with one.
  Csr<double> g;
  g.n_rows = g.n_cols = 4;
  g.offsets = {0, 3, 6, 9, 10};
  g.cols = {0, 1, 2, 0, 1, 2, 0, 1, 2, 3};
  g.weights.assign(g.cols.size(), 1.0);
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const Matching m = luby(g, seed, 2);
    for (vertex_t u = 0; u < 4; ++u) CHECK(m.mate[u] != u);
    CHECK(cardinality(m) == 1);
    CHECK(m.is_free(3));
  }
  const Csr<double> wide = check::random_matrix(4, 6, 0.5, 0, 1);
  CHECK_THROWS_AS(luby(wide, 1, 1), invalid_input);
}
