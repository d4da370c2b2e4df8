// Row argmax (ops/argmax.hpp): the plain and graphblas backends (on a Csr,
// importing per call, and on a resident GraphBlasGraph) against the
// executable specification below (STYLE 5), on seeded random inputs with
// heavy ties, the corner cases, and at several thread counts.
#include <doctest/doctest.h>
#include <omp.h>

#include <algorithm>
#include <optional>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include "datasets/generators.hpp"
#include "ops/argmax.hpp"
#include "tests/check/check.hpp"

using namespace matchblas;
using ops::ArgmaxMasks;
using ops::Backend;

namespace {

// The specification, written from ops/argmax.hpp without the library's tie
// rule: per active row, the largest qualifying weight; then the smallest
// column among the qualifying entries of that weight. O(rows + entries).
template <class W>
void spec_argmax(const Csr<W>& a, const ArgmaxMasks<W>& m, std::vector<vertex_t>& best, std::vector<W>& bw) {
  best.assign(std::size_t(a.n_rows), -1);
  bw.assign(std::size_t(a.n_rows), W(0));
  for (vertex_t u = 0; u < a.n_rows; ++u) {
    if (!m.active_rows.empty() && m.active_rows[u] == 0) continue;
    const auto qualifies = [&](offset_t k) {
      const vertex_t v = a.cols[k];
      const W w = a.weights[k];
      if (!m.eligible_cols.empty() && m.eligible_cols[v] == 0) return false;
      if (m.floor_weight.empty()) return true;
      return w > m.floor_weight[v] || (w == m.floor_weight[v] && u < m.floor_vertex[v]);
    };
    bool any = false;
    W top = 0;
    for (offset_t k = a.offsets[u]; k < a.offsets[u + 1]; ++k)
      if (qualifies(k) && (!any || a.weights[k] > top)) top = a.weights[k], any = true;
    if (!any) continue;
    vertex_t col = -1;
    for (offset_t k = a.offsets[u]; k < a.offsets[u + 1]; ++k)
      if (qualifies(k) && a.weights[k] == top && (col == -1 || a.cols[k] < col)) col = a.cols[k];
    best[u] = col;
    bw[u] = top;
  }
}

template <class W>
W draw_weight(std::mt19937_64& rng, int ties) {
  if (ties > 0) return W(std::uniform_int_distribution<int>(1, ties)(rng)) / W(ties);
  return W(1) - std::uniform_real_distribution<W>(0, 1)(rng);
}

// A random rows x cols matrix (sorted columns), weights as random_graph.
template <class W>
Csr<W> random_matrix(vertex_t rows, vertex_t cols, double density, int ties, std::mt19937_64& rng) {
  Csr<W> a;
  a.n_rows = rows;
  a.n_cols = cols;
  for (vertex_t u = 0; u < rows; ++u) {
    for (vertex_t v = 0; v < cols; ++v)
      if (std::uniform_real_distribution<double>(0, 1)(rng) < density) {
        a.cols.push_back(v);
        a.weights.push_back(draw_weight<W>(rng, ties));
      }
    a.offsets.push_back(offset_t(a.cols.size()));
  }
  return a;
}

// Mask storage. mode per mask: 0 absent, 1 all in, 2 none in, 3 random.
template <class W>
struct Masks {
  std::vector<std::uint8_t> active, eligible;
  std::vector<W> floor_weight;
  std::vector<vertex_t> floor_vertex;
  ArgmaxMasks<W> view() const { return {active, eligible, floor_weight, floor_vertex}; }
};

std::vector<std::uint8_t> make_mask(std::size_t n, int mode, std::mt19937_64& rng) {
  if (mode == 0) return {};
  std::vector<std::uint8_t> m(n, mode == 1 ? 1 : 0);
  if (mode == 3)
    for (auto& x : m) x = std::uniform_int_distribution<int>(0, 1)(rng) != 0 ? 7 : 0;  // any nonzero counts
  return m;
}

// floor_mode: 0 absent; 1 "no suitor yet" everywhere (0, -1); 2 random
// floors from the same tie values as the weights, often tied with a row.
template <class W>
Masks<W> random_masks(vertex_t rows, vertex_t cols, int ties, std::mt19937_64& rng, int active_mode,
                      int eligible_mode, int floor_mode) {
  Masks<W> m;
  m.active = make_mask(std::size_t(rows), active_mode, rng);
  m.eligible = make_mask(std::size_t(cols), eligible_mode, rng);
  if (floor_mode > 0) {
    m.floor_weight.assign(std::size_t(cols), W(0));
    m.floor_vertex.assign(std::size_t(cols), -1);
    if (floor_mode == 2)
      for (vertex_t v = 0; v < cols; ++v)
        if (rows > 0 && std::uniform_int_distribution<int>(0, 3)(rng) != 0) {
          m.floor_weight[v] = draw_weight<W>(rng, ties);
          m.floor_vertex[v] = std::uniform_int_distribution<vertex_t>(0, rows - 1)(rng);
        }
  }
  return m;
}

// a with the entries of each row in a random order (the plain backend
// promises the same result for any column order).
template <class W>
Csr<W> shuffle_rows(Csr<W> a, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::pair<vertex_t, W>> row;
  for (vertex_t u = 0; u < a.n_rows; ++u) {
    row.clear();
    for (offset_t k = a.offsets[u]; k < a.offsets[u + 1]; ++k) row.push_back({a.cols[k], a.weights[k]});
    std::shuffle(row.begin(), row.end(), rng);
    for (offset_t k = a.offsets[u]; k < a.offsets[u + 1]; ++k)
      std::tie(a.cols[k], a.weights[k]) = row[std::size_t(k - a.offsets[u])];
  }
  return a;
}

// plain (on a and on a with shuffled rows) and, when built, graphblas (on a,
// and twice on a resident copy of a with shuffled rows: the second call
// reuses what the first made) equal the specification.
template <class W>
void require_backends_match_spec(const Csr<W>& a, const ArgmaxMasks<W>& m) {
  std::vector<vertex_t> want, got(std::size_t(a.n_rows), -2);
  std::vector<W> want_w, got_w(std::size_t(a.n_rows), W(-2));
  spec_argmax(a, m, want, want_w);
  ops::argmax_rows<W>(a, m, got, got_w, Backend::plain);
  REQUIRE(got == want);
  REQUIRE(got_w == want_w);
  std::fill(got.begin(), got.end(), -2);
  ops::argmax_rows<W>(shuffle_rows(a, std::uint64_t(a.num_entries())), m, got, got_w, Backend::plain);
  REQUIRE(got == want);
  REQUIRE(got_w == want_w);
  if (!ops::have_graphblas()) return;
  std::fill(got.begin(), got.end(), -2);
  std::fill(got_w.begin(), got_w.end(), W(-2));
  ops::argmax_rows<W>(a, m, got, got_w, Backend::graphblas);
  REQUIRE(got == want);
  REQUIRE(got_w == want_w);
  const ops::GraphBlasGraph<W> resident(shuffle_rows(a, std::uint64_t(a.num_entries()) + 1));
  for (int call = 0; call < 2; ++call) {
    std::fill(got.begin(), got.end(), -2);
    std::fill(got_w.begin(), got_w.end(), W(-2));
    ops::argmax_rows<W>(resident, m, got, got_w);
    REQUIRE(got == want);
    REQUIRE(got_w == want_w);
  }
}

template <class W>
void random_cases(std::uint64_t first_seed, std::uint64_t last_seed) {
  for (std::uint64_t seed = first_seed; seed <= last_seed; ++seed) {
    CAPTURE(seed);
    std::mt19937_64 rng(seed);
    const int ties = int(seed % 4);  // 0: continuous; 1: every weight equal
    Csr<W> a;
    if (seed % 3 == 0) {
      const auto n = vertex_t(seed % 41);
      a = check::with_weights<W>(check::random_graph(n, 0.05 + double(seed % 10) / 10.0, ties, seed));
    } else {
      const auto rows = std::uniform_int_distribution<vertex_t>(0, 30)(rng);
      const auto cols = std::uniform_int_distribution<vertex_t>(0, 30)(rng);
      a = random_matrix<W>(rows, cols, std::uniform_real_distribution<double>(0, 0.9)(rng), ties, rng);
    }
    const int active_mode = int(seed / 3 % 4), eligible_mode = int(seed / 12 % 4), floor_mode = int(seed / 48 % 3);
    const Masks<W> m = random_masks<W>(a.n_rows, a.n_cols, ties, rng, active_mode, eligible_mode, floor_mode);
    require_backends_match_spec(a, m.view());
  }
}

}  // namespace

TEST_CASE("argmax: backends equal the specification on random inputs with heavy ties") {
  if (!ops::have_graphblas()) MESSAGE("skipped the graphblas backend: this build has no SuiteSparse:GraphBLAS");
  random_cases<double>(1, 600);
  random_cases<float>(601, 1000);
}

TEST_CASE("argmax: corner cases") {
  std::mt19937_64 rng(7);
  for (int floor_mode = 0; floor_mode < 3; ++floor_mode)
    for (int am = 0; am < 4; ++am)
      for (int em = 0; em < 4; ++em) {
        CAPTURE(floor_mode);
        CAPTURE(am);
        CAPTURE(em);
        for (auto [rows, cols] : {std::pair{0, 0}, {1, 1}, {0, 5}, {5, 0}, {1, 7}, {7, 1}}) {
          CAPTURE(rows);
          CAPTURE(cols);
          const Csr<double> a = random_matrix<double>(rows, cols, 0.7, 2, rng);
          require_backends_match_spec(a, random_masks<double>(rows, cols, 2, rng, am, em, floor_mode).view());
        }
      }
}

TEST_CASE("argmax: ties against the floor vertex") {
  // Column 0 has floor (1, 3): rows 0..2 win the tie at weight 1, rows 4..5
  // lose it, row 3 (the suitor itself) loses; weight 0.5 never qualifies.
  Csr<double> a;
  a.n_rows = 6;
  a.n_cols = 2;
  for (vertex_t u = 0; u < 6; ++u) {
    a.cols.insert(a.cols.end(), {0, 1});
    a.weights.insert(a.weights.end(), {1.0, 0.5});
    a.offsets.push_back(offset_t(a.cols.size()));
  }
  const std::vector<double> fw{1.0, 0.5};
  const std::vector<vertex_t> fv{3, 2};
  const ArgmaxMasks<double> m{{}, {}, fw, fv};
  require_backends_match_spec(a, m);
  std::vector<vertex_t> best(6);
  std::vector<double> bw(6);
  ops::argmax_rows<double>(a, m, best, bw);
  CHECK(best == std::vector<vertex_t>{0, 0, 0, -1, -1, -1});
  CHECK(bw == std::vector<double>{1, 1, 1, 0, 0, 0});
}

TEST_CASE("argmax: one huge row (a star with 100k edges) and empty rows") {
  constexpr vertex_t leaves = 100000;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    CAPTURE(seed);
    std::mt19937_64 rng(seed);
    const int ties = int(seed % 3) + 1;
    Csr<float> a;  // vertex 0 is the centre; rows leaves+1 .. leaves+9 are empty
    a.n_rows = a.n_cols = leaves + 10;
    std::vector<float> w(std::size_t(leaves) + 1);
    for (vertex_t v = 1; v <= leaves; ++v) {
      w[v] = draw_weight<float>(rng, ties);
      a.cols.push_back(v);
      a.weights.push_back(w[v]);
    }
    a.offsets.push_back(offset_t(a.cols.size()));
    for (vertex_t v = 1; v < a.n_rows; ++v) {
      if (v <= leaves) {
        a.cols.push_back(0);
        a.weights.push_back(w[v]);
      }
      a.offsets.push_back(offset_t(a.cols.size()));
    }
    for (int mode = 0; mode < 4; ++mode) {
      CAPTURE(mode);
      const Masks<float> m = random_masks<float>(a.n_rows, a.n_cols, ties, rng, mode, 3 - mode, mode % 3);
      require_backends_match_spec(a, m.view());
    }
    std::vector<vertex_t> best(std::size_t(a.n_rows));
    std::vector<float> bw(std::size_t(a.n_rows));
    ops::argmax_rows<float>(a, {}, best, bw);
    CHECK(best[0] == 1 + vertex_t(std::find(w.begin() + 1, w.end(), 1.0f) - (w.begin() + 1)));
    CHECK(best[leaves + 5] == -1);
  }
}

TEST_CASE("argmax: plain and graphblas give identical results at 1, 2 and 8 threads, repeated") {
  GenOptions opt;
  opt.ties = 2;
  opt.edge_factor = 8;
  const Csr<float> g = rmat<float>(1 << 14, opt);
  std::mt19937_64 rng(11);
  const Masks<float> m = random_masks<float>(g.n_rows, g.n_cols, 2, rng, 3, 3, 2);
  std::vector<vertex_t> want;
  std::vector<float> want_w;
  std::optional<ops::GraphBlasGraph<float>> resident;
  if (ops::have_graphblas()) resident.emplace(g);
  const int saved = omp_get_max_threads();
  for (const bool masked : {false, true}) {
    const ArgmaxMasks<float> view = masked ? m.view() : ArgmaxMasks<float>{};
    spec_argmax(g, view, want, want_w);
    for (int threads : {1, 2, 8})
      for (int rep = 0; rep < 10; ++rep) {
        CAPTURE(threads);
        CAPTURE(rep);
        omp_set_num_threads(threads);
        std::vector<vertex_t> best(std::size_t(g.n_rows), -2);
        std::vector<float> bw(std::size_t(g.n_rows), -2);
        ops::argmax_rows<float>(g, view, best, bw, Backend::plain);
        REQUIRE(best == want);
        REQUIRE(bw == want_w);
        if (!resident || rep >= 2) continue;
        std::fill(best.begin(), best.end(), -2);
        ops::argmax_rows<float>(*resident, view, best, bw);
        REQUIRE(best == want);
        REQUIRE(bw == want_w);
      }
  }
  omp_set_num_threads(saved);
}

TEST_CASE("argmax: wrong lengths and a missing backend are errors") {
  const Csr<double> a = check::random_graph(5, 0.5, 2, 3);
  std::vector<vertex_t> best(5);
  std::vector<double> bw(5);
  const std::vector<std::uint8_t> four(4, 1), five(5, 1);
  const std::vector<double> fw4(4, 0.0), fw5(5, 0.0);
  const std::vector<vertex_t> fv4(4, -1), fv5(5, -1);
  CHECK_THROWS_AS(ops::argmax_rows<double>(a, {four, {}, {}, {}}, best, bw), invalid_input);
  CHECK_THROWS_AS(ops::argmax_rows<double>(a, {{}, four, {}, {}}, best, bw), invalid_input);
  CHECK_THROWS_AS(ops::argmax_rows<double>(a, {{}, {}, fw4, fv4}, best, bw), invalid_input);
  CHECK_THROWS_AS(ops::argmax_rows<double>(a, {{}, {}, fw5, {}}, best, bw), invalid_input);
  CHECK_THROWS_AS(ops::argmax_rows<double>(a, {{}, {}, {}, fv5}, best, bw), invalid_input);
  CHECK_THROWS_AS(ops::argmax_rows<double>(a, {}, std::span(best).first(4), bw), invalid_input);
  CHECK_THROWS_AS(ops::argmax_rows<double>(a, {}, best, std::span(bw).first(4)), invalid_input);
  CHECK_NOTHROW(ops::argmax_rows<double>(a, {five, five, fw5, fv5}, best, bw));
  if (!ops::have_graphblas()) {
    CHECK_THROWS_AS(ops::argmax_rows<double>(a, {}, best, bw, Backend::graphblas), error);
    return;
  }
  const ops::GraphBlasGraph<double> resident(a);
  CHECK_THROWS_AS(ops::argmax_rows<double>(resident, {four, {}, {}, {}}, best, bw), invalid_input);
  CHECK_THROWS_AS(ops::argmax_rows<double>(resident, {}, std::span(best).first(4), bw), invalid_input);
  CHECK_THROWS_AS(ops::argmax_rows<double>(resident, {}, best, bw, Backend::plain), invalid_input);
  CHECK_NOTHROW(ops::argmax_rows<double>(resident, {five, five, fw5, fv5}, best, bw, Backend::automatic));
  Csr<double> twice = a;  // a row holding a column twice: GraphBLAS cannot hold it
  REQUIRE(twice.degree(0) > 0);
  twice.cols.insert(twice.cols.begin(), twice.cols[0]);
  twice.weights.insert(twice.weights.begin(), 0.25);
  for (std::size_t u = 1; u < twice.offsets.size(); ++u) ++twice.offsets[u];
  CHECK_THROWS_WITH_AS(ops::argmax_rows<double>(twice, {}, best, bw, Backend::graphblas),
                       doctest::Contains("row 0 holds the same column twice"), invalid_input);
}
