// The Global Paths Algorithm (matchers/general/gpa.hpp): valid and maximal on every
// test graph, at least half the optimum (brute force for n <= 16, the exact
// matcher otherwise when LEMON is there), independent of the thread count,
// hand cases for the applicable-edge rule, and the mean weight against greedy
// and the optimum on each generated family (reported with MESSAGE).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "datasets/generators.hpp"
#include "lib/error.hpp"
#include "matchers/general/exact.hpp"
#include "matchers/general/gpa.hpp"
#include "matchers/common/greedy.hpp"
#include "tests/check/check.hpp"
#include "tests/check/families.hpp"

using namespace matchblas;

namespace {

Csr<double> graph_of(vertex_t n, const std::vector<std::tuple<vertex_t, vertex_t, double>>& edges) {
  std::vector<std::vector<std::pair<vertex_t, double>>> adj(static_cast<std::size_t>(n));
  for (auto [u, v, w] : edges) adj[u].push_back({v, w}), adj[v].push_back({u, w});
  Csr<double> g;
  g.n_rows = g.n_cols = n;
  for (auto& row : adj) {
    std::sort(row.begin(), row.end());
    for (auto [v, w] : row) g.cols.push_back(v), g.weights.push_back(w);
    g.offsets.push_back(static_cast<offset_t>(g.cols.size()));
  }
  return g;
}

}  // namespace

TEST_CASE("gpa: valid, maximal, at least half the optimum, thread-count independent") {
  if (!have_exact()) MESSAGE("half-optimum check only for n <= 16: the exact matcher needs LEMON");
  check::for_each_test_graph([&](const std::string& name, const Csr<double>& g) {
    CAPTURE(name);
    const Matching m = gpa(g, 1);
    check::require_valid(g, m);
    CHECK(is_maximal(g, m));
    const double w = matching_weight(g, m);
    const double opt = g.n_rows <= 16 ? check::brute_force_max_weight(g)
                                      : (have_exact() ? matching_weight(g, exact_matching(g)) : -1);
    if (opt >= 0) CHECK(w >= 0.5 * opt * (1 - 1e-12));
    CHECK(gpa(g, 4) == m);
  });
}

TEST_CASE("gpa on hand cases") {
  // Path a-b-c-d, weights 1, 1.5, 1: greedy takes bc (1.5); GPA keeps all three
  // edges as one path and its DP takes ab + cd (2).
  const Csr<double> p = graph_of(4, {{0, 1, 1}, {1, 2, 1.5}, {2, 3, 1}});
  CHECK(matching_weight(p, greedy(p)) == 1.5);
  CHECK(matching_weight(p, gpa(p)) == 2);
  // Triangle 01 (3), 12 (2), 02 (1): 02 would close an odd cycle and is left
  // out; the path 0-1-2 gives 01.
  const Matching t = gpa(graph_of(3, {{0, 1, 3}, {1, 2, 2}, {0, 2, 1}}));
  CHECK((t.mate[0] == 1 && t.is_free(2)));
  // Even cycle: order 30 (3), then 01, 12, 23 (2 each); 23 joins the ends of
  // the odd path 3-0-1-2. The perfect matchings weigh {01, 23} = 4 and
  // {30, 12} = 5: the cycle DP must find 5.
  const Csr<double> c = graph_of(4, {{0, 1, 2}, {1, 2, 2}, {2, 3, 2}, {3, 0, 3}});
  CHECK(matching_weight(c, gpa(c)) == 5);
  // A vertex with two kept edges takes no third: star 0-{1,2,3} (3, 2, 1)
  // plus 2-4 (0.5). Kept: 01, 02, then 03 is not applicable (0 is inside the
  // path), 24 extends the path at its end 2. Path 1-0-2-4 (3, 2, 0.5): the DP
  // takes 01 + 24.
  const Csr<double> s = graph_of(5, {{0, 1, 3}, {0, 2, 2}, {0, 3, 1}, {2, 4, 0.5}});
  const Matching ms = gpa(s);
  CHECK((ms.mate[0] == 1 && ms.mate[2] == 4 && ms.is_free(3)));
  // The maximality fill: path 0-1-2-3-4 (5, 1, 1, 5) is kept, 2-5 (0.1) is
  // not (2 is inside the path); the DP takes 01 + 34 and leaves 2 free, and the
  // fill adds 25.
  const Csr<double> f = graph_of(6, {{0, 1, 5}, {1, 2, 1}, {2, 3, 1}, {3, 4, 5}, {2, 5, 0.1}});
  const Matching mf = gpa(f);
  CHECK((mf.mate[0] == 1 && mf.mate[3] == 4 && mf.mate[2] == 5));
  CHECK(matching_weight(f, mf) == doctest::Approx(10.1));
  Csr<double> rect;
  rect.n_rows = 1;
  rect.n_cols = 2;
  rect.offsets = {0, 0};
  CHECK_THROWS_AS(gpa(rect), invalid_input);
  CHECK(gpa(Csr<float>{}).size() == 0);
}

TEST_CASE("gpa: mean weight against greedy and the optimum per generated family") {
  const int seeds = 5;
  for (const check::GeneratedFamily& f : check::generated_families())
    for (int ties : {0, 3}) {
      double vs_greedy = 0, vs_opt = 0, greedy_opt = 0;
      for (int s = 1; s <= seeds; ++s) {
        GenOptions o;
        o.seed = static_cast<std::uint64_t>(s);
        o.ties = ties;
        o.edge_factor = 8;
        const Csr<double> g = f.make(o);
        const double wg = matching_weight(g, greedy(g, 1)), w = matching_weight(g, gpa(g, 1));
        vs_greedy += w / wg;
        if (have_exact()) {
          const double wx = matching_weight(g, exact_matching(g));
          CHECK(w >= 0.5 * wx * (1 - 1e-12));
          vs_opt += w / wx, greedy_opt += wg / wx;
        }
      }
      char line[200];
      std::snprintf(line, sizeof line, "%-12s ties=%d (%d seeds): gpa/greedy %.4f | gpa/opt %.4f  greedy/opt %.4f",
                    f.name.c_str(), ties, seeds, vs_greedy / seeds, vs_opt / seeds, greedy_opt / seeds);
      MESSAGE(line);
    }
  if (!have_exact()) MESSAGE("the /opt columns are 0: the exact matcher needs LEMON");
}
