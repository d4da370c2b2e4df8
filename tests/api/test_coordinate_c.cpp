// The matching calls on coordinate arrays (include/matchblas/coordinate.h):
// on seeded random matrices with ties, negative values, explicit zeros,
// duplicates and diagonal entries, 0- and 1-based, int32 and int64 indices,
// float, double and pattern values, in shuffled entry order,
// matchblas_match_coordinate and matchblas_b_match_coordinate return what
// matchblas_match and matchblas_b_match return on the same matrix in CSR
// (themselves checked against the CLI's internal path in
// test_matching_cpp.cpp); every bad input is its named status.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "matchblas/community.h"
#include "matchblas/coordinate.h"
#include "matchblas/matching.h"

namespace {

struct Triples {
  std::int64_t rows = 0, cols = 0;
  std::vector<std::int64_t> row, col;
  std::vector<double> val;
};

Triples random_triples(std::uint64_t seed, std::int64_t m, std::int64_t n, double density) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  Triples t;
  t.rows = m;
  t.cols = n;
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      if (u(rng) < density)
        for (int c = u(rng) < 0.05 ? 2 : 1; c > 0; --c) {
          t.row.push_back(i);
          t.col.push_back(j);
          const double r = u(rng);
          t.val.push_back(r < 0.05 ? 0.0 : (r < 0.15 ? -1.0 : 1.0) * double(1 + int(4 * u(rng))) / 4);
        }
  std::vector<std::size_t> order(t.row.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  Triples s = t;
  for (std::size_t k = 0; k < order.size(); ++k) {
    s.row[k] = t.row[order[k]];
    s.col[k] = t.col[order[k]];
    s.val[k] = t.val[order[k]];
  }
  return s;
}

// The same matrix as CSR arrays (0-based, int64, double; entries in the triples' order within a row).
struct Csr {
  std::vector<std::int64_t> ptr, ind;
  std::vector<double> val;
  explicit Csr(const Triples& t) {
    ptr.assign(std::size_t(t.rows) + 1, 0);
    for (std::int64_t r : t.row) ++ptr[std::size_t(r) + 1];
    for (std::size_t i = 0; i < std::size_t(t.rows); ++i) ptr[i + 1] += ptr[i];
    std::vector<std::int64_t> next(ptr.begin(), ptr.end() - 1);
    ind.resize(t.row.size());
    val.resize(t.row.size());
    for (std::size_t k = 0; k < t.row.size(); ++k) {
      const auto p = std::size_t(next[std::size_t(t.row[k])]++);
      ind[p] = t.col[k];
      val[p] = t.val[k];
    }
  }
  matchblas_graph graph(const Triples& t, bool pattern, bool single) const {
    matchblas_graph g{};
    g.source = MATCHBLAS_GRAPH_SPARSE;
    g.sparse = {t.rows, t.cols, MATCHBLAS_CSR, 0, MATCHBLAS_INT64, pattern ? MATCHBLAS_PATTERN : MATCHBLAS_DOUBLE,
                ptr.data(), ind.data(), pattern ? nullptr : val.data()};
    g.single_precision = single;
    return g;
  }
};

// The triples in the caller's form: Index, Value (float, double or pattern), base.
template <class Index, class Value>
struct Coordinate {
  std::vector<Index> row, col;
  std::vector<Value> val;
  matchblas_coordinate_graph g{};
  Coordinate(const Triples& t, int base, matchblas_value_type type, bool single) {
    for (std::size_t k = 0; k < t.row.size(); ++k) {
      row.push_back(Index(t.row[k] + base));
      col.push_back(Index(t.col[k] + base));
      val.push_back(Value(t.val[k]));
    }
    g = {t.rows,     t.cols,     std::int64_t(row.size()), base,
         sizeof(Index) == 4 ? MATCHBLAS_INT32 : MATCHBLAS_INT64, type, row.data(), col.data(),
         type == MATCHBLAS_PATTERN ? nullptr : static_cast<const void*>(val.data()), MATCHBLAS_VIEW_AUTO, single};
  }
};

std::vector<std::int64_t> mates(const matchblas_matching& m) { return {m.mate, m.mate + m.vertices}; }

template <class Index, class Value>
void check_same(const Triples& t, int base, matchblas_value_type type, const char* algo) {
  CAPTURE(base);
  CAPTURE(algo);
  CAPTURE(int(type));
  const bool single = type == MATCHBLAS_FLOAT, pattern = type == MATCHBLAS_PATTERN;
  Triples rounded = t;  // what a float caller's values are
  if (single)
    for (double& x : rounded.val) x = double(float(x));
  const Csr csr(rounded);
  const matchblas_graph g = csr.graph(rounded, pattern, single);
  Coordinate<Index, Value> c(t, base, type, single);
  matchblas_matching want{}, got{};
  matchblas_match_report rw{}, rg{};
  REQUIRE(matchblas_match(&g, algo, nullptr, &want, &rw) == MATCHBLAS_OK);
  REQUIRE(matchblas_match_coordinate(&c.g, algo, nullptr, &got, &rg) == MATCHBLAS_OK);
  CHECK(mates(got) == mates(want));
  CHECK(rg.weight == rw.weight);
  CHECK(rg.edges == rw.edges);
  CHECK(std::string(rg.graph) == rw.graph);
  matchblas_matching_free(&want);
  matchblas_matching_free(&got);
}

}  // namespace

TEST_CASE("match_coordinate equals match on the same matrix, for every storage") {
  for (std::uint64_t seed = 1; seed <= 2; ++seed) {
    CAPTURE(seed);
    const Triples square = random_triples(seed, 40, 40, 0.15);
    const Triples rect = random_triples(100 + seed, 25, 35, 0.15);
    for (const Triples* t : {&square, &rect})
      for (int base : {0, 1})
        for (const char* algo : {"suitor", "greedy", "roma-sparse"}) {
          check_same<std::int32_t, double>(*t, base, MATCHBLAS_DOUBLE, algo);
          check_same<std::int64_t, double>(*t, base, MATCHBLAS_DOUBLE, algo);
          check_same<std::int64_t, float>(*t, base, MATCHBLAS_FLOAT, algo);
          check_same<std::int32_t, double>(*t, base, MATCHBLAS_PATTERN, algo);
        }
  }
  const Triples empty = random_triples(9, 0, 0, 0.5);
  check_same<std::int32_t, double>(empty, 0, MATCHBLAS_DOUBLE, "suitor");
}

TEST_CASE("b_match_coordinate equals b_match") {
  const Triples t = random_triples(21, 50, 50, 0.2);
  const Csr csr(t);
  const matchblas_graph g = csr.graph(t, false, false);
  Coordinate<std::int32_t, double> c(t, 0, MATCHBLAS_DOUBLE, false);
  const std::int64_t b = 2;
  matchblas_b_matching want{}, got{};
  REQUIRE(matchblas_b_match(&g, "b-suitor", &b, 1, nullptr, &want, nullptr) == MATCHBLAS_OK);
  REQUIRE(matchblas_b_match_coordinate(&c.g, "b-suitor", &b, 1, nullptr, &got, nullptr) == MATCHBLAS_OK);
  REQUIRE(got.vertices == want.vertices);
  CHECK(std::vector<std::int64_t>(got.offsets, got.offsets + got.vertices + 1) ==
        std::vector<std::int64_t>(want.offsets, want.offsets + want.vertices + 1));
  CHECK(std::vector<std::int64_t>(got.partners, got.partners + 2 * got.edges) ==
        std::vector<std::int64_t>(want.partners, want.partners + 2 * want.edges));
  matchblas_b_matching_free(&want);
  matchblas_b_matching_free(&got);
}

TEST_CASE("b_match in single precision: the double run's edges where the weights are floats exactly") {
  Triples t = random_triples(23, 60, 60, 0.2);
  for (double& v : t.val) v = double(float(v));  // floats exactly: both precisions order them alike
  const Csr csr(t);
  const std::int64_t b = 3;
  matchblas_b_matching want{}, got{};
  const matchblas_graph d = csr.graph(t, false, false), f = csr.graph(t, false, true);
  for (const char* algo : {"b-suitor", "b-greedy"}) {
    CAPTURE(algo);
    REQUIRE(matchblas_b_match(&d, algo, &b, 1, nullptr, &want, nullptr) == MATCHBLAS_OK);
    matchblas_match_report r{};
    REQUIRE(matchblas_b_match(&f, algo, &b, 1, nullptr, &got, &r) == MATCHBLAS_OK);
    REQUIRE(got.edges == want.edges);
    CHECK(std::vector<std::int64_t>(got.partners, got.partners + 2 * got.edges) ==
          std::vector<std::int64_t>(want.partners, want.partners + 2 * want.edges));
    CHECK(r.cardinality == got.edges);
    matchblas_b_matching_free(&want);
    matchblas_b_matching_free(&got);
  }
}

TEST_CASE("match_coordinate: every bad input is its named status, with a message") {
  const Triples t = random_triples(31, 10, 10, 0.3);
  REQUIRE(t.row.size() > 2);
  matchblas_matching m{};
  matchblas_match_report r{};
  const auto status = [&](auto edit) {
    Coordinate<std::int64_t, double> c(t, 0, MATCHBLAS_DOUBLE, false);
    edit(c);
    const int s = matchblas_match_coordinate(&c.g, "suitor", nullptr, &m, &r);
    if (s != MATCHBLAS_OK) CHECK(m.mate == nullptr);
    return s;
  };
  CHECK(status([](auto&) {}) == MATCHBLAS_OK);
  matchblas_matching_free(&m);
  CHECK(status([](auto& c) { c.g.rows = -1; }) == MATCHBLAS_ERR_BAD_DIMENSION);
  CHECK(status([](auto& c) { c.g.entries = -1; }) == MATCHBLAS_ERR_BAD_DIMENSION);
  CHECK(status([](auto& c) { c.g.base = 2; }) == MATCHBLAS_ERR_BAD_FORMAT);
  CHECK(status([](auto& c) { c.g.value_type = MATCHBLAS_COMPLEX_DOUBLE; }) == MATCHBLAS_ERR_BAD_FORMAT);
  CHECK(status([](auto& c) { c.g.row_indices = nullptr; }) == MATCHBLAS_ERR_NULL_ARGUMENT);
  CHECK(status([](auto& c) { c.g.values = nullptr; }) == MATCHBLAS_ERR_NULL_ARGUMENT);
  CHECK(status([](auto& c) { c.row[1] = 10; }) == MATCHBLAS_ERR_INDEX_OUT_OF_RANGE);
  CHECK(std::string(r.message) == "entry 1 is (10, " + std::to_string(t.col[1]) + "), outside the 10 x 10 matrix");
  CHECK(status([](auto& c) { c.col[2] = -1; }) == MATCHBLAS_ERR_INDEX_OUT_OF_RANGE);
  CHECK(status([](auto& c) { c.val[0] = std::nan(""); }) == MATCHBLAS_ERR_BAD_VALUE);
  CHECK(std::string(r.message).find("is not finite") != std::string::npos);
  CHECK(status([](auto& c) { c.g.view = MATCHBLAS_VIEW_COMPLETE; }) == MATCHBLAS_ERR_BAD_INPUT);
  CHECK(matchblas_match_coordinate(nullptr, "suitor", nullptr, &m, &r) == MATCHBLAS_ERR_NULL_ARGUMENT);
  // A count no memory can hold is out of memory, naming it (not an internal error).
  CHECK(status([](auto& c) { c.g.entries = INT64_MAX; }) == MATCHBLAS_ERR_OUT_OF_MEMORY);
  CHECK(std::string(r.message).find("the matrix's 9223372036854775807 entries") != std::string::npos);
}

TEST_CASE("the graph rules' messages number an entry from the caller's base") {
  // Entry (2, 0) (0-based) of weight 1e39: a float weight cannot hold it.
  for (int base : {0, 1}) {
    CAPTURE(base);
    const std::int64_t row[] = {2 + base, 0 + base}, col[] = {0 + base, 1 + base};
    const double val[] = {1e39, 1.0};
    const matchblas_coordinate_graph g{3, 3, 2, base, MATCHBLAS_INT64, MATCHBLAS_DOUBLE, row, col, val,
                                       MATCHBLAS_VIEW_GENERAL, 1};
    matchblas_matching m{};
    matchblas_match_report r{};
    REQUIRE(matchblas_match_coordinate(&g, "greedy", nullptr, &m, &r) == MATCHBLAS_ERR_BAD_INPUT);
    // The general graph's entry is the pair's lower-triangle copy, (row 0, col 2) in its terms.
    const std::string at = std::string("(") + std::to_string(0 + base) + ", " + std::to_string(2 + base) + ")";
    CHECK(std::string(r.message).find("entry " + at + " has the weight 1e+39") != std::string::npos);
    // Community detection's negative weight, by the same numbering (the entry as given).
    const double negative[] = {-1.0, 1.0};
    matchblas_coordinate_graph h = g;
    h.values = negative;
    h.single_precision = 0;
    matchblas_communities c{};
    matchblas_cluster_report cr{};
    REQUIRE(matchblas_cluster_coordinate(&h, "louvain", nullptr, &c, &cr) == MATCHBLAS_ERR_BAD_INPUT);
    const std::string given = std::string("(") + std::to_string(2 + base) + ", " + std::to_string(0 + base) + ")";
    CHECK(std::string(cr.message).find("entry " + given + " is -1") != std::string::npos);
  }
}

TEST_CASE("a dense leading dimension whose last offset overflows is refused") {
  const double d[] = {0, 1, 1, 0};
  matchblas_graph g{};
  g.source = MATCHBLAS_GRAPH_DENSE;
  g.dense_n = 2;
  g.dense_type = MATCHBLAS_DOUBLE;
  g.dense_values = d;
  matchblas_matching m{};
  matchblas_match_report r{};
  for (std::int64_t ld : {INT64_MAX, std::int64_t(1) << 62, std::int64_t(0x2000010000000000)}) {
    CAPTURE(ld);
    g.dense_leading_dimension = ld;
    CHECK(matchblas_match(&g, "greedy", nullptr, &m, &r) == MATCHBLAS_ERR_BAD_DIMENSION);
    CHECK(std::string(r.message).find("overflows a 64-bit offset") != std::string::npos);
  }
  g.dense_leading_dimension = 2;
  REQUIRE(matchblas_match(&g, "greedy", nullptr, &m, &r) == MATCHBLAS_OK);
  CHECK(m.mate[0] == 1);
  matchblas_matching_free(&m);
}

TEST_CASE("marriage lists longer than each list naming every other once are refused") {
  const std::int64_t offsets[] = {0, INT64_MAX}, lists[] = {0};
  const std::int64_t fine_offsets[] = {0, 1};
  const matchblas_preferences p{1, 1, offsets, lists, fine_offsets, lists, nullptr};
  matchblas_marriage w{};
  matchblas_match_report r{};
  CHECK(matchblas_marry(&p, "gale-shapley", nullptr, &w, &r) == MATCHBLAS_ERR_BAD_POINTERS);
  CHECK(std::string(r.message).find("the men's list 0 has 9223372036854775807 entries (offsets 0 to "
                                    "9223372036854775807), more than the 1 it can name once each") != std::string::npos);
}
