// luby-gpu against its CPU twin luby (tests/matchers/test_luby.cpp checks
// luby against an edge-centric reference of Luby's rounds): the same
// matching, mate for mate, and the same number of rounds, for several seeds,
// on every test graph (random graphs with ties, the generated families, the
// real matrices), with float and double weights, in several launch shapes,
// and repeated (races would show as differences).
#include <doctest/doctest.h>

#include "datasets/generators.hpp"
#include "matchers/general/luby.hpp"
#include "tests/check/check.hpp"
#include "tests/check/families.hpp"

using namespace matchblas;

TEST_CASE("luby-gpu equals luby mate for mate and round for round on every test graph") {
  check::FamilyOptions families;
  families.random_graphs = 60;
  int graphs = 0;
  check::for_each_test_graph(
      [&](const std::string& name, const Csr<double>& g) {
        CAPTURE(name);
        ++graphs;
        for (std::uint64_t seed : {1, 2, 977}) {
          CAPTURE(seed);
          LubyStats cpu_stats, gpu_stats;
          const Matching want = luby(g, seed, 2, &cpu_stats);
          for (int threads : {0, 1000}) {  // a thread per vertex; a few blocks striding
            CAPTURE(threads);
            GpuOptions opt;
            opt.threads = threads;
            CHECK(luby_gpu(g, seed, opt, nullptr, &gpu_stats) == want);
            CHECK(gpu_stats.rounds == cpu_stats.rounds);
          }
          CHECK(luby_gpu(check::with_weights<float>(g), seed) == want);
        }
      },
      families);
  CHECK(graphs > 60);
}

TEST_CASE("luby-gpu repeated on large tie-heavy graphs: one matching") {
  GenOptions gen;
  gen.seed = 3;
  gen.ties = 3;
  gen.edge_factor = 16;
  for (const Csr<double>& g : {rmat<double>(1 << 17, gen), erdos_renyi<double>(1 << 17, gen)}) {
    const Matching want = luby(g, 42, 0);
    for (int repeat = 0; repeat < 5; ++repeat) CHECK(luby_gpu(g, 42) == want);
  }
}
