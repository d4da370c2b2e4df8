// b-Suitor over P parts exchanging in bulk (matchers/b_matching/b_suitor_parts.cpp):
// b_greedy's edge set, edge for edge, at P = 1, 2, 3, 4 and 7 (and more parts
// than vertices) on every test graph with constant and per-vertex b, double and
// float, and on tie-heavy R-MAT with hubs whose rows reach into every part;
// its exchange: nothing at one part, bytes = 12 per proposal + 16 per drop,
// the most one part sends within the total, at most one message per ordered
// pair of parts and phase, drops at most the proposals, and at least two
// proposals across parts for each matched edge whose ends lie in different
// parts (both offers of such an edge crossed); P < 1 refused.
#include <doctest/doctest.h>

#include <string>

#include "datasets/generators.hpp"
#include "lib/error.hpp"
#include "matchers/b_matching/b_matching.hpp"
#include "tests/check/check.hpp"
#include "tests/check/families.hpp"

using namespace matchblas;

namespace {

// The part of v under the bounds `first`.
int part_of(const std::vector<vertex_t>& first, vertex_t v) {
  int p = 0;
  while (first[std::size_t(p) + 1] <= v) ++p;
  return p;
}

template <class W>
void require_parts_equal_b_greedy(const Csr<W>& g, const std::vector<int>& b, const BMatching& ref) {
  for (int parts : {1, 2, 3, 4, 7}) {
    CAPTURE(parts);
    PartsExchange ex;
    const BMatching got = b_suitor_parts(g, b, parts, &ex);
    REQUIRE(got == ref);
    if (g.n_rows == 0) continue;
    REQUIRE(ex.first.size() == std::size_t(parts) + 1);
    long long proposals = 0, drops = 0;
    for (const PartsRound& r : ex.rounds) {
      CHECK(r.bytes == std::size_t(12 * r.proposals + 16 * r.drops));
      CHECK(r.most_sent <= r.bytes);
      CHECK(r.most_received <= r.bytes);
      CHECK(r.messages <= 2LL * parts * (parts - 1));
      proposals += r.proposals;
      drops += r.drops;
    }
    CHECK(drops <= proposals);
    if (parts == 1) CHECK(proposals == 0);
    long long crossing = 0;
    for (vertex_t u = 0; u < got.n(); ++u)
      for (offset_t i = got.offsets[u]; i < got.offsets[u + 1]; ++i)
        if (u < got.partners[i] && part_of(ex.first, u) != part_of(ex.first, got.partners[i])) ++crossing;
    CHECK(proposals >= 2 * crossing);
  }
}

}  // namespace

TEST_CASE("b-Suitor over P parts equals b_greedy on every test graph, constant and per-vertex b") {
  check::FamilyOptions opt;
  opt.random_graphs = 60;
  check::for_each_b_matching_case(
      [](const auto& g, const std::vector<int>& b) { require_parts_equal_b_greedy(g, b, b_greedy(g, b)); }, opt);
}

TEST_CASE("b-Suitor over P parts on tie-heavy R-MAT with hubs: b_greedy, and cross-part exchange") {
  GenOptions gen;
  gen.seed = 41;
  gen.ties = 3;
  gen.edge_factor = 8;
  const Csr<double> g = rmat<double>(1 << 13, gen);
  for (const std::vector<int>& b :
       {constant_b(g.n_rows, 1), constant_b(g.n_rows, 5), check::random_b(g.n_rows, 3)}) {
    require_parts_equal_b_greedy(g, b, b_greedy(g, b));
    PartsExchange ex;
    b_suitor_parts(g, b, 4, &ex);
    long long proposals = 0;
    for (const PartsRound& r : ex.rounds) proposals += r.proposals;
    CHECK(proposals > 0);  // R-MAT's hubs have neighbours in every part
    CHECK(ex.rounds.size() >= 2);
  }
}

TEST_CASE("b-Suitor over P parts: more parts than vertices, and a bad P") {
  const Csr<double> g = check::random_graph(5, 0.8, 1, 3);
  const std::vector<int> b = constant_b(g.n_rows, 2);
  CHECK(b_suitor_parts(g, b, 9) == b_greedy(g, b));
  CHECK_THROWS_AS(b_suitor_parts(g, b, 0), invalid_input);
  CHECK(b_suitor_parts(Csr<double>{}, {}, 3).n() == 0);
}
