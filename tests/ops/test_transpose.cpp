// transpose (ops/transpose.hpp), the plain and graphblas backends, against
// the executable specification below (STYLE 5), on seeded random inputs of
// every shape, the corner cases, and at several thread counts; plus its
// argument errors and backend choice.
#include <doctest/doctest.h>
#include <omp.h>

#include <algorithm>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include "datasets/generators.hpp"
#include "ops/gpu/device.hpp"
#include "ops/transpose.hpp"
#include "tests/check/check.hpp"

using namespace matchblas;

namespace {

// The specification: list the entries as (v, u, position in A, w), sort the
// tuples, cut them into rows by v. O(entries log entries).
template <class W>
Csr<W> spec_transpose(const Csr<W>& a) {
  std::vector<std::tuple<vertex_t, vertex_t, offset_t, W>> t;
  for (vertex_t u = 0; u < a.n_rows; ++u)
    for (offset_t k = a.offsets[u]; k < a.offsets[u + 1]; ++k) t.emplace_back(a.cols[k], u, k, a.weights[k]);
  std::sort(t.begin(), t.end());
  Csr<W> c;
  c.n_rows = a.n_cols;
  c.n_cols = a.n_rows;
  c.offsets.assign(std::size_t(a.n_cols) + 1, 0);
  for (const auto& [v, u, k, w] : t) {
    ++c.offsets[std::size_t(v) + 1];
    c.cols.push_back(u);
    c.weights.push_back(w);
  }
  for (vertex_t v = 0; v < a.n_cols; ++v) c.offsets[std::size_t(v) + 1] += c.offsets[std::size_t(v)];
  return c;
}

// A second, independent check for small matrices: C(v, u) = A(u, v) entry by
// entry through dense arrays (no duplicates).
void require_dense_transpose(const Csr<double>& a, const Csr<double>& c) {
  std::vector<double> da(std::size_t(a.n_rows) * std::size_t(a.n_cols), 0), dc(da.size(), 0);
  for (vertex_t u = 0; u < a.n_rows; ++u)
    for (offset_t k = a.offsets[u]; k < a.offsets[u + 1]; ++k) da[std::size_t(u) * a.n_cols + a.cols[k]] = a.weights[k];
  for (vertex_t v = 0; v < c.n_rows; ++v)
    for (offset_t k = c.offsets[v]; k < c.offsets[v + 1]; ++k) dc[std::size_t(c.cols[k]) * a.n_cols + v] = c.weights[k];
  REQUIRE(da == dc);
}

// a with each row's entries in a random order (no duplicates added).
Csr<double> shuffle_rows(Csr<double> a, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (vertex_t u = 0; u < a.n_rows; ++u) {
    std::vector<std::pair<vertex_t, double>> row;
    for (offset_t k = a.offsets[u]; k < a.offsets[u + 1]; ++k) row.emplace_back(a.cols[k], a.weights[k]);
    std::shuffle(row.begin(), row.end(), rng);
    for (offset_t k = a.offsets[u]; k < a.offsets[u + 1]; ++k) std::tie(a.cols[k], a.weights[k]) = row[std::size_t(k - a.offsets[u])];
  }
  return a;
}

// The graphblas backend, when built, on a Csr and on a resident copy of a
// (transposed twice: back to a, rows sorted), equals want.
template <class W>
void require_graphblas_transpose(const Csr<W>& a, const Csr<W>& want) {
  if (!ops::have_graphblas()) return;
  check::require_same_csr(ops::transpose(a, ops::Backend::graphblas), want);
  const ops::GraphBlasGraph<W> resident(a);
  const ops::GraphBlasGraph<W> c = ops::transpose(resident);
  CHECK(c.n_rows() == a.n_cols);
  CHECK(c.n_cols() == a.n_rows);
  check::require_same_csr(c.to_csr(), want);
  check::require_same_csr(ops::transpose(c).to_csr(), spec_transpose(want));
}

}  // namespace

TEST_CASE("transpose equals the specification on random matrices of every shape") {
  if (!ops::have_graphblas()) MESSAGE("skipped the graphblas backend: this build has no SuiteSparse:GraphBLAS");
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    CAPTURE(seed);
    std::mt19937_64 rng(seed);
    const auto rows = std::uniform_int_distribution<vertex_t>(0, 40)(rng);
    const auto cols = std::uniform_int_distribution<vertex_t>(0, 40)(rng);
    const double density = std::uniform_real_distribution<double>(0, 0.9)(rng);
    const Csr<double> a = check::random_matrix(rows, cols, density, int(seed % 4), seed);
    const Csr<double> c = ops::transpose(a);
    check::require_same_csr(c, spec_transpose(a));
    require_dense_transpose(a, c);
    check::require_same_csr(ops::transpose(c, ops::Backend::plain), a);  // sorted rows: an involution
    const Csr<double> s = check::scramble_rows(a, seed);
    check::require_same_csr(ops::transpose(s), spec_transpose(s));
    const Csr<float> f = check::with_weights<float>(s);
    check::require_same_csr(ops::transpose(f), spec_transpose(f));
    require_graphblas_transpose(a, spec_transpose(a));
    const Csr<double> shuffled = shuffle_rows(a, seed);  // unsorted rows, no duplicates
    require_graphblas_transpose(check::with_weights<float>(shuffled), spec_transpose(check::with_weights<float>(a)));
  }
}

TEST_CASE("transpose: corner cases") {
  for (auto [rows, cols] : {std::pair{0, 0}, {1, 1}, {0, 4}, {4, 0}, {1, 6}, {6, 1}, {1, 0}, {0, 1}})
    for (double density : {0.0, 0.5, 1.0}) {
      CAPTURE(rows);
      CAPTURE(cols);
      CAPTURE(density);
      const Csr<double> a = check::random_matrix(rows, cols, density, 2, 7);
      const Csr<double> c = ops::transpose(a);
      check::require_same_csr(c, spec_transpose(a));
      CHECK(c.offsets.size() == std::size_t(cols) + 1);
      require_graphblas_transpose(a, c);
    }
  Csr<double> empty;  // the default Csr: 0 x 0, offsets {0}
  check::require_same_csr(ops::transpose(empty), empty);
}

TEST_CASE("transpose: one huge row, one huge column, empty rows and columns") {
  Csr<float> a;  // 1000 x 200000: row 500 holds 100,000 entries (even columns), the other rows are empty
  a.n_rows = 1000;
  a.n_cols = 200000;
  a.offsets.assign(1001, 0);
  for (vertex_t v = 0; v < 200000; v += 2) a.cols.push_back(v), a.weights.push_back(float(v % 5) / 4);
  for (vertex_t u = 501; u <= 1000; ++u) a.offsets[u] = offset_t(a.cols.size());
  const Csr<float> c = ops::transpose(a);
  check::require_same_csr(c, spec_transpose(a));
  check::require_same_csr(ops::transpose(c), a);  // c has one huge column
  require_graphblas_transpose(a, c);
  require_graphblas_transpose(c, a);
}

TEST_CASE("transpose: identical results at 1, 2 and 8 threads, repeated") {
  GenOptions opt;
  opt.edge_factor = 8;
  opt.ties = 3;
  const Csr<double> g = rmat<double>(1 << 15, opt);  // skewed degrees, 468K entries: several parts
  const Csr<double> s = check::scramble_rows(check::random_matrix(600, 1000, 0.4, 3, 5), 5);  // rectangular, 300K entries
  const Csr<double> want_g = spec_transpose(g), want_s = spec_transpose(s);
  const int saved = omp_get_max_threads();
  for (int threads : {1, 2, 8})
    for (int rep = 0; rep < 5; ++rep) {
      CAPTURE(threads);
      CAPTURE(rep);
      omp_set_num_threads(threads);
      check::require_same_csr(ops::transpose(g), want_g);
      check::require_same_csr(ops::transpose(s), want_s);
      if (ops::have_graphblas() && rep < 2) check::require_same_csr(ops::transpose(g, ops::Backend::graphblas), want_g);
    }
  omp_set_num_threads(saved);
}

TEST_CASE("transpose: bad input and backends") {
  const Csr<double> a = check::random_matrix(4, 5, 0.6, 2, 3);
  REQUIRE(a.num_entries() > 2);
  Csr<double> bad = a;
  bad.cols[1] = 5;
  CHECK_THROWS_AS(ops::transpose(bad), invalid_input);
  bad.cols[1] = -1;
  CHECK_THROWS_AS(ops::transpose(bad), invalid_input);
  bad = a;
  bad.offsets.pop_back();
  CHECK_THROWS_AS(ops::transpose(bad), invalid_input);
  bad = a;
  bad.weights.pop_back();
  CHECK_THROWS_AS(ops::transpose(bad), invalid_input);
  bad = a;
  bad.offsets[1] = bad.offsets[2] + 1;  // decreasing
  CHECK_THROWS_AS(ops::transpose(bad), invalid_input);
  bad = a;
  bad.offsets[0] = 1;
  CHECK_THROWS_AS(ops::transpose(bad), invalid_input);
  check::require_same_csr(ops::transpose(a, ops::Backend::automatic), ops::transpose(a, ops::Backend::plain));
  bad = a;
  bad.cols[1] = 5;
  CHECK_THROWS_AS(ops::transpose(bad, ops::Backend::graphblas), invalid_input);  // the checks come first
  if (!ops::have_graphblas()) {
    CHECK_THROWS_AS(ops::transpose(a, ops::Backend::graphblas), error);
  } else {
    Csr<double> twice = a;  // a duplicate entry: the plain backend keeps both, GraphBLAS cannot hold them
    twice.cols.insert(twice.cols.begin(), twice.cols[0]);
    twice.weights.insert(twice.weights.begin(), 0.5);
    for (std::size_t u = 1; u < twice.offsets.size(); ++u) ++twice.offsets[u];
    CHECK_THROWS_AS(ops::transpose(twice, ops::Backend::graphblas), invalid_input);
    CHECK_THROWS_AS(ops::transpose(ops::GraphBlasGraph<double>(a), ops::Backend::plain), invalid_input);
  }
  if (gpu::device_count() == 0) CHECK_THROWS_AS(ops::transpose(a, ops::Backend::gpu), error);
}
