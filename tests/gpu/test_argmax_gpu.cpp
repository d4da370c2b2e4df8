// The gpu backend of argmax_rows against its CPU twin (the plain backend,
// itself checked against the executable specification in
// tests/ops/test_argmax.cpp) on seeded random inputs with heavy ties, every
// mask combination, empty rows, n = 0 and 1, and one huge row.
#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "datasets/generators.hpp"
#include "ops/argmax.hpp"
#include "tests/check/check.hpp"

using namespace matchblas;

namespace {

template <class W>
void require_same(const Csr<W>& a, const ops::ArgmaxMasks<W>& masks) {
  const std::size_t n = static_cast<std::size_t>(a.n_rows);
  std::vector<vertex_t> cpu_v(n, -7), gpu_v(n, -7);
  std::vector<W> cpu_w(n, W(-7)), gpu_w(n, W(-7));
  ops::argmax_rows(a, masks, std::span(cpu_v), std::span(cpu_w), ops::Backend::plain);
  ops::argmax_rows(a, masks, std::span(gpu_v), std::span(gpu_w), ops::Backend::gpu);
  for (std::size_t u = 0; u < n; ++u) {
    if (cpu_v[u] == gpu_v[u] && cpu_w[u] == gpu_w[u]) continue;
    INFO("row ", u, ": cpu (", cpu_v[u], ", ", cpu_w[u], "), gpu (", gpu_v[u], ", ", gpu_w[u], ")");
    REQUIRE(cpu_v[u] == gpu_v[u]);
    REQUIRE(cpu_w[u] == gpu_w[u]);
  }
  CHECK(cpu_v == gpu_v);  // counted once per call (the loop above names the first row that differs)
  CHECK(cpu_w == gpu_w);
}

// Masks drawn at random; mode bits: 1 active rows, 2 eligible columns, 4 floor.
template <class W>
struct Masks {
  std::vector<std::uint8_t> active, eligible;
  std::vector<W> floor_w;
  std::vector<vertex_t> floor_v;
  Masks(const Csr<W>& a, int mode, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    if (mode & 1) for (vertex_t u = 0; u < a.n_rows; ++u) active.push_back(rng() % 3 != 0);
    if (mode & 2) for (vertex_t v = 0; v < a.n_cols; ++v) eligible.push_back(rng() % 4 != 0);
    if (mode & 4)
      for (vertex_t v = 0; v < a.n_cols; ++v) {
        const bool held = rng() % 2;  // half the columns hold an offer, often tied with a row's weight
        floor_w.push_back(held ? W(rng() % 4) / W(4) : W(0));
        floor_v.push_back(held ? static_cast<vertex_t>(rng() % std::max<vertex_t>(a.n_rows, 1)) : no_vertex);
      }
  }
  ops::ArgmaxMasks<W> view() const { return {active, eligible, floor_w, floor_v}; }
};

}  // namespace

TEST_CASE("gpu argmax equals the CPU plain backend on random graphs with ties") {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    CAPTURE(seed);
    const vertex_t n = static_cast<vertex_t>(seed % 70);
    const Csr<double> g = check::random_graph(n, 0.02 + (seed % 9) / 10.0, static_cast<int>(seed % 4), seed);
    for (int mode = 0; mode < 8; ++mode) {
      CAPTURE(mode);
      const Masks<double> m(g, mode, seed * 8 + mode);
      require_same(g, m.view());
    }
  }
}

TEST_CASE("gpu argmax on generated graphs, float and double, with a huge row") {
  GenOptions opt;
  opt.ties = 3;
  opt.edge_factor = 8;
  const Csr<float> rf = rmat<float>(1 << 16, opt);  // skewed degrees
  const Csr<double> ed = erdos_renyi<double>(50000, opt);
  const Csr<double> star = complete_bipartite<double>(1, opt);
  for (int mode = 0; mode < 8; ++mode) {
    CAPTURE(mode);
    require_same(rf, Masks<float>(rf, mode, 11 + mode).view());
    require_same(ed, Masks<double>(ed, mode, 21 + mode).view());
  }
  // One row of 100,000 entries with tied weights among many empty rows.
  Csr<float> big;
  big.n_rows = 1000;
  big.n_cols = 100000;
  big.offsets.assign(1001, 0);
  for (vertex_t v = 0; v < 100000; ++v) {
    big.cols.push_back(v);
    big.weights.push_back(float((v * 7919) % 5) / 4.0f);
  }
  for (vertex_t u = 501; u <= 1000; ++u) big.offsets[u] = 100000;  // row 500 holds them all
  for (int mode = 0; mode < 8; ++mode) require_same(big, Masks<float>(big, mode, 31 + mode).view());
  require_same(star, Masks<double>(star, 0, 1).view());
}

TEST_CASE("gpu argmax: empty and one-vertex matrices") {
  Csr<double> empty;
  require_same(empty, ops::ArgmaxMasks<double>{});
  Csr<double> one;
  one.n_rows = one.n_cols = 1;
  one.offsets = {0, 0};
  require_same(one, ops::ArgmaxMasks<double>{});
}
