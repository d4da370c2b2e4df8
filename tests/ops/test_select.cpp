// select + compaction (ops/select.hpp), the plain and graphblas backends,
// against the executable specification below (STYLE 5), on seeded random
// inputs, the corner cases, and at several thread counts.
#include <doctest/doctest.h>
#include <omp.h>

#include <random>
#include <vector>

#include "datasets/generators.hpp"
#include "ops/gpu/device.hpp"
#include "ops/select.hpp"
#include "tests/check/check.hpp"

using namespace matchblas;

namespace {

// The specification: walk the entries in order, append the kept ones, close
// each row. O(rows + entries).
template <class W, class Keep>
Csr<W> spec_select(const Csr<W>& a, Keep keep) {
  Csr<W> c;
  c.n_rows = a.n_rows;
  c.n_cols = a.n_cols;
  for (vertex_t u = 0; u < a.n_rows; ++u) {
    for (offset_t k = a.offsets[u]; k < a.offsets[u + 1]; ++k)
      if (keep(u, a.cols[k])) {
        c.cols.push_back(a.cols[k]);
        c.weights.push_back(a.weights[k]);
      }
    c.offsets.push_back(offset_t(c.cols.size()));
  }
  return c;
}

template <class W>
void require_same(const Csr<W>& got, const Csr<W>& want) {
  REQUIRE(got.n_rows == want.n_rows);
  REQUIRE(got.n_cols == want.n_cols);
  REQUIRE(got.offsets == want.offsets);
  REQUIRE(got.cols == want.cols);
  REQUIRE(got.weights == want.weights);
}

Csr<double> random_matrix(vertex_t rows, vertex_t cols, double density, std::mt19937_64& rng) {
  Csr<double> a;
  a.n_rows = rows;
  a.n_cols = cols;
  for (vertex_t u = 0; u < rows; ++u) {
    for (vertex_t v = 0; v < cols; ++v)
      if (std::uniform_real_distribution<double>(0, 1)(rng) < density) {
        a.cols.push_back(v);
        a.weights.push_back(double(std::uniform_int_distribution<int>(1, 3)(rng)) / 3);
      }
    a.offsets.push_back(offset_t(a.cols.size()));
  }
  return a;
}

// select_free_entries(a, mate) on every CPU backend equals want: plain, and
// when built graphblas on a Csr and on a resident copy of a (whose result is
// selected from again with a second mate when one is given: mate2 matches
// more vertices, as a matcher's next round does).
template <class W>
void require_free_entries(const Csr<W>& a, const std::vector<vertex_t>& mate, const Csr<W>& want) {
  require_same(ops::select_free_entries<W>(a, mate), want);
  if (!ops::have_graphblas()) return;
  require_same(ops::select_free_entries<W>(a, mate, ops::Backend::graphblas), want);
  const ops::GraphBlasGraph<W> resident(a);
  const ops::GraphBlasGraph<W> kept = ops::select_free_entries(resident, mate);
  CHECK(kept.num_entries() == want.num_entries());
  require_same(kept.to_csr(), want);
  // Once more on the result, freeing nothing and matching every other free vertex.
  std::vector<vertex_t> more = mate;
  for (std::size_t v = 0; v < more.size(); v += 2)
    if (more[v] == -1) more[v] = vertex_t(v);
  require_same(ops::select_free_entries(kept, more).to_csr(), ops::select_free_entries<W>(want, more));
}

// mode: 0 every vertex free, 1 none free, 2 random.
std::vector<vertex_t> random_mate(vertex_t n, int mode, std::mt19937_64& rng) {
  std::vector<vertex_t> mate(std::size_t(n), mode == 1 ? 0 : -1);
  if (mode == 2)
    for (auto& x : mate)
      if (std::uniform_int_distribution<int>(0, 2)(rng) == 0)
        x = std::uniform_int_distribution<vertex_t>(0, n - 1)(rng);
  return mate;
}

// A keep(u, v) that depends on the pair only: a hash of (salt, u, v).
struct HashKeep {
  std::uint64_t salt;
  int keep_one_in;  // 0: keep nothing; 1: keep everything
  bool operator()(vertex_t u, vertex_t v) const {
    if (keep_one_in == 0) return false;
    std::uint64_t h = salt ^ (std::uint64_t(std::uint32_t(u)) << 32 | std::uint32_t(v));
    h = (h ^ (h >> 33)) * 0xff51afd7ed558ccdULL;
    h = (h ^ (h >> 33)) * 0xc4ceb9fe1a85ec53ULL;
    return (h ^ (h >> 33)) % std::uint64_t(keep_one_in) == 0;
  }
};

}  // namespace

TEST_CASE("select_free_entries equals the specification on random graphs") {
  if (!ops::have_graphblas()) MESSAGE("skipped the graphblas backend: this build has no SuiteSparse:GraphBLAS");
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    CAPTURE(seed);
    std::mt19937_64 rng(seed);
    const auto n = vertex_t(seed % 41);
    const Csr<double> g = check::random_graph(n, 0.05 + double(seed % 10) / 10.0, int(seed % 4), seed);
    const std::vector<vertex_t> mate = random_mate(n, int(seed % 3), rng);
    const auto free_pair = [&](vertex_t u, vertex_t v) { return mate[u] == -1 && mate[v] == -1; };
    require_free_entries(g, mate, spec_select(g, free_pair));
    if (seed % 4 == 0) {
      const Csr<float> f = check::with_weights<float>(g);
      require_free_entries(f, mate, spec_select(f, free_pair));
    }
  }
}

TEST_CASE("select_entries equals the specification on random rectangular matrices") {
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    CAPTURE(seed);
    std::mt19937_64 rng(seed);
    const auto rows = std::uniform_int_distribution<vertex_t>(0, 30)(rng);
    const auto cols = std::uniform_int_distribution<vertex_t>(0, 30)(rng);
    const Csr<double> a = random_matrix(rows, cols, std::uniform_real_distribution<double>(0, 0.9)(rng), rng);
    const HashKeep keep{seed, int(seed % 4)};  // nothing, everything, one in 2, one in 3
    require_same(ops::select_entries(a, keep), spec_select(a, keep));
  }
}

TEST_CASE("select: corner cases") {
  std::mt19937_64 rng(5);
  for (auto [rows, cols] : {std::pair{0, 0}, {1, 1}, {0, 4}, {4, 0}, {1, 6}, {6, 1}})
    for (int k = 0; k < 4; ++k) {
      CAPTURE(rows);
      CAPTURE(cols);
      CAPTURE(k);
      const Csr<double> a = random_matrix(rows, cols, 0.8, rng);
      require_same(ops::select_entries(a, HashKeep{7, k}), spec_select(a, HashKeep{7, k}));
      if (rows == cols) {
        const std::vector<vertex_t> mate = random_mate(rows, k % 3, rng);
        const auto free_pair = [&](vertex_t u, vertex_t v) { return mate[u] == -1 && mate[v] == -1; };
        require_free_entries(a, mate, spec_select(a, free_pair));
      }
    }
}

TEST_CASE("select: one huge row (a star with 100k edges) and empty rows") {
  constexpr vertex_t leaves = 100000;
  Csr<float> a;  // vertex 0 is the centre; the last 10 rows are empty
  a.n_rows = a.n_cols = leaves + 11;
  for (vertex_t v = 1; v <= leaves; ++v) a.cols.push_back(v), a.weights.push_back(float(v % 3 + 1) / 3);
  a.offsets.push_back(offset_t(a.cols.size()));
  for (vertex_t v = 1; v < a.n_rows; ++v) {
    if (v <= leaves) a.cols.push_back(0), a.weights.push_back(float(v % 3 + 1) / 3);
    a.offsets.push_back(offset_t(a.cols.size()));
  }
  std::mt19937_64 rng(3);
  for (int mode = 0; mode < 3; ++mode) {
    CAPTURE(mode);
    const std::vector<vertex_t> mate = random_mate(a.n_rows, mode, rng);
    const auto free_pair = [&](vertex_t u, vertex_t v) { return mate[u] == -1 && mate[v] == -1; };
    require_free_entries(a, mate, spec_select(a, free_pair));
  }
  require_same(ops::select_entries(a, HashKeep{9, 2}), spec_select(a, HashKeep{9, 2}));
}

TEST_CASE("select: identical results at 1, 2 and 8 threads, repeated, on both CPU backends") {
  GenOptions opt;
  opt.edge_factor = 8;
  const Csr<double> g = rmat<double>(1 << 14, opt);
  std::mt19937_64 rng(13);
  const std::vector<vertex_t> mate = random_mate(g.n_rows, 2, rng);
  const auto free_pair = [&](vertex_t u, vertex_t v) { return mate[u] == -1 && mate[v] == -1; };
  const Csr<double> want = spec_select(g, free_pair);
  const int saved = omp_get_max_threads();
  for (int threads : {1, 2, 8})
    for (int rep = 0; rep < 10; ++rep) {
      CAPTURE(threads);
      CAPTURE(rep);
      omp_set_num_threads(threads);
      require_same(ops::select_free_entries<double>(g, mate), want);
      if (ops::have_graphblas() && rep < 2)
        require_same(ops::select_free_entries<double>(g, mate, ops::Backend::graphblas), want);
    }
  omp_set_num_threads(saved);
}

TEST_CASE("select_free_entries: wrong shapes are errors") {
  std::mt19937_64 rng(1);
  const Csr<double> rect = random_matrix(3, 4, 0.5, rng);
  const Csr<double> square = random_matrix(4, 4, 0.5, rng);
  const std::vector<vertex_t> mate3(3, -1), mate4(4, -1);
  CHECK_THROWS_AS(ops::select_free_entries<double>(rect, mate3), shape_error);
  CHECK_THROWS_AS(ops::select_free_entries<double>(rect, mate4), shape_error);
  CHECK_THROWS_AS(ops::select_free_entries<double>(square, mate3), shape_error);
  Csr<double> broken = square;
  broken.offsets.pop_back();
  CHECK_THROWS_AS(ops::select_free_entries<double>(broken, mate4), invalid_input);
}

TEST_CASE("select_free_entries: backends") {
  std::mt19937_64 rng(2);
  const Csr<double> square = random_matrix(6, 6, 0.5, rng);
  const std::vector<vertex_t> mate = random_mate(6, 2, rng);
  require_same(ops::select_free_entries<double>(square, mate, ops::Backend::automatic),
               ops::select_free_entries<double>(square, mate, ops::Backend::plain));
  const std::vector<vertex_t> mate3(3, -1);
  CHECK_THROWS_AS(ops::select_free_entries<double>(square, mate3, ops::Backend::gpu), shape_error);
  CHECK_THROWS_AS(ops::select_free_entries<double>(square, mate3, ops::Backend::graphblas), shape_error);
  if (!ops::have_graphblas()) {
    CHECK_THROWS_AS(ops::select_free_entries<double>(square, mate, ops::Backend::graphblas), error);
  } else {
    const ops::GraphBlasGraph<double> resident(square);
    CHECK_THROWS_AS(ops::select_free_entries(resident, mate3), shape_error);
    CHECK_THROWS_AS(ops::select_free_entries(resident, mate, ops::Backend::plain), invalid_input);
    const ops::GraphBlasGraph<double> rect(random_matrix(3, 4, 0.5, rng));
    CHECK_THROWS_AS(ops::select_free_entries(rect, mate3), shape_error);
  }
  if (gpu::device_count() == 0)
    CHECK_THROWS_AS(ops::select_free_entries<double>(square, mate, ops::Backend::gpu), error);
}
