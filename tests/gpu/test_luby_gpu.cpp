// luby-gpu against its CPU twin luby (tests/matchers/test_luby.cpp checks
// luby against an edge-centric reference of Luby's rounds): the same
// matching, mate for mate, and the same number of rounds, for several seeds,
// on every test graph (random graphs with ties, the generated families, the
// real matrices), with float and double weights, in several launch shapes,
// and repeated (races would show as differences); rows of every length
// class (a thread, a warp or a block per row).
#include <doctest/doctest.h>

#include "datasets/generators.hpp"
#include "lib/counter_rng.hpp"
#include "lib/csr_build.hpp"
#include "matchers/general/luby.hpp"
#include "ops/select.hpp"
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

TEST_CASE("luby-gpu on rows of every length: a thread, a warp and a block per row") {
  // Hubs of 20000, 3000 and 300 neighbours and a sparse background, both
  // directions stored: every kernel of a round has rows to scan.
  const vertex_t n = 20001;
  Triples<double> t;
  const auto edge = [&](vertex_t u, vertex_t v) {
    t.push_back(u, v, 1.0);
    t.push_back(v, u, 1.0);
  };
  const rng::Stream draw(7, 0);
  for (vertex_t v = 1; v < n; ++v) edge(0, v);
  for (vertex_t k = 0; k < 3000; ++k) edge(1, vertex_t(2 + draw.below(3 * k, n - 2)));
  for (vertex_t k = 0; k < 300; ++k) edge(2, vertex_t(3 + draw.below(3 * k + 1, n - 3)));
  for (vertex_t k = 0; k < 4 * n; ++k)
    edge(vertex_t(3 + draw.below(3 * k + 2, n - 3)), vertex_t(3 + draw.below(3 * k + 3, n - 3)));
  Csr<double> g = csr_from_triples(n, n, t, Duplicates::max, false);
  // Drop the self-loops the background may have drawn (a general graph has none).
  g = ops::select_entries(g, [](vertex_t u, vertex_t v) { return u != v; });
  REQUIRE(g.degree(0) > 4096);
  REQUIRE(g.degree(1) > 256);
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    CAPTURE(seed);
    LubyStats cpu_stats, gpu_stats;
    const Matching want = luby(g, seed, 2, &cpu_stats);
    CHECK(luby_gpu(g, seed, {}, nullptr, &gpu_stats) == want);
    CHECK(gpu_stats.rounds == cpu_stats.rounds);
  }
}
