// louvain-gpu (matchers/community/louvain_gpu.cu): with --coloring off and
// integer weights (every sum exact) its levels equal louvain_omp
// --coloring off's, level for level (the same moves per level, passes,
// communities, hierarchy), on random graphs with loops at three
// resolutions and on R-MAT graphs whose hubs' rows take the global-memory
// hash tables; with colouring (the default), real weights and everywhere:
// a valid partition at its reported modularity (1e-9) with no improving
// vertex move (tests/check/community_check.hpp), and mean modularity
// within 1% of the sequential louvain's; the same partition on a repeat
// with integer weights, with and without colouring; with colouring on
// R-MAT (its core in the last, settling class) and on a graph with rows of
// several pieces within 1% of louvain-omp's modularity; each --together
// rule a local optimum; the edge cases (no vertices, no edges, isolated
// vertices), bad input, a bad GPU id.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "datasets/generators.hpp"
#include "lib/error.hpp"
#include "matchers/community/louvain.hpp"
#include "matchers/registry.hpp"
#include "ops/modularity.hpp"
#include "tests/check/community_check.hpp"

using namespace matchblas;

namespace {

using check::require_local_optimum;

// The levels of two runs, level for level.
void require_same_levels(const Communities& got, const Communities& want) {
  REQUIRE(got.levels.size() == want.levels.size());
  for (std::size_t l = 0; l < want.levels.size(); ++l) {
    CAPTURE(l);
    CHECK(got.levels[l].vertices == want.levels[l].vertices);
    CHECK(got.levels[l].entries == want.levels[l].entries);
    CHECK(got.levels[l].communities == want.levels[l].communities);
    CHECK(got.levels[l].moved == want.levels[l].moved);
    CHECK(got.levels[l].passes == want.levels[l].passes);
    REQUIRE(got.hierarchy[l] == want.hierarchy[l]);
  }
}

// A symmetric R-MAT graph on 2^scale vertices with integer weights 1..16.
Csr<double> integer_rmat(int scale, double edge_factor, std::uint64_t seed) {
  GenOptions o;
  o.seed = seed;
  o.edge_factor = edge_factor;
  Csr<double> g = rmat<double>(vertex_t(1) << scale, o);
  for (double& w : g.weights) w = std::ceil(w * 16);
  return g;
}

}  // namespace

TEST_CASE("louvain-gpu: with integer weights, louvain-omp --coloring off's levels; always a local optimum") {
  std::mt19937 rng(2017);
  for (int trial = 0; trial < 12; ++trial) {
    const vertex_t n = 40 + vertex_t(rng() % 700);
    const Csr<double> g = check::random_community_graph(n, 4.0 / n + 0.02 * (trial % 3), 1 + trial % 5,
                                                        trial % 2 ? 0.15 : 0.0, rng);
    CAPTURE(trial);
    CAPTURE(n);
    for (double gamma : {0.5, 1.0, 2.0}) {
      CAPTURE(gamma);
      LouvainOptions o;
      o.resolution = gamma;
      o.coloring = false;
      const Communities got = louvain_gpu(g, o);
      require_local_optimum(g, got, gamma);
      require_same_levels(got, louvain_omp(g, o));
    }
  }
}

TEST_CASE("louvain-gpu: R-MAT with hubs (global tables), integer weights: louvain-omp --coloring off's levels") {
  for (int scale : {10, 13}) {
    CAPTURE(scale);
    const Csr<double> g = integer_rmat(scale, 8, std::uint64_t(scale));
    offset_t longest = 0;
    for (vertex_t u = 0; u < g.n_rows; ++u) longest = std::max(longest, g.offsets[u + 1] - g.offsets[u]);
    REQUIRE(longest > 256);  // rows past the shared tables
    LouvainOptions o;
    o.coloring = false;
    const Communities got = louvain_gpu(g, o);
    require_same_levels(got, louvain_omp(g, o));
    require_local_optimum(g, got, 1.0);
    const Communities again = louvain_gpu(g, o);
    CHECK(again.label == got.label);  // exact sums: no race shows
    o.coloring = true;
    const Communities coloured = louvain_gpu(g, o);
    require_local_optimum(g, coloured, 1.0);
    CHECK(louvain_gpu(g, o).label == coloured.label);
    // The last colour class (R-MAT's core) settles by gains: modularity
    // within 1% of louvain-omp's full colouring.
    CHECK(coloured.modularity >= 0.99 * louvain_omp(g, o).modularity);
    // Refine off: the same levels (the colouring leaves R-MAT's core to
    // the last, mixed class), no final moves, less modularity.
    o.refine = false;
    const Communities off = louvain_gpu(g, o);
    CHECK(communities_violation(g, off, 1.0).empty());
    CHECK(off.hierarchy == coloured.hierarchy);
    CHECK(off.refine_passes == 0);
    CHECK(coloured.refine_moves > 0);
    CHECK(off.modularity < coloured.modularity);
  }
}

TEST_CASE("louvain-gpu: rows over 1024 entries (decided by their pieces and a block each), integer weights") {
  // Groups of 50 with noise, and hubs joined to 1100-4500 vertices: rows of
  // two to five pieces at the first level, longer ones after.
  std::mt19937 rng(41);
  const vertex_t n = 6000;
  std::set<std::pair<vertex_t, vertex_t>> seen;
  std::vector<std::tuple<vertex_t, vertex_t, double>> edges;
  std::uniform_int_distribution<vertex_t> any(0, n - 1);
  std::uniform_int_distribution<int> weight(1, 4);
  const auto add = [&](vertex_t u, vertex_t v) {
    if (u != v && seen.insert({std::min(u, v), std::max(u, v)}).second) edges.emplace_back(u, v, weight(rng));
  };
  for (vertex_t u = 0; u < n; ++u) {
    for (int j = 0; j < 4; ++j) add(u, u / 50 * 50 + vertex_t(rng() % 50));
    add(u, any(rng));
  }
  std::vector<vertex_t> others(static_cast<std::size_t>(n));
  for (vertex_t u = 0; u < n; ++u) others[std::size_t(u)] = u;
  for (const auto& [hub, degree] : {std::pair{7, 1100}, std::pair{1234, 2600}, std::pair{4000, 4500}}) {
    std::shuffle(others.begin(), others.end(), rng);
    for (int j = 0; j < degree; ++j) add(vertex_t(hub), others[std::size_t(j)]);
  }
  const Csr<double> g = check::graph_from_edges(n, edges);
  offset_t longest = 0;
  for (vertex_t u = 0; u < n; ++u) longest = std::max(longest, g.offsets[u + 1] - g.offsets[u]);
  REQUIRE(longest > 4096);
  for (double gamma : {0.5, 1.0}) {
    CAPTURE(gamma);
    LouvainOptions o;
    o.resolution = gamma;
    o.coloring = false;
    const Communities got = louvain_gpu(g, o);
    require_same_levels(got, louvain_omp(g, o));
    require_local_optimum(g, got, gamma);
    o.coloring = true;
    const Communities coloured = louvain_gpu(g, o);
    require_local_optimum(g, coloured, gamma);
    CHECK(louvain_gpu(g, o).label == coloured.label);  // exact sums: no race shows
    CHECK(coloured.modularity >= 0.99 * louvain_omp(g, o).modularity);
  }
}

TEST_CASE("louvain-gpu: real weights: a local optimum, mean modularity within 1% of the sequential louvain's") {
  std::mt19937 rng(4);
  double gpu_sum = 0, seq_sum = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const vertex_t n = 100 + vertex_t(rng() % 900);
    const Csr<double> g = check::random_community_graph(n, 3.0 / n + 0.01 * (trial % 4), 0, 0.1, rng);
    CAPTURE(trial);
    const Communities got = louvain_gpu(g);
    require_local_optimum(g, got, 1.0);
    gpu_sum += got.modularity;
    seq_sum += louvain(g).modularity;
    LouvainOptions off;
    off.coloring = false;
    require_local_optimum(g, louvain_gpu(g, off), 1.0);
  }
  GenOptions o;
  o.seed = 7;
  const Csr<double> r = rmat<double>(1 << 14, o);
  const Communities got = louvain_gpu(r);
  require_local_optimum(r, got, 1.0);
  gpu_sum += got.modularity;
  seq_sum += louvain(r).modularity;
  CHECK(gpu_sum >= 0.99 * seq_sum);
}

TEST_CASE("louvain-gpu: each --together rule: a local optimum, the same partition on a repeat (integer weights)") {
  // strict, additive and drawn on R-MAT 2^13 (a dense core in the settling
  // class), on graphs with hubs and on random graphs with loops; the
  // modularity of each against louvain-omp's is printed; strict and drawn
  // (the default) within 1% of it on R-MAT.
  std::mt19937 rng(5);
  std::vector<Csr<double>> graphs = {integer_rmat(13, 8, 13), integer_rmat(12, 16, 3)};
  for (int trial = 0; trial < 4; ++trial) {
    const vertex_t n = 300 + vertex_t(rng() % 700);
    Csr<double> g = check::random_community_graph(n, 5.0 / n, 1 + trial, 0.1, rng);
    for (double& w : g.weights) w = std::ceil(w * 8);
    graphs.push_back(std::move(g));
  }
  for (std::size_t i = 0; i < graphs.size(); ++i) {
    const Csr<double>& g = graphs[i];
    const double omp = louvain_omp(g).modularity;
    for (const auto& [rule_name, rule] : louvain_together_rules) {
      const std::string name(rule_name);
      CAPTURE(i);
      CAPTURE(name);
      LouvainOptions o;
      o.together = rule;
      const Communities got = louvain_gpu(g, o);
      require_local_optimum(g, got, 1.0);
      CHECK(louvain_gpu(g, o).label == got.label);
      MESSAGE("graph " << i << " --together " << name << ": Q " << got.modularity << ", louvain-omp " << omp);
      if (i < 2 && rule != LouvainTogether::additive) CHECK(got.modularity >= 0.99 * omp);
    }
  }
}

TEST_CASE("louvain-gpu: an edge's weight over repeated entries, rows unordered: the summed graph's partition") {
  // The settling rules read a pair's weight from one entry, so such rows are
  // merged first, for the device and the host's final moves alike: every
  // edge of weight 2 or more split over two entries (the same split both
  // ways), each row reversed.
  for (const Csr<double>& g : {integer_rmat(12, 8, 21), integer_rmat(11, 16, 5)}) {
    Csr<double> split;
    split.n_rows = split.n_cols = g.n_rows;
    split.offsets.assign(1, 0);
    for (vertex_t u = 0; u < g.n_rows; ++u) {
      const std::size_t row_start = split.cols.size();
      for (offset_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
        const vertex_t v = g.cols[std::size_t(e)];
        const double w = g.weights[std::size_t(e)];
        if (v != u && w >= 2) {
          const double half = std::floor(w / 2);
          split.cols.insert(split.cols.end(), {v, v});
          split.weights.insert(split.weights.end(), {half, w - half});
        } else {
          split.cols.push_back(v);
          split.weights.push_back(w);
        }
      }
      std::reverse(split.cols.begin() + std::ptrdiff_t(row_start), split.cols.end());
      std::reverse(split.weights.begin() + std::ptrdiff_t(row_start), split.weights.end());
      split.offsets.push_back(offset_t(split.cols.size()));
    }
    REQUIRE(split.num_entries() > g.num_entries());
    for (const auto& [rule_name, rule] : louvain_together_rules) {
      const std::string name(rule_name);
      CAPTURE(name);
      LouvainOptions o;
      o.together = rule;
      const Communities want = louvain_gpu(g, o), got = louvain_gpu(split, o);
      require_same_levels(got, want);
      CHECK(got.label == want.label);
      CHECK(got.modularity == doctest::Approx(want.modularity).epsilon(1e-12));
      require_local_optimum(split, got, 1.0);
    }
  }
}

TEST_CASE("louvain-gpu: weights scaled by a power of two to the ends of the double range, "
          "the same partition and modularity") {
  std::mt19937 rng(1308);
  for (int trial = 0; trial < 4; ++trial) {
    const vertex_t n = 40 + vertex_t(rng() % 400);
    const Csr<double> g = trial < 3 ? check::random_community_graph(n, 6.0 / n, 1 + trial, 0.15, rng)
                                    : integer_rmat(12, 8, 5);  // hubs: the global tables
    CAPTURE(trial);
    const Communities want = louvain_gpu(g, {});
    for (int k : {-1010, -300, 300, 1010}) {  // integer weights up to 16 stay normal numbers
      CAPTURE(k);
      const Communities got = louvain_gpu(check::scaled_by_power_of_two(g, k), {});
      CHECK(got.label == want.label);
      CHECK(got.modularity == want.modularity);
    }
  }
  for (double w : {1e308, 1e-320}) {  // one edge: together (Q 0), where unscaled sums overflow or underflow
    CAPTURE(w);
    const Csr<double> pair = check::graph_from_edges(2, {{0, 1, w}});
    const Communities c = louvain_gpu(pair, {});
    CHECK(c.communities == 1);
    CHECK(c.modularity == 0);
  }
}

TEST_CASE("louvain-gpu: no vertices, no edges, isolated vertices; bad input and GPU ids refused") {
  Csr<double> empty;
  const Communities none = louvain_gpu(empty);
  CHECK(none.label.empty());
  CHECK(none.communities == 0);
  CHECK(none.modularity == 0);
  Csr<double> lonely;
  lonely.n_rows = lonely.n_cols = 3;
  lonely.offsets = {0, 0, 0, 0};
  const Communities alone = louvain_gpu(lonely);
  CHECK(alone.label == std::vector<vertex_t>{0, 1, 2});
  CHECK(alone.modularity == 0);
  Csr<double> t;  // a triangle and an isolated vertex
  t.n_rows = t.n_cols = 4;
  t.offsets = {0, 2, 4, 6, 6};
  t.cols = {1, 2, 0, 2, 0, 1};
  t.weights = {1, 1, 1, 1, 1, 1};
  const Communities tri = louvain_gpu(t);
  CHECK(tri.label == std::vector<vertex_t>{0, 0, 0, 1});
  CHECK(tri.modularity == doctest::Approx(ops::modularity(t, tri.label)));
  Csr<double> neg = t;
  neg.weights[0] = neg.weights[2] = -1;
  CHECK_THROWS_WITH_AS(louvain_gpu(neg), doctest::Contains("non-negative"), invalid_input);
  GpuOptions bad;
  bad.device = 999;
  CHECK_THROWS_WITH_AS(louvain_gpu(t, {}, bad), doctest::Contains("no GPU with id 999"), invalid_input);
  CHECK(louvain_gpu(t).label == tri.label);  // the failed call leaves nothing behind for the next
  CHECK(find_matcher("louvain-gpu", Problem::community).device == Device::gpu);
}
