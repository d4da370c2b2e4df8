// Tests of the seeded graph generators (datasets/generators.hpp): the same
// seed gives the same graph for any thread count, a different seed a different
// one; sizes, structure (general graph: symmetric, sorted, no loops, no
// duplicates) and weight ranges of every kind; tie mode; R-MAT skew; bad
// arguments; the knn graph and its neighbour search against brute force.
// Every property is checked with plain loops over the result.
#include <doctest/doctest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "datasets/generators.hpp"
#include "datasets/nearest_neighbours.hpp"
#include "lib/counter_rng.hpp"
#include "lib/error.hpp"
#include "tests/check/check.hpp"

using namespace matchblas;

namespace {

const std::vector<std::pair<std::string, vertex_t>> sparse_cases = {
    {"er", 3000}, {"rmat", 2048}, {"grid", 60}, {"bipartite", 40}, {"knn", 3000}};
const std::vector<std::string> complete_cases = {"complete-uniform", "complete-exponential",
                                                 "complete-geometric"};

template <class W>
bool same(const Csr<W>& a, const Csr<W>& b) {
  return a.n_rows == b.n_rows && a.n_cols == b.n_cols && a.offsets == b.offsets &&
         a.cols == b.cols && a.weights == b.weights;
}
template <class W>
bool same(const Dense<W>& a, const Dense<W>& b) {
  return a.n == b.n && a.values == b.values;
}

// The weight of entry (u, v), or -1 when absent (binary search: sorted rows).
template <class W>
double weight_of(const Csr<W>& g, vertex_t u, vertex_t v) {
  const auto cols = g.row_cols(u);
  const auto it = std::lower_bound(cols.begin(), cols.end(), v);
  if (it == cols.end() || *it != v) return -1;
  return g.row_weights(u)[it - cols.begin()];
}

// Why g is not a general graph with weights in (0, max_weight], or "" when
// it is: square, offsets consistent, columns in range and strictly
// increasing (so no duplicates), no self-loops, symmetric with equal weights.
template <class W>
std::string general_graph_violation(const Csr<W>& g, double max_weight = 1) {
  if (g.n_rows != g.n_cols) return "not square";
  if (g.offsets.size() != static_cast<std::size_t>(g.n_rows) + 1 || g.offsets.front() != 0)
    return "bad offsets array";
  if (g.cols.size() != static_cast<std::size_t>(g.num_entries()) ||
      g.weights.size() != g.cols.size())
    return "cols/weights length differs from offsets";
  for (vertex_t u = 0; u < g.n_rows; ++u) {
    if (g.offsets[u] > g.offsets[u + 1]) return "offsets decrease at row " + std::to_string(u);
    const auto cols = g.row_cols(u);
    const auto ws = g.row_weights(u);
    for (std::size_t i = 0; i < cols.size(); ++i) {
      auto at = [&](const char* what) {
        return what + (" at (" + std::to_string(u) + ", " + std::to_string(cols[i]) + ")");
      };
      if (cols[i] < 0 || cols[i] >= g.n_cols) return at("column out of range");
      if (cols[i] == u) return at("self-loop");
      if (i > 0 && cols[i - 1] >= cols[i]) return at("columns unsorted or duplicated");
      if (!(ws[i] > W(0) && double(ws[i]) <= max_weight)) return at("weight outside (0, max_weight]");
      if (weight_of(g, cols[i], u) != double(ws[i])) return at("not symmetric");
    }
  }
  return "";
}

template <class W>
void require_general_graph(const Csr<W>& g, double max_weight = 1) {
  const std::string why = general_graph_violation(g, max_weight);
  INFO("general_graph_violation: ", why);
  REQUIRE(why.empty());
}

// Complete graph: symmetric, zero diagonal.
template <class W>
void require_symmetric(const Dense<W>& d) {
  for (vertex_t u = 0; u < d.n; ++u) {
    REQUIRE(d(u, u) == W(0));
    for (vertex_t v = u + 1; v < d.n; ++v) REQUIRE(d(u, v) == d(v, u));
  }
}

// Every off-diagonal weight is j/k for some j in 1..k.
template <class W>
void require_tie_values(const std::vector<W>& values, int k, bool skip_zeros) {
  std::set<W> allowed;
  for (int j = 1; j <= k; ++j) allowed.insert(static_cast<W>(double(j) / k));
  for (W w : values)
    if (!(skip_zeros && w == W(0))) REQUIRE(allowed.count(w) == 1);
}

}  // namespace

TEST_CASE_TEMPLATE("generators: same seed, same graph; other seed, other graph", W, float, double) {
  for (std::uint64_t seed : {1ull, 42ull, 0xDEADBEEFull}) {
    CAPTURE(seed);
    GenOptions opt, other;
    opt.seed = seed;
    other.seed = seed + 1;
    for (const auto& [kind, n] : sparse_cases) {
      CAPTURE(kind);
      const auto g = generate_sparse<W>(kind, n, opt);
      REQUIRE(same(g, generate_sparse<W>(kind, n, opt)));
      REQUIRE(!same(g, generate_sparse<W>(kind, n, other)));
      require_general_graph(g);
    }
    for (const auto& kind : complete_cases) {
      CAPTURE(kind);
      const auto d = generate_complete<W>(kind, 80, opt);
      REQUIRE(same(d, generate_complete<W>(kind, 80, opt)));
      REQUIRE(!same(d, generate_complete<W>(kind, 80, other)));
      require_symmetric(d);
    }
  }
}

TEST_CASE_TEMPLATE("generators: the same graph with 1 and 4 threads", W, float, double) {
  const int saved = omp_get_max_threads();
  for (std::uint64_t seed : {7ull, 2024ull}) {
    CAPTURE(seed);
    GenOptions opt;
    opt.seed = seed;
    for (int ties : {0, 5}) {
      opt.ties = ties;
      CAPTURE(ties);
      for (const auto& [kind, n] : sparse_cases) {
        CAPTURE(kind);
        omp_set_num_threads(1);
        const auto one = generate_sparse<W>(kind, 2 * n, opt);
        omp_set_num_threads(4);
        REQUIRE(same(one, generate_sparse<W>(kind, 2 * n, opt)));
      }
      for (const auto& kind : complete_cases) {
        CAPTURE(kind);
        omp_set_num_threads(1);
        const auto one = generate_complete<W>(kind, 301, opt);
        omp_set_num_threads(4);
        REQUIRE(same(one, generate_complete<W>(kind, 301, opt)));
      }
    }
  }
  omp_set_num_threads(saved);
}

TEST_CASE("generators: grid sizes and structure") {
  const auto g = grid2d<double>(256);
  REQUIRE(g.n_rows == 65536);
  REQUIRE(num_edges(g) == 130560);
  require_general_graph(g);
  for (vertex_t u = 0; u < g.n_rows; ++u)
    for (vertex_t v : g.row_cols(u)) {
      const vertex_t d = std::abs(u - v);
      REQUIRE((d == 256 || (d == 1 && u / 256 == v / 256)));
    }
  REQUIRE(grid2d<float>(1).n_rows == 1);
  REQUIRE(grid2d<float>(1).num_entries() == 0);
  REQUIRE(num_edges(grid2d<float>(3)) == 12);
}

TEST_CASE("generators: complete bipartite sizes and structure") {
  for (vertex_t s : {1, 2, 17, 64}) {
    CAPTURE(s);
    const auto g = complete_bipartite<float>(s);
    REQUIRE(g.n_rows == 2 * s);
    REQUIRE(num_edges(g) == std::int64_t(s) * s);
    require_general_graph(g);
    for (vertex_t u = 0; u < g.n_rows; ++u)
      for (vertex_t v : g.row_cols(u)) REQUIRE((u < s) != (v < s));
  }
}

TEST_CASE_TEMPLATE("generators: er and rmat edge counts and structure", W, float, double) {
  for (std::uint64_t seed : {3ull, 11ull}) {
    CAPTURE(seed);
    for (double ef : {0.0, 0.5, 4.0, 16.0}) {
      CAPTURE(ef);
      GenOptions opt;
      opt.seed = seed;
      opt.edge_factor = ef;
      for (vertex_t n : {0, 1, 2, 64, 1024}) {
        CAPTURE(n);
        const auto drawn = static_cast<std::int64_t>(std::round(ef * n));
        for (const auto& g : {erdos_renyi<W>(n, opt), rmat<W>(n, opt)}) {
          REQUIRE(g.n_rows == n);
          REQUIRE(num_edges(g) <= drawn);
          require_general_graph(g);
        }
      }
    }
  }
}

TEST_CASE("generators: an er graph with more draws contains the one with fewer") {
  // Edge k's endpoints and weight depend only on k: the first draws of a
  // larger edge factor are the draws of a smaller one.
  GenOptions small, large;
  small.seed = large.seed = 99;
  small.edge_factor = 2;
  large.edge_factor = 5;
  const auto a = erdos_renyi<double>(500, small), b = erdos_renyi<double>(500, large);
  REQUIRE(num_edges(a) < num_edges(b));
  for (vertex_t u = 0; u < a.n_rows; ++u)
    for (std::size_t i = 0; i < a.row_cols(u).size(); ++i)
      REQUIRE(weight_of(b, u, a.row_cols(u)[i]) >= a.row_weights(u)[i]);
}

TEST_CASE_TEMPLATE("generators: complete graph weight ranges", W, float, double) {
  const std::uint64_t seed = 5;
  CAPTURE(seed);
  GenOptions opt;
  opt.seed = seed;
  const vertex_t n = 1000;
  const auto uni = complete_graph<W>(WeightDist::uniform, n, opt);
  const auto ex = complete_graph<W>(WeightDist::exponential, n, opt);
  const auto geo = complete_graph<W>(WeightDist::geometric, n, opt);
  double sum_uni = 0, sum_ex = 0;
  for (vertex_t u = 0; u < n; ++u)
    for (vertex_t v = u + 1; v < n; ++v) {
      REQUIRE(uni(u, v) >= W(0));
      REQUIRE(uni(u, v) <= W(1));
      REQUIRE(ex(u, v) >= W(0));
      REQUIRE(std::isfinite(double(ex(u, v))));
      REQUIRE(geo(u, v) >= W(0));
      REQUIRE(double(geo(u, v)) <= std::sqrt(2.0));
      sum_uni += uni(u, v);
      sum_ex += ex(u, v);
    }
  const double pairs = double(n) * (n - 1) / 2;
  CHECK(sum_uni / pairs == doctest::Approx(0.5).epsilon(0.01));
  CHECK(sum_ex / pairs == doctest::Approx(1 / 3.5).epsilon(0.01));
  // Geometric weights are distances: the triangle inequality holds.
  for (vertex_t u = 0; u < 40; ++u)
    for (vertex_t v = 0; v < 40; ++v)
      for (vertex_t x = 0; x < 40; ++x)
        REQUIRE(double(geo(u, v)) <= double(geo(u, x)) + double(geo(x, v)) + 1e-6);
  // A complete graph on n vertices is the leading block of the one on n + 1.
  const auto bigger = complete_graph<W>(WeightDist::uniform, 31, opt);
  const auto smaller = complete_graph<W>(WeightDist::uniform, 30, opt);
  for (vertex_t u = 0; u < 30; ++u)
    for (vertex_t v = 0; v < 30; ++v) REQUIRE(smaller(u, v) == bigger(u, v));
  REQUIRE(complete_graph<W>(WeightDist::geometric, 0, opt).values.empty());
  REQUIRE(complete_graph<W>(WeightDist::geometric, 1, opt).values == std::vector<W>{W(0)});
}

TEST_CASE_TEMPLATE("generators: ties give only the k values, with many repeats", W, float, double) {
  for (int k : {1, 3, 10}) {
    CAPTURE(k);
    GenOptions opt;
    opt.seed = 8;
    opt.ties = k;
    for (const auto& [kind, n] : sparse_cases) {
      CAPTURE(kind);
      const auto g = generate_sparse<W>(kind, n, opt);
      require_tie_values(g.weights, k, false);
      REQUIRE(std::set<W>(g.weights.begin(), g.weights.end()).size() <= std::size_t(k));
      REQUIRE(g.weights.size() > 20 * std::size_t(k));  // so values repeat
    }
    for (const auto& kind : complete_cases) {
      CAPTURE(kind);
      const auto d = generate_complete<W>(kind, 100, opt);
      require_tie_values(d.values, k, true);
      require_symmetric(d);
      if (kind != "complete-geometric")  // uniform draws: every value shows up
        REQUIRE(std::set<W>(d.values.begin(), d.values.end()).size() == std::size_t(k) + 1);
    }
  }
}

TEST_CASE("generators: rmat degrees are skewed, er degrees are not") {
  GenOptions opt;
  opt.seed = 17;
  const vertex_t n = 1 << 14;
  auto max_over_average = [n](const Csr<double>& g) {
    offset_t max_degree = 0;
    for (vertex_t u = 0; u < n; ++u) max_degree = std::max(max_degree, g.degree(u));
    return double(max_degree) / (double(g.num_entries()) / n);
  };
  CHECK(max_over_average(rmat<double>(n, opt)) > 20);
  CHECK(max_over_average(erdos_renyi<double>(n, opt)) < 3);
}

TEST_CASE("generators: bad arguments throw invalid_input") {
  GenOptions opt;
  CHECK_THROWS_WITH_AS(rmat<float>(1000, opt), "rmat needs a power-of-two vertex count, got 1000",
                       invalid_input);
  CHECK_THROWS_AS(rmat<float>(-4, opt), invalid_input);
  for (auto [a, b, c] : {std::tuple{0.5, 0.3, 0.2}, std::tuple{0.6, 0.3, 0.3},
                         std::tuple{-0.1, 0.5, 0.1}, std::tuple{std::nan(""), 0.1, 0.1}}) {
    GenOptions bad;
    bad.rmat_a = a, bad.rmat_b = b, bad.rmat_c = c;
    CHECK_THROWS_AS(rmat<double>(1024, bad), invalid_input);
  }
  for (double ef : {-1.0, std::nan(""), HUGE_VAL, 1e12}) {
    CAPTURE(ef);
    GenOptions bad;
    bad.edge_factor = ef;
    CHECK_THROWS_AS(erdos_renyi<float>(1 << 20, bad), invalid_input);
    CHECK_THROWS_AS(rmat<float>(1 << 20, bad), invalid_input);
  }
  GenOptions negative_ties;
  negative_ties.ties = -1;
  CHECK_THROWS_AS(erdos_renyi<float>(10, negative_ties), invalid_input);
  CHECK_THROWS_AS(grid2d<float>(10, negative_ties), invalid_input);
  CHECK_THROWS_AS(complete_graph<float>(WeightDist::uniform, 10, negative_ties), invalid_input);
  CHECK_THROWS_AS(erdos_renyi<float>(-1, opt), invalid_input);
  CHECK_THROWS_AS(grid2d<float>(-1, opt), invalid_input);
  CHECK_THROWS_AS(grid2d<float>(50000, opt), invalid_input);             // > 2^31 vertices
  CHECK_THROWS_AS(complete_bipartite<float>(-1, opt), invalid_input);
  CHECK_THROWS_AS(complete_bipartite<float>(100000, opt), invalid_input);  // > 2^32 edges
  CHECK_THROWS_AS(complete_graph<double>(WeightDist::uniform, -1, opt), invalid_input);
  CHECK_THROWS_AS(complete_graph<float>(WeightDist::uniform, 1 << 20, opt), invalid_input);
  CHECK_THROWS_AS(generate_sparse<float>("complete-uniform", 10, opt), invalid_input);
  CHECK_THROWS_AS(generate_sparse<float>("kronecker", 10, opt), invalid_input);
  CHECK_THROWS_AS(generate_complete<float>("er", 10, opt), invalid_input);
  CHECK_THROWS_WITH(generate_complete<double>("complete", 10, opt),
                    doctest::Contains("complete-uniform, complete-exponential, complete-geometric"));
}

TEST_CASE("generators: the kinds table names what the dispatchers take") {
  const auto& kinds = generator_kinds();
  REQUIRE(kinds.size() == 8);
  CHECK(generator_kind_names() ==
        "complete-uniform, complete-exponential, complete-geometric, er, rmat, grid, bipartite, knn");
  CHECK(generator_kind_names(false) == "er, rmat, grid, bipartite, knn");
  CHECK(find_generator_kind("kronecker") == nullptr);
  GenOptions opt;
  opt.seed = 3;
  for (const auto& k : kinds) {
    CAPTURE(k.name);
    REQUIRE(!k.size_meaning.empty());
    REQUIRE(find_generator_kind(k.name) == &k);
    // A kind has exactly the functions of its shape, and they are what the dispatchers call.
    REQUIRE((k.complete_float != nullptr) == k.complete);
    REQUIRE((k.complete_double != nullptr) == k.complete);
    REQUIRE((k.sparse_float != nullptr) == !k.complete);
    REQUIRE((k.sparse_double != nullptr) == !k.complete);
    // The size it announces bounds what it makes.
    const GeneratedSize size = k.size(16, opt);
    if (k.complete) {
      REQUIRE(generate_complete<float>(k.name, 16, opt).n == 16);
      REQUIRE(same(k.complete_double(16, opt), generate_complete<double>(k.name, 16, opt)));
      CHECK(size.vertices == 16);
      CHECK(size.edges == 120);
      CHECK(size.peak_bytes >= double(k.complete_double(16, opt).values.size() * sizeof(double)));
    } else {
      REQUIRE(generate_sparse<float>(k.name, 16, opt).n_rows >= 16);
      const Csr<double> g = k.sparse_double(16, opt);
      REQUIRE(same(g, generate_sparse<double>(k.name, 16, opt)));
      CHECK(size.vertices == double(g.n_rows));
      CHECK(size.edges >= double(num_edges(g)));
      CHECK(size.peak_bytes >= double(g.bytes()));
    }
  }
}

namespace {

// The k nearest of every point by brute force: all n - 1 others sorted by
// (squared distance, id), the first k kept.
std::vector<vertex_t> brute_nearest(const std::vector<double>& x, const std::vector<double>& y, vertex_t k) {
  const auto n = static_cast<vertex_t>(x.size());
  std::vector<vertex_t> out;
  for (vertex_t u = 0; u < n; ++u) {
    std::vector<std::pair<double, vertex_t>> others;
    for (vertex_t v = 0; v < n; ++v)
      if (v != u) others.push_back({CompleteWeights::squared_distance(x[v] - x[u], y[v] - y[u]), v});
    std::partial_sort(others.begin(), others.begin() + k, others.end());
    for (vertex_t j = 0; j < k; ++j) out.push_back(others[j].second);
  }
  return out;
}

// The knn graph by brute force: u's k nearest (brute_nearest on the seed's
// points) and their union, each edge weighing what the complete geometric
// graph of the same seed gives the pair.
template <class W>
std::map<std::pair<vertex_t, vertex_t>, W> brute_knn(vertex_t n, vertex_t k, const GenOptions& opt) {
  std::vector<double> x, y;
  for (vertex_t i = 0; i < n; ++i)
    x.push_back(CompleteWeights::point_x(opt.seed, i)), y.push_back(CompleteWeights::point_y(opt.seed, i));
  const Dense<W> complete = complete_graph<W>(WeightDist::geometric, n, opt);
  const std::vector<vertex_t> near = brute_nearest(x, y, k);
  std::map<std::pair<vertex_t, vertex_t>, W> edges;
  for (vertex_t u = 0; u < n; ++u)
    for (vertex_t j = 0; j < k; ++j) {
      const vertex_t v = near[std::size_t(u) * k + j];
      edges[{u, v}] = edges[{v, u}] = complete(u, v);
    }
  return edges;
}

template <class W>
std::map<std::pair<vertex_t, vertex_t>, W> entries_of(const Csr<W>& g) {
  std::map<std::pair<vertex_t, vertex_t>, W> e;
  for (vertex_t u = 0; u < g.n_rows; ++u)
    for (std::size_t i = 0; i < g.row_cols(u).size(); ++i) e[{u, g.row_cols(u)[i]}] = g.row_weights(u)[i];
  return e;
}

}  // namespace

TEST_CASE_TEMPLATE("generators: knn is the brute-force k-nearest-neighbour graph", W, float, double) {
  // (n, edge factors): k = 1, fractional, a few cells' worth, n - 1 (the
  // complete graph), and above n - 1 (clamped).
  const std::vector<std::pair<vertex_t, std::vector<double>>> cases = {
      {0, {0, 16}}, {1, {0, 16}}, {2, {0, 16}},  {3, {1, 2.6, 2, 10}}, {9, {1, 2.6, 8, 16}},
      {150, {1, 8, 149, 150}},   {600, {1, 3, 16}}};
  const std::vector<std::uint64_t> seeds =
      std::is_same_v<W, double> ? std::vector<std::uint64_t>{1, 6, 1234} : std::vector<std::uint64_t>{2};
  for (std::uint64_t seed : seeds) {
    CAPTURE(seed);
    for (int ties : {0, 4}) {
      CAPTURE(ties);
      for (const auto& [n, factors] : cases)
        for (double ef : factors) {
          CAPTURE(n);
          CAPTURE(ef);
          GenOptions opt;
          opt.seed = seed, opt.ties = ties, opt.edge_factor = ef;
          const auto k = static_cast<vertex_t>(n < 2 ? 0 : std::clamp(std::round(ef), 1.0, double(n) - 1));
          const Csr<W> g = knn_graph<W>(n, opt);
          REQUIRE(g.n_rows == n);
          require_general_graph(g, std::sqrt(2.0));
          REQUIRE(entries_of(g) == brute_knn<W>(n, k, opt));
          // Every vertex keeps its k nearest: degree k at least; k = n - 1 is complete.
          for (vertex_t u = 0; u < n; ++u) REQUIRE(g.degree(u) >= k);
          REQUIRE(num_edges(g) <= std::int64_t(n) * k);
          if (n >= 2 && k == n - 1) REQUIRE(num_edges(g) == std::int64_t(n) * (n - 1) / 2);
          if (ties > 0) require_tie_values(g.weights, ties, false);
        }
    }
  }
}

TEST_CASE("generators: knn on 20,000 points agrees with a full scan at sampled points") {
  // Many cells and rings (cells of about k points). At every 97th point u:
  // u's k nearest by a scan of all points are its neighbours, and each other
  // neighbour v has u among its own k nearest; weights are the complete
  // geometric graph's.
  for (double ef : {1.0, 8.0}) {
    CAPTURE(ef);
    GenOptions opt;
    opt.seed = 31, opt.edge_factor = ef;
    const vertex_t n = 20000, k = static_cast<vertex_t>(ef);
    const Csr<double> g = knn_graph<double>(n, opt);
    require_general_graph(g);
    REQUIRE(num_edges(g) >= std::int64_t(n) * k / 2);
    std::vector<double> x, y;
    for (vertex_t i = 0; i < n; ++i)
      x.push_back(CompleteWeights::point_x(opt.seed, i)), y.push_back(CompleteWeights::point_y(opt.seed, i));
    const CompleteWeights weight(WeightDist::geometric, 0, opt.seed, x.data(), y.data());
    auto nearest_of = [&](vertex_t u) {
      std::vector<std::pair<double, vertex_t>> others;
      for (vertex_t v = 0; v < n; ++v)
        if (v != u) others.push_back({CompleteWeights::squared_distance(x[v] - x[u], y[v] - y[u]), v});
      std::partial_sort(others.begin(), others.begin() + k, others.end());
      std::vector<vertex_t> ids;
      for (vertex_t j = 0; j < k; ++j) ids.push_back(others[j].second);
      return ids;
    };
    for (vertex_t u = 0; u < n; u += 97) {
      CAPTURE(u);
      const std::vector<vertex_t> mine = nearest_of(u);
      for (vertex_t v : mine) REQUIRE(weight_of(g, u, v) == weight(std::min(u, v), std::max(u, v)));
      for (std::size_t i = 0; i < g.row_cols(u).size(); ++i) {
        const vertex_t v = g.row_cols(u)[i];
        REQUIRE(double(g.row_weights(u)[i]) == weight(std::min(u, v), std::max(u, v)));
        if (std::count(mine.begin(), mine.end(), v) == 0) {
          CAPTURE(v);
          const std::vector<vertex_t> theirs = nearest_of(v);
          REQUIRE(std::count(theirs.begin(), theirs.end(), u) == 1);
        }
      }
    }
  }
}

TEST_CASE("nearest_neighbours: exact ties, repeated points, the square's edges and clusters, against brute force") {
  std::vector<std::pair<std::string, std::pair<std::vector<double>, std::vector<double>>>> sets;
  {  // a 17 x 17 lattice of spacing 1/16: distances tie exactly, ids decide
    std::vector<double> x, y;
    for (int i = 0; i <= 16; ++i)
      for (int j = 0; j <= 16; ++j) x.push_back(j / 16.0), y.push_back(i / 16.0);
    sets.push_back({"lattice", {x, y}});
  }
  sets.push_back({"one place", {std::vector<double>(40, 0.25), std::vector<double>(40, 0.75)}});
  // 2 x 2 cells for k = 2. Point 3's nearest are 0, 1, 2, all at 1/4; 1 and
  // 2 share its cell, 0 lies exactly on the cell's right side, so in the
  // next cell, exactly as far as that side: the search must look there
  // (a tie at the stopping distance is decided by id: 0 and 1).
  sets.push_back({"tie on a cell side",
                  {{0.5, 0.0, 0.25, 0.25, 0.9, 0.9, 0.6, 0.7}, {0.25, 0.25, 0.0, 0.25, 0.9, 0.6, 0.9, 0.7}}});
  {  // a tight cluster in a corner, a few far points, points on x = 1 and y = 1
    std::vector<double> x, y;
    const rng::Stream s(5, 9);
    for (int i = 0; i < 300; ++i) x.push_back(1e-3 * s.uniform01(2 * i)), y.push_back(1e-3 * s.uniform01(2 * i + 1));
    for (double c : {0.0, 0.5, 1.0})
      for (double d : {0.0, 0.5, 1.0}) x.push_back(c), y.push_back(d);
    for (int i = 0; i < 40; ++i) x.push_back(1.0), y.push_back(s.uniform01(1000 + i));
    sets.push_back({"cluster and edges", {x, y}});
  }
  for (const auto& [name, points] : sets) {
    CAPTURE(name);
    const auto& [x, y] = points;
    const auto n = static_cast<vertex_t>(x.size());
    for (vertex_t k : {vertex_t(0), vertex_t(1), vertex_t(2), vertex_t(4), vertex_t(8), vertex_t(13), n - 1}) {
      if (k > n - 1) continue;
      CAPTURE(k);
      REQUIRE(nearest_neighbours(x, y, k) == brute_nearest(x, y, k));
    }
  }
}

TEST_CASE("nearest_neighbours and knn: bad arguments throw invalid_input") {
  const std::vector<double> x = {0.1, 0.2, 0.3}, y = {0.5, 0.5, 0.5};
  CHECK(nearest_neighbours(x, y, 2).size() == 6);
  CHECK(nearest_neighbours({}, {}, 0).empty());
  CHECK_THROWS_AS(nearest_neighbours(x, y, 3), invalid_input);  // k > n - 1
  CHECK_THROWS_AS(nearest_neighbours(x, y, -1), invalid_input);
  CHECK_THROWS_AS(nearest_neighbours(x, std::vector<double>{0.5, 0.5}, 1), invalid_input);
  CHECK_THROWS_WITH_AS(nearest_neighbours(x, std::vector<double>{0.5, 1.5, 0.5}, 1),
                       "nearest_neighbours: point 1 = (0.200000, 1.500000) is outside the unit square", invalid_input);
  CHECK_THROWS_AS(nearest_neighbours(x, std::vector<double>{0.5, std::nan(""), 0.5}, 1), invalid_input);
  for (double ef : {-1.0, std::nan(""), HUGE_VAL}) {
    CAPTURE(ef);
    GenOptions bad;
    bad.edge_factor = ef;
    CHECK_THROWS_AS(knn_graph<float>(100, bad), invalid_input);
  }
  GenOptions many;
  many.edge_factor = 1e6;  // clamped to n - 1: 2^20 (2^20 - 1) pairs, over 2^32
  CHECK_THROWS_WITH_AS(knn_graph<float>(1 << 20, many), doctest::Contains("more than the limit of 2^32"),
                       invalid_input);
  CHECK_THROWS_AS(knn_graph<float>(-1, GenOptions{}), invalid_input);
  GenOptions negative_ties;
  negative_ties.ties = -1;
  CHECK_THROWS_AS(knn_graph<double>(10, negative_ties), invalid_input);
}
