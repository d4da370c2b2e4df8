// The gpu transpose (ops/gpu_ops.hpp, ops/gpu/transpose_gpu.cu: cuSPARSE
// csr2csc) against its CPU twin (the plain backend, itself checked against
// the executable specification in tests/ops/test_transpose.cpp): seeded
// random matrices of every shape with ties, empty rows and columns, 0 and 1
// rows or columns, unsorted rows with duplicate entries, one huge row and
// one huge column, and several block sizes.
#include <doctest/doctest.h>

#include <random>

#include "datasets/generators.hpp"
#include "ops/gpu_ops.hpp"
#include "ops/transpose.hpp"
#include "tests/check/check.hpp"

using namespace matchblas;

namespace {

constexpr int block_sizes[] = {32, 64, 96, 128, 256, 512, 1024};

template <class W>
void require_same(const Csr<W>& a, int threads_per_block) {
  CAPTURE(threads_per_block);
  check::require_same_csr(ops::transpose_gpu(a, threads_per_block), ops::transpose(a, ops::Backend::plain));
}

}  // namespace

TEST_CASE("gpu transpose equals the CPU twin on random matrices of every shape") {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    CAPTURE(seed);
    std::mt19937_64 rng(seed);
    const auto rows = std::uniform_int_distribution<vertex_t>(0, 60)(rng);
    const auto cols = std::uniform_int_distribution<vertex_t>(0, 60)(rng);
    const double density = std::uniform_real_distribution<double>(0, 0.9)(rng);
    const Csr<double> a = check::random_matrix(rows, cols, density, int(seed % 4), seed);
    const int tpb = block_sizes[seed % std::size(block_sizes)];
    require_same(a, tpb);
    require_same(check::with_weights<float>(a), tpb);
  }
}

TEST_CASE("gpu transpose: unsorted rows with duplicate entries") {
  for (std::uint64_t seed = 1; seed <= 100; ++seed) {
    CAPTURE(seed);
    const Csr<double> a =
        check::scramble_rows(check::random_matrix(vertex_t(seed % 30), vertex_t(seed % 17), 0.5, 2, seed), seed);
    require_same(a, 256);
  }
}

TEST_CASE("gpu transpose: corner shapes and the gpu backend of ops::transpose") {
  for (auto [rows, cols] : {std::pair{0, 0}, {1, 1}, {0, 4}, {4, 0}, {1, 6}, {6, 1}, {1, 0}, {0, 1}})
    for (double density : {0.0, 0.5, 1.0}) {
      CAPTURE(rows);
      CAPTURE(cols);
      CAPTURE(density);
      const Csr<double> a = check::random_matrix(rows, cols, density, 2, 7);
      require_same(a, 32);
      check::require_same_csr(ops::transpose(a, ops::Backend::gpu), ops::transpose(a, ops::Backend::plain));
    }
  require_same(Csr<float>{}, 256);
}

TEST_CASE("gpu transpose: one huge row, one huge column, generated graphs") {
  Csr<float> a;  // 1000 x 200000: row 500 holds 100,000 entries, the other rows are empty
  a.n_rows = 1000;
  a.n_cols = 200000;
  a.offsets.assign(1001, 0);
  for (vertex_t v = 0; v < 200000; v += 2) a.cols.push_back(v), a.weights.push_back(float(v % 5) / 4);
  for (vertex_t u = 501; u <= 1000; ++u) a.offsets[u] = offset_t(a.cols.size());
  require_same(a, 256);
  require_same(ops::transpose(a), 128);  // one huge column
  GenOptions opt;
  opt.ties = 3;
  opt.edge_factor = 8;
  require_same(rmat<float>(1 << 16, opt), 256);
  require_same(erdos_renyi<double>(50000, opt), 512);
  require_same(complete_bipartite<double>(300, opt), 1024);
}

TEST_CASE("gpu transpose: every block size gives the same result, repeated") {
  const Csr<double> a = check::scramble_rows(check::random_matrix(700, 900, 0.1, 3, 11), 11);
  const Csr<double> want = ops::transpose(a, ops::Backend::plain);
  for (int rep = 0; rep < 3; ++rep)
    for (int threads_per_block : block_sizes) {
      CAPTURE(rep);
      CAPTURE(threads_per_block);
      check::require_same_csr(ops::transpose_gpu(a, threads_per_block), want);
    }
}

TEST_CASE("gpu transpose: errors") {
  const Csr<double> a = check::random_matrix(4, 5, 0.6, 2, 3);
  REQUIRE(a.num_entries() > 2);
  Csr<double> bad = a;
  bad.cols[1] = 5;
  CHECK_THROWS_AS(ops::transpose_gpu(bad), invalid_input);
  bad.cols[1] = -1;
  CHECK_THROWS_AS(ops::transpose_gpu(bad), invalid_input);
  bad = a;
  bad.offsets.pop_back();
  CHECK_THROWS_AS(ops::transpose_gpu(bad), invalid_input);
  for (int threads_per_block : {0, 16, 33, 1056, 2048})
    CHECK_THROWS_AS(ops::transpose_gpu(a, threads_per_block), invalid_input);
}
