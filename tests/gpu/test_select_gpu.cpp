// The gpu select_free_entries (ops/gpu_ops.hpp, ops/gpu/select_gpu.cuh)
// against its CPU twin (the plain backend, itself checked against the
// executable specification in tests/ops/test_select.cpp): seeded random
// graphs with ties, every vertex free / none free / some free, empty rows,
// n = 0 and 1, one huge row, and several block sizes.
#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "datasets/generators.hpp"
#include "ops/gpu_ops.hpp"
#include "ops/select.hpp"
#include "tests/check/check.hpp"

using namespace matchblas;

namespace {

constexpr int block_sizes[] = {32, 64, 96, 128, 256, 512, 1024};

// mode: 0 every vertex free, 1 none free, 2 about a third matched.
std::vector<vertex_t> random_mate(vertex_t n, int mode, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<vertex_t> mate(std::size_t(n), mode == 1 ? 0 : no_vertex);
  if (mode == 2)
    for (auto& x : mate)
      if (rng() % 3 == 0) x = vertex_t(rng() % std::uint64_t(n));
  return mate;
}

template <class W>
void require_same(const Csr<W>& a, const std::vector<vertex_t>& mate, int threads_per_block) {
  CAPTURE(threads_per_block);
  const Csr<W> want = ops::select_free_entries<W>(a, mate, ops::Backend::plain);
  check::require_same_csr(ops::select_free_entries_gpu<W>(a, mate, threads_per_block), want);
}

}  // namespace

TEST_CASE("gpu select_free_entries equals the CPU twin on random graphs with ties") {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    CAPTURE(seed);
    const auto n = vertex_t(seed % 70);
    const Csr<double> g = check::random_graph(n, 0.02 + double(seed % 9) / 10.0, int(seed % 4), seed);
    for (int mode = 0; mode < 3; ++mode) {
      CAPTURE(mode);
      const std::vector<vertex_t> mate = random_mate(n, mode, seed * 3 + std::uint64_t(mode));
      require_same(g, mate, block_sizes[(seed + std::uint64_t(mode)) % std::size(block_sizes)]);
      require_same(check::with_weights<float>(g), mate, block_sizes[seed % std::size(block_sizes)]);
    }
  }
}

TEST_CASE("gpu select_free_entries: the gpu backend of ops::select_free_entries") {
  const Csr<double> g = check::random_graph(50, 0.3, 2, 5);
  const std::vector<vertex_t> mate = random_mate(50, 2, 5);
  check::require_same_csr(ops::select_free_entries<double>(g, mate, ops::Backend::gpu),
                          ops::select_free_entries<double>(g, mate, ops::Backend::plain));
}

TEST_CASE("gpu select_free_entries: empty and one-vertex matrices") {
  Csr<double> empty;
  require_same(empty, {}, 256);
  Csr<double> one;
  one.n_rows = one.n_cols = 1;
  one.offsets = {0, 0};
  for (vertex_t m : {no_vertex, vertex_t(0)}) require_same(one, {m}, 32);
  Csr<double> loop = one;  // a self-loop: kept iff the vertex is free
  loop.offsets = {0, 1};
  loop.cols = {0};
  loop.weights = {0.5};
  for (vertex_t m : {no_vertex, vertex_t(0)}) require_same(loop, {m}, 64);
}

TEST_CASE("gpu select_free_entries: one huge row (a star with 100k edges), empty rows, generated graphs") {
  constexpr vertex_t leaves = 100000;
  Csr<float> star;  // vertex 0 is the centre; the last 10 rows are empty
  star.n_rows = star.n_cols = leaves + 11;
  for (vertex_t v = 1; v <= leaves; ++v) star.cols.push_back(v), star.weights.push_back(float(v % 3 + 1) / 3);
  star.offsets.push_back(offset_t(star.cols.size()));
  for (vertex_t v = 1; v < star.n_rows; ++v) {
    if (v <= leaves) star.cols.push_back(0), star.weights.push_back(float(v % 3 + 1) / 3);
    star.offsets.push_back(offset_t(star.cols.size()));
  }
  GenOptions opt;
  opt.ties = 3;
  opt.edge_factor = 8;
  const Csr<float> rf = rmat<float>(1 << 16, opt);  // skewed degrees
  const Csr<double> ed = erdos_renyi<double>(50000, opt);
  for (int mode = 0; mode < 3; ++mode) {
    CAPTURE(mode);
    std::vector<vertex_t> mate = random_mate(star.n_rows, mode, 40 + std::uint64_t(mode));
    require_same(star, mate, 256);
    mate[0] = no_vertex;  // the centre free: part of the huge row survives (modes 0 and 2)
    require_same(star, mate, 128);
    require_same(rf, random_mate(rf.n_rows, mode, 50 + std::uint64_t(mode)), 256);
    require_same(ed, random_mate(ed.n_rows, mode, 60 + std::uint64_t(mode)), 512);
  }
}

TEST_CASE("gpu select_free_entries: every block size gives the same result, repeated") {
  GenOptions opt;
  opt.ties = 2;
  opt.edge_factor = 8;
  const Csr<double> g = rmat<double>(1 << 14, opt);
  const std::vector<vertex_t> mate = random_mate(g.n_rows, 2, 7);
  const Csr<double> want = ops::select_free_entries<double>(g, mate, ops::Backend::plain);
  for (int rep = 0; rep < 3; ++rep)
    for (int threads_per_block : block_sizes) {
      CAPTURE(rep);
      CAPTURE(threads_per_block);
      check::require_same_csr(ops::select_free_entries_gpu<double>(g, mate, threads_per_block), want);
    }
}

TEST_CASE("gpu select_free_entries: errors") {
  const Csr<double> rect = check::random_matrix(3, 4, 0.5, 0, 1);
  const Csr<double> square = check::random_matrix(4, 4, 0.5, 0, 2);
  const std::vector<vertex_t> mate3(3, -1), mate4(4, -1);
  CHECK_THROWS_AS(ops::select_free_entries_gpu<double>(rect, mate3), shape_error);
  CHECK_THROWS_AS(ops::select_free_entries_gpu<double>(square, mate3), shape_error);
  Csr<double> broken = square;
  broken.offsets.pop_back();
  CHECK_THROWS_AS(ops::select_free_entries_gpu<double>(broken, mate4), invalid_input);
  for (int threads_per_block : {0, 16, 33, 1056, 2048})
    CHECK_THROWS_AS(ops::select_free_entries_gpu<double>(square, mate4, threads_per_block), invalid_input);
}
