// roma-sparse-gpu against what the CPU versions guarantee: a valid matching,
// never below its start (suitor-gpu's = greedy's), rising phase by phase,
// and at the end no 2-augmentation above the threshold (the exhaustive
// checker) and at least 2/3 of the brute-force optimum; on random graphs
// with ties, a hub that every warp's augmentation wants to lock, float and
// double weights, and R-MAT (within 1% of the sequential version's weight).
#include <doctest/doctest.h>

#include "datasets/generators.hpp"
#include "lib/error.hpp"
#include "matchers/common/greedy.hpp"
#include "matchers/general/roma_sparse.hpp"
#include "matchers/general/roma_sparse_search.hpp"
#include "tests/check/check.hpp"

using namespace matchblas;

namespace {

RomaSparseOptions to_convergence(std::uint64_t seed = 1) {
  RomaSparseOptions o;
  o.phases = 1000;
  o.seed = seed;
  return o;
}

void require_locally_optimal(const Csr<double>& g, const RomaRun& run) {
  check::require_valid(g, run.matching);
  const double weight = matching_weight(g, run.matching);
  CHECK(run.start_weight == doctest::Approx(matching_weight(g, greedy(g, 1))).epsilon(1e-6));
  CHECK(weight >= run.start_weight - 1e-9 * std::max(1.0, weight));
  double previous = run.start_weight;
  for (const RomaPhase& p : run.phases) {
    CHECK(p.weight >= previous - 1e-9 * std::max(1.0, p.weight));
    previous = p.weight;
  }
  REQUIRE(!run.phases.empty());
  CHECK(run.phases.back().flips == 0);
  CHECK(check::largest_2_augmentation(g, run.matching).gain <= 1e-6);
}

}  // namespace

TEST_CASE("roma-sparse-gpu: random graphs with ties end locally optimal, >= greedy, >= 2/3 optimum") {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    CAPTURE(seed);
    const vertex_t n = vertex_t(2 + seed % 19);
    const Csr<double> g = check::random_graph(n, 0.35, int(seed % 3), seed);
    const RomaRun run = roma_sparse_gpu(g, to_convergence(seed), GpuOptions{});
    require_locally_optimal(g, run);
    CHECK(matching_weight(g, run.matching) >= 2.0 / 3.0 * check::brute_force_max_weight(g) - 1e-9);
    const Csr<float> f = check::with_weights<float>(g);
    check::require_valid(f, roma_sparse_gpu(f, to_convergence(seed), GpuOptions{}).matching);
  }
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {  // larger, where many warps race
    const Csr<double> g = check::random_graph(vertex_t(300 + 50 * seed), 0.03, int(seed % 2), seed);
    require_locally_optimal(g, roma_sparse_gpu(g, to_convergence(seed), GpuOptions{}));
  }
}

TEST_CASE("roma-sparse-gpu: a hub joined to every vertex, the other starts") {
  std::vector<std::vector<std::pair<vertex_t, double>>> rows(2000);
  for (vertex_t v = 1; v < 2000; ++v) {
    const double w = 0.5 + double(v % 7) / 10;
    rows[0].push_back({v, w});
    rows[v].push_back({0, w});
    if (v + 1 < 2000) {
      const double c = double((v * 37) % 11) / 10 + 0.05;
      rows[v].push_back({v + 1, c});
      rows[v + 1].push_back({v, c});
    }
  }
  Csr<double> g;
  g.n_rows = g.n_cols = 2000;
  for (auto& row : rows) {
    std::sort(row.begin(), row.end());
    for (const auto& [v, w] : row) g.cols.push_back(v), g.weights.push_back(w);
    g.offsets.push_back(offset_t(g.cols.size()));
  }
  require_locally_optimal(g, roma_sparse_gpu(g, to_convergence(), GpuOptions{}));
  for (RomaSparseStart start : {RomaSparseStart::gpa, RomaSparseStart::empty}) {
    RomaSparseOptions o = to_convergence();
    o.start = start;
    const RomaRun run = roma_sparse_gpu(g, o, GpuOptions{});
    check::require_valid(g, run.matching);
    CHECK(check::largest_2_augmentation(g, run.matching).gain <= 1e-6);
  }
}

TEST_CASE("roma-sparse-gpu: R-MAT within 1% of the sequential version, bad options refused") {
  GenOptions gen;
  gen.seed = 5;
  const Csr<double> g = rmat<double>(vertex_t(1) << 14, gen);
  const RomaRun gpu = roma_sparse_gpu(g, to_convergence(), GpuOptions{});
  const RomaRun cpu = roma_sparse(g, to_convergence());
  check::require_valid(g, gpu.matching);
  const double wg = matching_weight(g, gpu.matching), wc = matching_weight(g, cpu.matching);
  MESSAGE("R-MAT 2^14: gpu " << wg << " in " << gpu.phases.size() << " phases, cpu " << wc << " in "
                             << cpu.phases.size());
  CHECK(wg >= 0.99 * wc);
  CHECK(wg > gpu.start_weight);
  RomaSparseOptions bad;
  bad.phases = -1;
  CHECK_THROWS_AS(roma_sparse_gpu(g, bad, GpuOptions{}), invalid_input);
  RomaSparseOptions longer;
  longer.length = 3;  // the longer augmentations are the CPU versions' only
  CHECK_THROWS_AS(roma_sparse_gpu(g, longer, GpuOptions{}), invalid_input);
}

TEST_CASE("roma-sparse-gpu: bounded candidate lists, locally optimal within them") {
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const Csr<double> g = check::random_graph(vertex_t(40 + seed * 11), 0.2, seed % 2 ? 3 : 0, seed);
    CAPTURE(seed);
    for (int k : {1, 3}) {
      RomaSparseOptions o = to_convergence(seed);
      o.candidates = k;
      const RomaRun run = roma_sparse_gpu(g, o, GpuOptions{});
      check::require_valid(g, run.matching);
      CHECK(matching_weight(g, run.matching) >= run.start_weight - 1e-9);
      const Csr<double> lists = roma_sparse_detail::candidate_lists(g, k, roma_sparse_detail::CandidateOrder::column, 1);
      CHECK(check::largest_2_augmentation(g, run.matching, &lists).gain <= 1e-6);
    }
  }
}
