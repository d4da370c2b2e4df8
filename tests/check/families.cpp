#include "tests/check/families.hpp"

#include <doctest/doctest.h>

#include "datasets/generators.hpp"
#include "lib/graph_from_matrix.hpp"
#include "lib/mmio.hpp"
#include "matchers/common/greedy.hpp"
#include "tests/check/check.hpp"

namespace matchblas::check {

const std::vector<GeneratedFamily>& generated_families() {
  static const std::vector<GeneratedFamily> families{
      {"er 3000", [](const GenOptions& o) { return erdos_renyi<double>(3000, o); }},
      {"rmat 4096", [](const GenOptions& o) { return rmat<double>(4096, o); }},
      {"grid 60", [](const GenOptions& o) { return grid2d<double>(60, o); }},
      {"bipartite 40", [](const GenOptions& o) { return complete_bipartite<double>(40, o); }}};
  return families;
}

void for_each_test_graph(const std::function<void(const std::string&, const Csr<double>&)>& f,
                         const FamilyOptions& opt) {
  for (int i = 0; i < opt.random_graphs; ++i) {
    const std::uint64_t seed = 1000 + i;
    const vertex_t n = static_cast<vertex_t>(i % 41);
    const int ties = i % 4;  // 0: continuous; 1: all weights equal; 2, 3: few values
    const double density = 0.05 + 0.1 * (i % 10);
    f("random n=" + std::to_string(n) + " density=" + std::to_string(density) + " ties=" + std::to_string(ties) +
          " seed=" + std::to_string(seed),
      random_graph(n, density, ties, seed));
  }
  if (opt.generated) {
    for (int ties : {0, 3}) {
      GenOptions g;
      g.seed = 7;
      g.ties = ties;
      g.edge_factor = 8;
      const std::string t = " ties=" + std::to_string(ties);
      for (const GeneratedFamily& family : generated_families()) f(family.name + t, family.make(g));
    }
  }
  if (opt.real) {
    const auto dir = shared_matrices();
    if (!dir) {
      MESSAGE("real matrices skipped: the shared collection is absent");
      return;
    }
    for (const auto& e : std::filesystem::directory_iterator(*dir)) {
      const std::string name = e.path().filename().string();
      if (name.find(".mtx") == std::string::npos || name == "young1c.mtx") continue;
      const MmMatrix a = read_matrix_market(e.path().string());
      f(name, a.header.rows == a.header.cols ? general_graph<double>(a)
                                             : bipartite_as_general(bipartite_graph<double>(a)));
    }
  }
}

void require_equals_greedy(const Csr<double>& g, const Matching& m, const Matching& greedy_matching) {
  require_valid(g, m);
  for (vertex_t u = 0; u < g.n_rows; ++u) {
    if (m.mate[u] == greedy_matching.mate[u]) continue;
    INFO("vertex ", u, ": mate ", m.mate[u], ", greedy's ", greedy_matching.mate[u]);
    REQUIRE(m.mate[u] == greedy_matching.mate[u]);
  }
}

void require_greedy_family(const GreedyFamilyMatcher& match, const GreedyFamilyMatcherF& match_float, bool parallel,
                           int repeats, const FamilyOptions& opt) {
  const std::vector<int> thread_counts = parallel ? std::vector<int>{1, 2, 8} : std::vector<int>{1};
  for_each_test_graph(
      [&](const std::string& name, const Csr<double>& g) {
        CAPTURE(name);
        const Matching reference = greedy(g, 1);
        for (int threads : thread_counts) {
          CAPTURE(threads);
          require_equals_greedy(g, match(g, threads), reference);
        }
      },
      opt);
  // Negative weights (a Csr built by hand; files and generators give positive
  // ones): the order, and so the matching, is still greedy's.
  {
    GenOptions gen;
    gen.seed = 17;
    gen.ties = 3;
    Csr<double> negated = erdos_renyi<double>(2000, gen);
    for (double& w : negated.weights) w = -w;
    const Matching reference = greedy(negated, 1);
    for (int threads : thread_counts) {
      CAPTURE(threads);
      INFO("negated Erdos-Renyi 2000");
      require_equals_greedy(negated, match(negated, threads), reference);
    }
  }
  if (!parallel) return;
  for (int ties : {2, 5}) {
    GenOptions gen;
    gen.seed = 31 + ties;
    gen.ties = ties;
    gen.edge_factor = 8;
    const Csr<float> rf = rmat<float>(1 << 14, gen);
    const Csr<double> ed = erdos_renyi<double>(20000, gen);
    const Matching rf_greedy = greedy(rf, 1), ed_greedy = greedy(ed, 1);
    for (int threads : {2, 8})
      for (int r = 0; r < repeats; ++r) {
        CAPTURE(ties);
        CAPTURE(threads);
        CAPTURE(r);
        const Matching a = match_float(rf, threads);
        INFO("rmat float: ", matching_violation(rf, a));
        REQUIRE(a == rf_greedy);
        require_equals_greedy(ed, match(ed, threads), ed_greedy);
      }
  }
}

}  // namespace matchblas::check
