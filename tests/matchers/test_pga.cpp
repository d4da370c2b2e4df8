// Path growing matchers (matchers/general/pga.hpp): valid matchings on every test
// graph, at least half the optimum (brute force for n <= 16, the exact
// matcher otherwise when LEMON is there), pga_dp never lighter than pga, hand
// cases, and the mean weight against greedy and the optimum on each generated
// family (reported with MESSAGE).
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "datasets/generators.hpp"
#include "lib/error.hpp"
#include "matchers/general/exact.hpp"
#include "matchers/common/greedy.hpp"
#include "matchers/general/pga.hpp"
#include "tests/check/check.hpp"
#include "tests/check/families.hpp"

using namespace matchblas;

namespace {

// The optimum weight of g: brute force for small graphs, else LEMON, else
// nothing (negative).
double optimum(const Csr<double>& g) {
  if (g.n_rows <= 16) return check::brute_force_max_weight(g);
  return have_exact() ? matching_weight(g, exact_matching(g)) : -1;
}

}  // namespace

TEST_CASE("pga and pga_dp: valid, at least half the optimum, pga_dp >= pga") {
  if (!have_exact()) MESSAGE("half-optimum check only for n <= 16: the exact matcher needs LEMON");
  check::for_each_test_graph([&](const std::string& name, const Csr<double>& g) {
    CAPTURE(name);
    const Matching a = pga(g, 1), b = pga_dp(g, 1);
    check::require_valid(g, a);
    check::require_valid(g, b);
    const double wa = matching_weight(g, a), wb = matching_weight(g, b);
    CHECK(wb >= wa * (1 - 1e-12));
    const double opt = optimum(g);
    if (opt >= 0) {
      CHECK(wa >= 0.5 * opt * (1 - 1e-12));
      CHECK(wb <= opt * (1 + 1e-12));
    }
    CHECK(pga(g, 1) == a);  // deterministic
  });
}

TEST_CASE("pga and pga_dp on hand cases") {
  // Path 0-1-2-3 with weights 1, 1.5, 1 grown from 0: 0->1 (1), 1->2 (1.5),
  // 2->3 (1). M1 = {01, 23} = 2 beats M2 = {12} = 1.5; PGA' finds the same.
  Csr<double> p;
  p.n_rows = p.n_cols = 4;
  p.offsets = {0, 1, 3, 5, 6};
  p.cols = {1, 0, 2, 1, 3, 2};
  p.weights = {1, 1, 1.5, 1.5, 1, 1};
  CHECK(matching_weight(p, pga(p)) == 2);
  CHECK(matching_weight(p, pga_dp(p)) == 2);
  // Path 0-1-2-3 with weights 1, 3, 1, then the edge 4-5 of weight 2: the
  // alternation runs on across paths, so 45 joins 12 in M2 = 5 > M1 = 2.
  Csr<double> q;
  q.n_rows = q.n_cols = 6;
  q.offsets = {0, 1, 3, 5, 6, 7, 8};
  q.cols = {1, 0, 2, 1, 3, 2, 5, 4};
  q.weights = {1, 1, 3, 3, 1, 1, 2, 2};
  const Matching m = pga(q);
  CHECK((m.mate[1] == 2 && m.mate[4] == 5 && m.is_free(0) && m.is_free(3)));
  CHECK(matching_weight(q, pga_dp(q)) == 5);
  Csr<double> rect;
  rect.n_rows = 1;
  rect.n_cols = 2;
  rect.offsets = {0, 0};
  CHECK_THROWS_AS(pga(rect), invalid_input);
  CHECK_THROWS_AS(pga_dp(rect), invalid_input);
  CHECK(pga(Csr<float>{}).size() == 0);
}

TEST_CASE("pga and pga_dp: mean weight against greedy and the optimum per generated family") {
  const int seeds = 5;
  for (const check::GeneratedFamily& f : check::generated_families())
    for (int ties : {0, 3}) {
      double pga_g = 0, dp_g = 0, pga_x = 0, dp_x = 0, greedy_x = 0;
      for (int s = 1; s <= seeds; ++s) {
        GenOptions o;
        o.seed = static_cast<std::uint64_t>(s);
        o.ties = ties;
        o.edge_factor = 8;
        const Csr<double> g = f.make(o);
        const double wg = matching_weight(g, greedy(g, 1));
        const double wa = matching_weight(g, pga(g, 1)), wb = matching_weight(g, pga_dp(g, 1));
        pga_g += wa / wg, dp_g += wb / wg;
        if (have_exact()) {
          const double wx = matching_weight(g, exact_matching(g));
          CHECK(wa >= 0.5 * wx * (1 - 1e-12));
          pga_x += wa / wx, dp_x += wb / wx, greedy_x += wg / wx;
        }
      }
      char line[256];
      std::snprintf(line, sizeof line,
                    "%-12s ties=%d (%d seeds): pga/greedy %.4f  pga_dp/greedy %.4f | pga/opt %.4f  pga_dp/opt %.4f  "
                    "greedy/opt %.4f",
                    f.name.c_str(), ties, seeds, pga_g / seeds, dp_g / seeds, pga_x / seeds, dp_x / seeds,
                    greedy_x / seeds);
      MESSAGE(line);
    }
  if (!have_exact()) MESSAGE("the /opt columns are 0: the exact matcher needs LEMON");
}
