// b-matching (matchers/b_matching/b_matching.hpp): b_greedy, b_suitor_seq and
// b_suitor_omp (1, 2, 8 threads, repeated) are valid b-matchings and equal
// edge for edge on random tie-heavy graphs, the
// generated families and the real matrices, with constant b (1, 2, 3, 5)
// and random per-vertex b (0..4); on graphs where a proposer meets many
// refusals (hubs whose neighbours hold better offers: several passes over
// a row), all-equal weights, b above the degree, heaps of more than 8
// offers and per-vertex b from 0 to beyond the degree; with b = 1 both are
// greedy's matching; bad b is refused.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <tuple>
#include <string>

#include "datasets/generators.hpp"
#include "lib/csr_build.hpp"
#include "lib/error.hpp"
#include "matchers/b_matching/b_matching.hpp"
#include "matchers/common/greedy.hpp"
#include "tests/check/check.hpp"
#include "tests/check/families.hpp"

using namespace matchblas;

namespace {

std::string describe(const Csr<double>& g, const BMatching& m) {
  std::string out;
  for (vertex_t u = 0; u < m.n(); ++u) {
    out += std::to_string(u) + ":";
    for (offset_t i = m.offsets[u]; i < m.offsets[u + 1]; ++i) {
      out += ' ';
      out += std::to_string(m.partners[i]);
    }
    out += " |";
  }
  out += "  edges:";
  for (vertex_t u = 0; u < g.n_rows; ++u)
    for (offset_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k)
      if (u < g.cols[k]) {  // appended piece by piece (GCC 12 warns, wrongly, on " " + std::string&&)
        out += ' ';
        out += std::to_string(u);
        out += '-';
        out += std::to_string(g.cols[k]);
        out += ':';
        out += std::to_string(g.weights[k]);
      }
  return out;
}

void require_same_b_matching(const Csr<double>& g, const std::vector<int>& b) {
  const BMatching ref = b_greedy(g, b);
  INFO(b_matching_violation(g, b, ref));
  REQUIRE(b_matching_violation(g, b, ref).empty());
  for (int threads : {0, 1, 2, 8}) {  // 0: b_suitor_seq
    CAPTURE(threads);
    const BMatching got = threads == 0 ? b_suitor_seq(g, b) : b_suitor_omp(g, b, threads);
    INFO(b_matching_violation(g, b, got));
    REQUIRE(b_matching_violation(g, b, got).empty());
    INFO("b_greedy: ", describe(g, ref));
    INFO("b_suitor: ", describe(g, got));
    CHECK(b_matching_weight(g, got) == doctest::Approx(b_matching_weight(g, ref)));
    REQUIRE(got == ref);
  }
}

}  // namespace

TEST_CASE("b_suitor_seq equals b_greedy on every test graph, constant and per-vertex b") {
  check::FamilyOptions opt;
  opt.random_graphs = 200;
  check::for_each_test_graph(
      [&](const std::string& name, const Csr<double>& g) {
        CAPTURE(name);
        for (int b : {1, 2, 3, 5}) {
          CAPTURE(b);
          require_same_b_matching(g, constant_b(g.n_rows, b));
        }
        require_same_b_matching(g, check::random_b(g.n_rows, std::hash<std::string>{}(name)));
      },
      opt);
}

TEST_CASE("b_suitor_omp equals b_greedy repeatedly on tie-heavy R-MAT and Erdos-Renyi graphs") {
  for (int ties : {2, 5}) {
    GenOptions gen;
    gen.seed = 41 + ties;
    gen.ties = ties;
    gen.edge_factor = 8;
    const Csr<double> r = rmat<double>(1 << 13, gen);
    const Csr<double> e = erdos_renyi<double>(10000, gen);
    for (const Csr<double>* g : {&r, &e})
      for (int b : {1, 2, 3, -1}) {  // -1: b(v) in {0, 1} (the one-offer path with closed vertices)
        std::vector<int> bs = constant_b(g->n_rows, std::max(b, 0));
        if (b < 0)
          for (vertex_t v = 0; v < g->n_rows; ++v) bs[v] = (v * 7 + 3) % 5 == 0 ? 0 : 1;
        const BMatching ref = b_greedy(*g, bs);
        for (int threads : {2, 8})
          for (int repeat = 0; repeat < 5; ++repeat) {
            CAPTURE(ties);
            CAPTURE(b);
            CAPTURE(threads);
            CAPTURE(repeat);
            REQUIRE(b_suitor_omp(*g, bs, threads) == ref);
          }
      }
  }
}

// The symmetric graph of undirected edges {u, v, w}.
Csr<double> graph_of(vertex_t n, const std::vector<std::tuple<vertex_t, vertex_t, double>>& edges) {
  Triples<double> t;
  for (const auto& [u, v, w] : edges) {
    t.push_back(u, v, w);
    t.push_back(v, u, w);
  }
  return csr_from_triples(n, n, t, Duplicates::max, false);
}

TEST_CASE("b-Suitor equals b_greedy where proposers pass over many refusals") {
  // Hub 0 with light edges to leaves 1..L; most leaves (b = 1) have a
  // private partner with a heavier edge, so they refuse the hub, which
  // walks its row in passes of growing size; every 7th leaf has none.
  const vertex_t leaves = 3000;
  std::vector<std::tuple<vertex_t, vertex_t, double>> edges;
  for (vertex_t i = 1; i <= leaves; ++i) {
    edges.emplace_back(0, i, 1.0 + 1e-4 * double(i % 97));
    if (i % 7 != 0) edges.emplace_back(i, leaves + i, 10.0 + 1e-3 * double(i % 13));
  }
  const Csr<double> g = graph_of(2 * leaves + 1, edges);
  for (int hub_b : {1, 5, 40, 600}) {
    CAPTURE(hub_b);
    std::vector<int> b = constant_b(g.n_rows, 1);
    b[0] = hub_b;
    require_same_b_matching(g, b);
  }
  // The same with the hub as the heaviest partner of a few leaves only.
  for (vertex_t i = 1; i <= leaves; i += 11) edges.emplace_back(0, i, 20.0);
  require_same_b_matching(graph_of(2 * leaves + 1, edges), constant_b(2 * leaves + 1, 3));
}

TEST_CASE("b-Suitor equals b_greedy with all weights equal, b above the degree and large per-vertex b") {
  // A complete graph of equal weights: the index breaks every tie.
  std::vector<std::tuple<vertex_t, vertex_t, double>> edges;
  for (vertex_t u = 0; u < 30; ++u)
    for (vertex_t v = u + 1; v < 30; ++v) edges.emplace_back(u, v, 1.0);
  const Csr<double> k30 = graph_of(30, edges);
  for (int b : {1, 2, 4, 29, 40}) {
    CAPTURE(b);
    require_same_b_matching(k30, constant_b(30, b));
  }
  // Tie-heavy R-MAT (hubs of a few hundred entries): b from 1 to above most
  // degrees (heaps of more than 8 offers), and per-vertex b up to beyond
  // the degree.
  GenOptions gen;
  gen.seed = 7;
  gen.ties = 3;
  gen.edge_factor = 8;
  const Csr<double> r = rmat<double>(1 << 11, gen);
  for (int b : {1, 7, 12, 100}) {
    CAPTURE(b);
    require_same_b_matching(r, constant_b(r.n_rows, b));
  }
  std::mt19937_64 rng(5);
  std::vector<int> b(static_cast<std::size_t>(r.n_rows));
  for (vertex_t v = 0; v < r.n_rows; ++v) {
    const int degree = int(r.degree(v));
    const int pick[] = {0, 1, 2, 9, 50, degree, degree + 3};
    b[v] = pick[rng() % 7];
  }
  require_same_b_matching(r, b);
}

TEST_CASE("b = 1 is greedy's matching") {
  for (std::uint64_t seed = 1; seed <= 100; ++seed) {
    const Csr<double> g = check::random_graph(vertex_t(seed % 40), 0.3, int(seed % 4), seed);
    const BMatching m = b_suitor_omp(g, constant_b(g.n_rows, 1), 2);
    const Matching greedy_m = greedy(g, 1);
    for (vertex_t v = 0; v < g.n_rows; ++v) {
      const offset_t count = m.offsets[v + 1] - m.offsets[v];
      CAPTURE(seed);
      CAPTURE(v);
      REQUIRE(count == (greedy_m.mate[v] == no_vertex ? 0 : 1));
      if (count == 1) CHECK(m.partners[m.offsets[v]] == greedy_m.mate[v]);
    }
  }
}

TEST_CASE("b(v) <= 1 everywhere (one offer per vertex) equals b_greedy; b(v) of 1 beside larger ones") {
  // Tie-heavy random graphs with isolated vertices: b(v) in {0, 1} (the
  // one-offer path of b_suitor_seq and b_suitor_omp), and the same b with a
  // few vertices raised to 2 or 3 (the general path, most heaps of one).
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    CAPTURE(seed);
    const vertex_t n = vertex_t(seed % 50);
    // Vertices n .. n + 4 have no edges.
    Csr<double> g = check::random_graph(n, 0.25, int(seed % 4), seed);
    std::vector<std::tuple<vertex_t, vertex_t, double>> edges;
    for (vertex_t u = 0; u < g.n_rows; ++u)
      for (offset_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k)
        if (u < g.cols[k]) edges.emplace_back(u, g.cols[k], g.weights[k]);
    g = graph_of(n + 5, edges);
    std::mt19937_64 rng(seed);
    std::vector<int> b(static_cast<std::size_t>(g.n_rows));
    for (int& x : b) x = rng() % 4 == 0 ? 0 : 1;
    require_same_b_matching(g, b);
    require_same_b_matching(g, constant_b(g.n_rows, 0));
    for (int& x : b)
      if (rng() % 6 == 0) x = 2 + int(rng() % 2);
    require_same_b_matching(g, b);
  }
  // Every vertex b = 1 on a complete graph of equal weights: the indices
  // break every tie, and every proposer but the last is displaced.
  std::vector<std::tuple<vertex_t, vertex_t, double>> edges;
  for (vertex_t u = 0; u < 40; ++u)
    for (vertex_t v = u + 1; v < 40; ++v) edges.emplace_back(u, v, 2.5);
  require_same_b_matching(graph_of(40, edges), constant_b(40, 1));
}

TEST_CASE("b-matching refuses a bad b and handles b = 0 and empty graphs") {
  const Csr<double> g = check::random_graph(10, 0.5, 0, 4);
  CHECK_THROWS_AS(b_greedy(g, constant_b(9, 1)), invalid_input);
  std::vector<int> b = constant_b(10, 1);
  b[3] = -1;
  CHECK_THROWS_WITH_AS(b_suitor_seq(g, b), doctest::Contains("b(3) = -1"), invalid_input);
  CHECK(b_suitor_seq(g, constant_b(10, 0)).num_edges() == 0);
  const Csr<double> empty = check::random_graph(0, 0.5, 0, 4);
  CHECK(b_suitor_seq(empty, {}).n() == 0);
}
