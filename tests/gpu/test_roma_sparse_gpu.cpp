// roma-sparse-gpu against what the CPU versions guarantee: a valid matching,
// never below its start (suitor-gpu's = greedy's), rising phase by phase,
// and at the end no 2-augmentation above the threshold (the exhaustive
// checker) and at least 2/3 of the brute-force optimum; on random graphs
// with ties, a hub that every warp's augmentation wants to lock, float and
// double weights, and R-MAT (within 1% of the sequential version's weight).
// With longer augmentations (length L): no alternating cycle of up to L new
// edges left where no search reaches its budget (the exhaustive checker),
// signed and zero weights, a hub's races, R-MAT against the CPU at L = 4.
#include <doctest/doctest.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "datasets/generators.hpp"
#include "lib/error.hpp"
#include "matchers/common/greedy.hpp"
#include "matchers/general/roma_sparse.hpp"
#include "matchers/general/roma_sparse_search.hpp"
#include "tests/check/check.hpp"
#include "tests/check/community_check.hpp"

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
  for (int length : {1, roma_sparse_gpu_max_length + 1}) {
    RomaSparseOptions o;
    o.length = length;
    CHECK_THROWS_AS(roma_sparse_gpu(g, o, GpuOptions{}), invalid_input);
  }
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

namespace {

// A run with longer augmentations to convergence: valid, rising, ended by
// a phase of each kind without augmentations, no 2-augmentation left.
void require_converged(const Csr<double>& g, const RomaRun& run) {
  check::require_valid(g, run.matching);
  double previous = run.start_weight;
  for (const RomaPhase& p : run.phases) {
    CHECK(p.weight >= previous - 1e-9 * std::max(1.0, std::abs(p.weight)));
    previous = p.weight;
  }
  CHECK(matching_weight(g, run.matching) == doctest::Approx(previous));
  REQUIRE(run.phases.size() >= 2);
  const RomaPhase& last = run.phases.back();
  const RomaPhase& before = run.phases[run.phases.size() - 2];
  CHECK(last.flips == 0);
  CHECK(before.flips == 0);
  CHECK((last.kernel == "long") != (before.kernel == "long"));
  CHECK(check::largest_2_augmentation(g, run.matching).gain <= 1e-9);
}

}  // namespace

TEST_CASE("roma-sparse-gpu: longer augmentations leave no improving cycle of up to L new edges") {
  // Degrees small enough that no root's search reaches the budget of 256
  // added edges (length 3: 5 + 25 + 125; length 4: 3 + 9 + 27 + 81), so
  // that Lin and Kernighan's rule loses no improving cycle.
  int tested = 0, at_four = 0, above_two = 0;
  for (std::uint64_t seed = 1; seed <= 150; ++seed) {
    const int ties = seed % 3 == 0 ? 3 : 0;
    Csr<double> g = check::random_graph(vertex_t(10 + seed % 11), seed % 2 ? 0.22 : 0.12, ties, seed);
    const offset_t degree = check::max_degree(g);
    const int length = degree <= 3 ? 4 : 3;
    if (degree > 5) continue;
    at_four += length == 4;
    if (seed % 4 == 1)  // signed weights with zeros: the lists' order keys
      for (double& w : g.weights) w = std::round(w * 4) / 4 - 0.5;
    CAPTURE(seed);
    CAPTURE(length);
    ++tested;
    RomaSparseOptions o = to_convergence(seed);
    o.length = length;
    const RomaRun run = roma_sparse_gpu(g, o, GpuOptions{});
    require_converged(g, run);
    CHECK(check::largest_alternating_cycle(g, run.matching, length) <= 1e-9);
    const double weight = matching_weight(g, run.matching), optimum = check::brute_force_max_weight(g);
    CHECK(weight <= optimum + 1e-9);
    if (seed % 4 != 1) CHECK(weight >= 2.0 / 3.0 * optimum - 1e-9);
    o.length = 2;
    above_two += weight > matching_weight(g, roma_sparse_gpu(g, o, GpuOptions{}).matching) + 1e-9;
    const Csr<float> f = check::with_weights<float>(g);
    o.length = length;
    check::require_valid(f, roma_sparse_gpu(f, o, GpuOptions{}).matching);
  }
  CHECK(tested >= 80);
  CHECK(at_four >= 25);
  CHECK(above_two >= 3);  // the longer search finds what 2-augmentations cannot
}

TEST_CASE("roma-sparse-gpu: a 6-cycle that only length 3 improves; a hub's races at length 6") {
  // Greedy's (0,1), (2,3), (4,5) weigh 4 and no 2-augmentation gains; the
  // 6-cycle's new edges (1,2), (3,4), (5,0) weigh 4.3, the optimum.
  const Csr<double> g = check::graph_from_edges(6, {{0, 1, 2.0}, {1, 2, 1.9}, {5, 0, 1.9}, {2, 3, 1.0}, {4, 5, 1.0}, {3, 4, 0.5}});
  RomaSparseOptions o = to_convergence();
  CHECK(matching_weight(g, roma_sparse_gpu(g, o, GpuOptions{}).matching) == doctest::Approx(4.0));
  for (int length : {3, 4, roma_sparse_gpu_max_length}) {
    o.length = length;
    const RomaRun run = roma_sparse_gpu(g, o, GpuOptions{});
    require_converged(g, run);
    CHECK(matching_weight(g, run.matching) == doctest::Approx(4.3));
  }
  std::vector<std::tuple<vertex_t, vertex_t, double>> hub;
  std::vector<std::pair<vertex_t, vertex_t>> seen;
  const auto add = [&](vertex_t u, vertex_t v, double w) {
    const std::pair<vertex_t, vertex_t> e{std::min(u, v), std::max(u, v)};
    if (u == v || std::find(seen.begin(), seen.end(), e) != seen.end()) return;
    seen.push_back(e);
    hub.push_back({u, v, w});
  };
  for (vertex_t v = 1; v < 3000; ++v) {
    add(0, v, 0.5 + double(v % 7) / 10);
    add(v, v % 2999 + 1, double((v * 37) % 11) / 10 + 0.05);
    add(v, (v * 7) % 2999 + 1, double((v * 13) % 17) / 10 + 0.05);
  }
  const Csr<double> h = check::graph_from_edges(3000, hub);
  for (int length : {4, 6}) {
    CAPTURE(length);
    o.length = length;
    require_converged(h, roma_sparse_gpu(h, o, GpuOptions{}));
  }
}

TEST_CASE("roma-sparse-gpu: R-MAT at length 4 within 1% of the CPU's, heavier than length 2") {
  GenOptions gen;
  gen.seed = 9;
  const Csr<double> g = rmat<double>(vertex_t(1) << 14, gen);
  RomaSparseOptions o = to_convergence();
  const double two = matching_weight(g, roma_sparse_gpu(g, o, GpuOptions{}).matching);
  o.length = 4;
  const RomaRun gpu = roma_sparse_gpu(g, o, GpuOptions{});
  require_converged(g, gpu);
  const double wg = matching_weight(g, gpu.matching), wc = matching_weight(g, roma_sparse(g, o).matching);
  MESSAGE("R-MAT 2^14, length 4: gpu " << wg << " in " << gpu.phases.size() << " phases, cpu " << wc
                                       << "; gpu length 2: " << two);
  CHECK(wg >= 0.99 * wc);
  CHECK(wg > two);
  RomaSparseOptions bounded = o;  // lists of 3 candidates: valid, rising
  bounded.candidates = 3;
  const RomaRun b = roma_sparse_gpu(g, bounded, GpuOptions{});
  check::require_valid(g, b.matching);
  CHECK(matching_weight(g, b.matching) >= b.start_weight);
}
