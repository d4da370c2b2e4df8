// The --backend option of the registry's matchers written with the ops
// (handshake, ld-rounds, suitor-bulk): run through the registry with
// --backend graphblas, the matching equals the plain backend's mate for mate
// (and greedy's) on R-MAT and Erdos-Renyi graphs with ties, float and double
// weights, at 1 and 2 threads; without GraphBLAS the option is refused
// before any input is read, naming the reason.
#pragma once
#include <doctest/doctest.h>

#include <string>

#include "datasets/generators.hpp"
#include "matchers/common/greedy.hpp"
#include "matchers/registry.hpp"
#include "ops/backend.hpp"

namespace matchblas::check {

inline void require_backend_option(const std::string& name) {
  const MatcherInfo& m = find_matcher(name);
  REQUIRE(m.option("backend") != nullptr);
  CHECK(parse_options(m, {}).word("backend") == "plain");
  CHECK_THROWS_AS(parse_options(m, {{"backend", "gpu"}}), invalid_input);
  if (!ops::have_graphblas()) {
    MESSAGE("graphblas backend skipped: this build has no SuiteSparse:GraphBLAS");
    CHECK_THROWS_WITH_AS(parse_options(m, {{"backend", "graphblas"}}), doctest::Contains("SuiteSparse:GraphBLAS"),
                         invalid_input);
    return;
  }
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    CAPTURE(seed);
    GenOptions opt;
    opt.seed = seed;
    opt.ties = int(seed % 3);  // 0: continuous weights
    opt.edge_factor = 6;
    const Csr<double> g = seed % 2 == 0 ? rmat<double>(1 << 11, opt) : erdos_renyi<double>(1500, opt);
    const Csr<float> f = seed % 2 == 0 ? rmat<float>(1 << 11, opt) : erdos_renyi<float>(1500, opt);
    for (const int threads : {1, 2}) {
      CAPTURE(threads);
      RunOptions plain, graphblas;
      plain.threads = graphblas.threads = threads;
      graphblas.options = parse_options(m, {{"backend", "graphblas"}});
      const Matching want = run_matching(m, &g, plain);
      CHECK(want == greedy(g, 1));
      CHECK(run_matching(m, &g, graphblas) == want);
      const Matching want_f = run_matching(m, &f, plain);
      CHECK(want_f == greedy(f, 1));
      CHECK(run_matching(m, &f, graphblas) == want_f);
    }
  }
}

}  // namespace matchblas::check
