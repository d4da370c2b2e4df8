// GraphBlasGraph (ops/graphblas_graph.hpp), the resident operand of the
// graphblas backend: round trips (every weight back, special values
// included), chains of ops on it (select, transpose, argmax with every mask
// on the shrunken and transposed results) against the plain backend on the
// same Csr, its errors, and GraphBLAS's thread count following the caller's
// (ScopedThreads). Skips with a message in a build without GraphBLAS.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "lib/omp_threads.hpp"
#include "ops/argmax.hpp"
#include "ops/graphblas_graph.hpp"
#include "ops/select.hpp"
#include "ops/transpose.hpp"
#include "tests/check/check.hpp"

#if MATCHBLAS_HAVE_GRAPHBLAS
#include "ops/cpu/graphblas.hpp"  // GraphBLAS.h and the backend's memory pool
#endif

using namespace matchblas;
using ops::ArgmaxMasks;
using ops::GraphBlasGraph;

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

// Equal entry for entry, NaN equal to NaN (and -0 to +0, as ==).
template <class W>
void require_same_weights(const std::vector<W>& got, const std::vector<W>& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t k = 0; k < got.size(); ++k) {
    CAPTURE(k);
    if (std::isnan(want[k])) REQUIRE(std::isnan(got[k]));
    else REQUIRE(got[k] == want[k]);
  }
}

// argmax on the resident h equals the plain backend on its Csr c, for
// masks drawn over the original ids: every row / a random half / none
// active, every column / a random half eligible, floors from the weights
// of c (suitors), random values between them, and -inf.
template <class W>
void require_argmax_as_plain(const GraphBlasGraph<W>& h, const Csr<W>& c, std::mt19937_64& rng) {
  const auto rows = std::size_t(c.n_rows), cols = std::size_t(c.n_cols);
  for (int mode = 0; mode < 12; ++mode) {
    CAPTURE(mode);
    std::vector<std::uint8_t> active, eligible;
    std::vector<W> fw;
    std::vector<vertex_t> fv;
    if (mode % 3 == 1) active.assign(rows, 1);
    if (mode % 3 == 2)
      for (std::size_t u = 0; u < rows; ++u) active.push_back(std::uint8_t(rng() % 2));
    if (mode / 3 % 2 == 1)
      for (std::size_t v = 0; v < cols; ++v) eligible.push_back(std::uint8_t(rng() % 3 != 0));
    if (mode / 6 == 1) {
      fw.resize(cols);
      fv.resize(cols);
      for (std::size_t v = 0; v < cols; ++v) {
        const auto pick = rng() % 4;
        fv[v] = rows == 0 ? -1 : vertex_t(rng() % (rows + 1)) - 1;
        if (pick == 0 || c.num_entries() == 0) fw[v] = -std::numeric_limits<W>::infinity();
        else if (pick == 1) fw[v] = W(std::uniform_real_distribution<double>(-0.2, 1.2)(rng));
        else fw[v] = c.weights[std::size_t(rng() % std::uint64_t(c.num_entries()))];
      }
    }
    const ArgmaxMasks<W> m{active, eligible, fw, fv};
    std::vector<vertex_t> want(rows), got(rows, -2);
    std::vector<W> want_w(rows), got_w(rows, W(-2));
    ops::argmax_rows<W>(c, m, want, want_w, ops::Backend::plain);
    ops::argmax_rows<W>(h, m, got, got_w);
    REQUIRE(got == want);
    require_same_weights(got_w, want_w);
  }
}

// A random mate array: about a third of the vertices matched (to themselves:
// select only asks whether a vertex is free).
std::vector<vertex_t> random_mate(vertex_t n, std::mt19937_64& rng) {
  std::vector<vertex_t> mate(std::size_t(n), -1);
  for (vertex_t v = 0; v < n; ++v)
    if (rng() % 3 == 0) mate[std::size_t(v)] = v;
  return mate;
}

template <class W>
void chain(const Csr<W>& g, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  GraphBlasGraph<W> h(g);
  Csr<W> c = g;
  require_argmax_as_plain(h, c, rng);
  require_argmax_as_plain(ops::transpose(h), ops::transpose(c), rng);
  for (int round = 0; round < 3 && c.n_rows == c.n_cols; ++round) {
    CAPTURE(round);
    const std::vector<vertex_t> mate = random_mate(c.n_rows, rng);
    h = ops::select_free_entries(h, mate);
    c = ops::select_free_entries<W>(c, mate);
    check::require_same_csr(h.to_csr(), c);
    require_argmax_as_plain(h, c, rng);
    const GraphBlasGraph<W> t = ops::transpose(h);
    const Csr<W> ct = ops::transpose(c);
    check::require_same_csr(t.to_csr(), ct);
    require_argmax_as_plain(t, ct, rng);
    // select on the transposed view, then transpose back
    const std::vector<vertex_t> mate_t = random_mate(ct.n_rows, rng);
    const GraphBlasGraph<W> st = ops::select_free_entries(t, mate_t);
    const Csr<W> cst = ops::select_free_entries<W>(ct, mate_t);
    check::require_same_csr(st.to_csr(), cst);
    require_argmax_as_plain(st, cst, rng);
    check::require_same_csr(ops::transpose(st).to_csr(), ops::transpose(cst));
  }
}

}  // namespace

TEST_CASE("GraphBlasGraph: every weight reads back, NaN, infinities and signed zeros included") {
  if (!ops::have_graphblas()) {
    MESSAGE("skipped: this build has no SuiteSparse:GraphBLAS");
    CHECK_THROWS_AS(GraphBlasGraph<double>(check::random_graph(4, 0.5, 2, 1)), error);
    return;
  }
  Csr<double> a = check::random_matrix(7, 9, 0.6, 0, 3);  // continuous weights: not floats, the sorted codes
  REQUIRE(a.num_entries() > 6);
  const double specials[] = {std::nan(""), inf, -inf, -0.0, 0.0, 1e300};
  for (std::size_t k = 0; k < std::size(specials); ++k) a.weights[k] = specials[k];
  for (const bool floats : {false, true}) {
    CAPTURE(floats);
    Csr<double> b = a;
    if (floats)  // every weight a float: the float codes
      for (double& w : b.weights) w = double(float(w));
    const Csr<double> back = GraphBlasGraph<double>(b).to_csr();
    CHECK(back.offsets == b.offsets);
    CHECK(back.cols == b.cols);
    require_same_weights(back.weights, b.weights);
    const Csr<float> f = check::with_weights<float>(b);
    const Csr<float> fback = GraphBlasGraph<float>(f).to_csr();
    CHECK(fback.cols == f.cols);
    require_same_weights(fback.weights, f.weights);
  }
  const Csr<double> empty;
  CHECK(GraphBlasGraph<double>(empty).to_csr().offsets == empty.offsets);
  Csr<double> no_entries;  // 3 x 5, no entries
  no_entries.n_rows = 3;
  no_entries.n_cols = 5;
  no_entries.offsets.assign(4, 0);
  const GraphBlasGraph<double> h(no_entries);
  CHECK(h.num_entries() == 0);
  CHECK(h.to_csr().offsets == no_entries.offsets);
  CHECK(ops::transpose(h).n_rows() == 5);
}

TEST_CASE("GraphBlasGraph: argmax with special weights equals the plain backend (NaN and -inf never win)") {
  if (!ops::have_graphblas()) return;
  std::mt19937_64 rng(5);
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    CAPTURE(seed);
    Csr<double> a = check::random_matrix(12, 10, 0.5, int(seed % 3), seed);
    for (double& w : a.weights) {
      const auto pick = rng() % 10;
      if (pick == 0) w = std::nan("");
      else if (pick == 1) w = -inf;
      else if (pick == 2) w = inf;
      else if (pick == 3) w = -w;
      else if (pick == 4) w = seed % 2 == 0 ? -0.0 : 0.0;
    }
    require_argmax_as_plain(GraphBlasGraph<double>(a), a, rng);
    const Csr<float> f = check::with_weights<float>(a);
    require_argmax_as_plain(GraphBlasGraph<float>(f), f, rng);
  }
}

TEST_CASE("GraphBlasGraph: select, transpose and argmax chained on the resident matrix equal the plain backend") {
  if (!ops::have_graphblas()) return;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    CAPTURE(seed);
    const auto n = vertex_t(seed % 23);
    const Csr<double> g = check::random_graph(n, 0.1 + double(seed % 8) / 10, int(seed % 4), seed);
    chain(g, seed);
    chain(check::with_weights<float>(g), seed);
    if (seed % 5 == 0) chain(check::random_matrix(vertex_t(seed % 7), 6, 0.5, 2, seed), seed);  // rectangular
  }
}

TEST_CASE("GraphBlasGraph: bad input") {
  if (!ops::have_graphblas()) return;
  const Csr<double> a = check::random_matrix(4, 5, 0.7, 2, 9);
  REQUIRE(a.degree(1) > 0);
  Csr<double> bad = a;
  bad.cols[std::size_t(a.offsets[1])] = 5;
  CHECK_THROWS_WITH_AS(GraphBlasGraph<double>{bad}, doctest::Contains("row 1 has a column outside [0, 5)"),
                       invalid_input);
  bad.cols[std::size_t(a.offsets[1])] = -1;
  CHECK_THROWS_AS(GraphBlasGraph<double>{bad}, invalid_input);
  bad = a;
  bad.offsets.pop_back();
  CHECK_THROWS_AS(GraphBlasGraph<double>{bad}, invalid_input);
  bad = a;
  bad.offsets[1] = bad.offsets[2] + 1;
  CHECK_THROWS_AS(GraphBlasGraph<double>{bad}, invalid_input);
}

#if MATCHBLAS_HAVE_GRAPHBLAS
TEST_CASE("GraphBlasGraph: GraphBLAS's thread count follows the caller's (ScopedThreads)") {
  const Csr<float> g = check::with_weights<float>(check::random_graph(30, 0.3, 2, 4));
  const GraphBlasGraph<float> h(g);
  std::vector<vertex_t> best(30);
  std::vector<float> bw(30);
  for (const int threads : {1, 2, 3}) {
    const ScopedThreads scope(threads);
    ops::argmax_rows<float>(h, {}, best, bw);
    int nthreads = 0;
    REQUIRE(GxB_Global_Option_get_INT32(GxB_GLOBAL_NTHREADS, &nthreads) == GrB_SUCCESS);
    CHECK(nthreads == threads);
  }
}

TEST_CASE("GraphBlasGraph: GraphBLAS's memory pool keeps large blocks while a graph lives, and lets go") {
  namespace memory = ops::grb::memory;
  {
    const GraphBlasGraph<double> g(check::random_graph(20, 0.3, 2, 1));  // initialises GraphBLAS with the pool
    std::vector<vertex_t> best(20);
    std::vector<double> bw(20);
    ops::argmax_rows<double>(g, {}, best, bw);
  }
  REQUIRE(memory::kept_bytes() == 0);
  memory::graph_made();
  auto* big = static_cast<unsigned char*>(memory::allocate(std::size_t(4) << 20));
  REQUIRE(big != nullptr);
  big[0] = 1;
  big[(std::size_t(4) << 20) - 1] = 2;
  memory::release(big);
  CHECK(memory::kept_bytes() >= (std::size_t(4) << 20));
  void* again = memory::allocate(std::size_t(3) << 20);  // fits the kept block within a factor of two
  CHECK(again == big);
  CHECK(memory::kept_bytes() == 0);
  void* small = memory::allocate(100);  // left to malloc
  memory::release(small);
  CHECK(memory::kept_bytes() == 0);
  memory::release(again);
  void* bigger = memory::allocate(std::size_t(9) << 20);  // more than twice: a new block
  CHECK(bigger != big);
  memory::release(bigger);
  memory::graph_gone();  // the last one: the pool is emptied
  CHECK(memory::kept_bytes() == 0);
}
#endif
