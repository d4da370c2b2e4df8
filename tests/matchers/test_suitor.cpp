// suitor_seq, suitor_locks, suitor_cas (matchers/general/suitor.hpp): exactly
// greedy's matching, mate for mate, on every test graph (random tie-heavy
// graphs, generated families, real matrices), with double and float weights;
// the parallel variants at 1, 2 and 8 threads, repeated on tie-heavy graphs
// (races show as flakiness).
#include <doctest/doctest.h>

#include <string>

#include "datasets/generators.hpp"
#include "lib/error.hpp"
#include "matchers/common/greedy.hpp"
#include "matchers/general/suitor.hpp"
#include "tests/check/check.hpp"
#include "tests/check/families.hpp"

using namespace matchblas;

namespace {

template <class W>
void require_same_as_greedy_f(const Csr<W>& g, const Matching& m, const Matching& reference) {
  INFO("matching_violation: ", matching_violation(g, m));
  REQUIRE(matching_violation(g, m).empty());
  for (vertex_t u = 0; u < g.n_rows; ++u) {
    if (m.mate[u] == reference.mate[u]) continue;
    INFO("vertex ", u, ": mate ", m.mate[u], ", greedy's ", reference.mate[u]);
    REQUIRE(m.mate[u] == reference.mate[u]);
  }
}

// Tie-heavy mid-size graphs for the repeated race tests.
GenOptions ties_opt(int ties, std::uint64_t seed) {
  GenOptions opt;
  opt.ties = ties;
  opt.seed = seed;
  opt.edge_factor = 8;
  return opt;
}

}  // namespace

TEST_CASE("suitor_seq equals greedy on every test graph") {
  check::for_each_test_graph([&](const std::string& name, const Csr<double>& g) {
    CAPTURE(name);
    check::require_equals_greedy(g, suitor_seq(g, 1), greedy(g, 1));
  });
}

TEST_CASE("suitor_locks and suitor_cas equal greedy on every test graph at 1, 2 and 8 threads") {
  check::for_each_test_graph([&](const std::string& name, const Csr<double>& g) {
    CAPTURE(name);
    const Matching reference = greedy(g, 1);
    for (int threads : {1, 2, 8}) {
      CAPTURE(threads);
      check::require_equals_greedy(g, suitor_locks(g, threads), reference);
      check::require_equals_greedy(g, suitor_cas(g, threads), reference);
    }
  });
}

TEST_CASE("float weights: every variant equals greedy on generated graphs") {
  for (int ties : {0, 1, 3}) {
    const GenOptions opt = ties_opt(ties, 5 + ties);
    const std::pair<std::string, Csr<float>> graphs[] = {
        {"er 5000", erdos_renyi<float>(5000, opt)},
        {"rmat 4096", rmat<float>(4096, opt)},
        {"grid 50", grid2d<float>(50, opt)},
        {"bipartite 30", complete_bipartite<float>(30, opt)},
    };
    for (const auto& [name, g] : graphs) {
      CAPTURE(name);
      CAPTURE(ties);
      const Matching reference = greedy(g, 1);
      require_same_as_greedy_f(g, suitor_seq(g), reference);
      for (int threads : {1, 2, 8}) {
        CAPTURE(threads);
        require_same_as_greedy_f(g, suitor_locks(g, threads), reference);
        require_same_as_greedy_f(g, suitor_cas(g, threads), reference);
      }
    }
  }
}

TEST_CASE("parallel variants repeated on tie-heavy graphs (races show as flakiness)") {
  const Csr<float> rmat_f = rmat<float>(1 << 14, ties_opt(3, 11));
  const Csr<double> rmat_d = rmat<double>(1 << 14, ties_opt(3, 12));
  const Csr<double> er_d = erdos_renyi<double>(20000, ties_opt(2, 13));
  const Matching ref_rmat_f = greedy(rmat_f, 1), ref_rmat_d = greedy(rmat_d, 1), ref_er_d = greedy(er_d, 1);
  for (int threads : {1, 2, 8})
    for (int repeat = 0; repeat < 20; ++repeat) {
      CAPTURE(threads);
      CAPTURE(repeat);
      require_same_as_greedy_f(rmat_f, suitor_locks(rmat_f, threads), ref_rmat_f);
      require_same_as_greedy_f(rmat_f, suitor_cas(rmat_f, threads), ref_rmat_f);
      require_same_as_greedy_f(rmat_d, suitor_locks(rmat_d, threads), ref_rmat_d);
      require_same_as_greedy_f(rmat_d, suitor_cas(rmat_d, threads), ref_rmat_d);
      require_same_as_greedy_f(er_d, suitor_locks(er_d, threads), ref_er_d);
      require_same_as_greedy_f(er_d, suitor_cas(er_d, threads), ref_er_d);
    }
}

TEST_CASE("all weights equal: the tie rule alone decides") {
  // Complete graph on 7 vertices, every weight 1: greedy (and Suitor) match
  // {0,1}, {2,3}, {4,5} and leave 6 free.
  Csr<float> g;
  g.n_rows = g.n_cols = 7;
  g.offsets.assign(1, 0);
  for (vertex_t u = 0; u < 7; ++u) {
    for (vertex_t v = 0; v < 7; ++v)
      if (u != v) g.cols.push_back(v), g.weights.push_back(1.0f);
    g.offsets.push_back(static_cast<offset_t>(g.cols.size()));
  }
  const std::vector<vertex_t> expected{1, 0, 3, 2, 5, 4, no_vertex};
  CHECK(suitor_seq(g).mate == expected);
  CHECK(suitor_locks(g, 4).mate == expected);
  CHECK(suitor_cas(g, 4).mate == expected);
}

TEST_CASE("suitor variants: empty graphs and bad input") {
  const Csr<double> empty;
  CHECK(suitor_seq(empty).size() == 0);
  CHECK(suitor_locks(empty).size() == 0);
  CHECK(suitor_cas(empty).size() == 0);
  Csr<double> isolated;
  isolated.n_rows = isolated.n_cols = 3;
  isolated.offsets.assign(4, 0);
  CHECK(suitor_cas(isolated, 2) == Matching(3));
  Csr<double> rect;
  rect.n_rows = 2;
  rect.n_cols = 3;
  rect.offsets.assign(3, 0);
  CHECK_THROWS_AS(suitor_seq(rect), invalid_input);
  CHECK_THROWS_AS(suitor_locks(rect), invalid_input);
  CHECK_THROWS_AS(suitor_cas(rect), invalid_input);
  CHECK_THROWS_AS(suitor_heavy(rect), invalid_input);
}

TEST_CASE("suitor variants on negative weights and large tie-heavy graphs") {
  check::FamilyOptions none;
  none.random_graphs = 0;
  none.generated = false;
  none.real = false;
  check::require_greedy_family([](const Csr<double>& g, int) { return suitor_seq(g); },
                               [](const Csr<float>& g, int) { return suitor_seq(g); }, /*parallel=*/false, 0, none);
  check::require_greedy_family([](const Csr<double>& g, int t) { return suitor_locks(g, t); },
                               [](const Csr<float>& g, int t) { return suitor_locks(g, t); }, /*parallel=*/true, 5,
                               none);
  check::require_greedy_family([](const Csr<double>& g, int t) { return suitor_cas(g, t); },
                               [](const Csr<float>& g, int t) { return suitor_cas(g, t); }, /*parallel=*/true, 5,
                               none);
}
