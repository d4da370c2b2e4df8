// Building a Csr from triples or indexed entries (lib/csr_build.hpp) against a brute-force map.
#include <doctest/doctest.h>
#include <omp.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <map>
#include <random>

#include "lib/csr_build.hpp"
#include "tests/check/check.hpp"

using namespace matchblas;

TEST_CASE("csr_from_triples sorts, combines duplicates and drops zeros") {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    CAPTURE(seed);
    std::mt19937_64 rng(seed);
    const vertex_t rows = std::uniform_int_distribution<vertex_t>(0, 30)(rng);
    const vertex_t cols = std::uniform_int_distribution<vertex_t>(1, 30)(rng);
    const int entries = rows == 0 ? 0 : std::uniform_int_distribution<int>(0, 300)(rng);
    Triples<double> t;
    for (int k = 0; k < entries; ++k)
      t.push_back(std::uniform_int_distribution<vertex_t>(0, rows - 1)(rng),
                  std::uniform_int_distribution<vertex_t>(0, cols - 1)(rng),
                  std::uniform_int_distribution<int>(-2, 2)(rng));
    for (Duplicates dup : {Duplicates::sum, Duplicates::max})
      for (bool drop : {false, true}) {
        std::map<std::pair<vertex_t, vertex_t>, double> spec;
        for (std::size_t k = 0; k < t.size(); ++k) {
          auto [it, fresh] = spec.try_emplace({t.row[k], t.col[k]}, t.val[k]);
          if (!fresh) it->second = dup == Duplicates::sum ? it->second + t.val[k] : std::max(it->second, t.val[k]);
        }
        std::erase_if(spec, [&](const auto& e) { return drop && e.second == 0; });
        const Csr<double> a = csr_from_triples(rows, cols, t, dup, drop);
        REQUIRE(a.num_entries() == static_cast<offset_t>(spec.size()));
        auto it = spec.begin();
        for (vertex_t r = 0; r < rows; ++r)
          for (offset_t k = a.offsets[r]; k < a.offsets[r + 1]; ++k, ++it) {
            CHECK(it->first == std::pair{r, a.cols[k]});
            CHECK(it->second == a.weights[k]);
          }
      }
  }
}

TEST_CASE("csr_from_triples does not depend on the thread count, bit for bit") {
  // About 40 duplicates per (row, col) with values of mixed magnitudes, so
  // that a sum taken in a schedule-dependent order would differ in its bits.
  std::mt19937_64 rng(7);
  Triples<double> t;
  for (int k = 0; k < 200000; ++k)
    t.push_back(rng() % 70, rng() % 70,
                std::ldexp(std::uniform_real_distribution<double>(-1, 1)(rng),
                           std::uniform_int_distribution<int>(-30, 30)(rng)));
  // The test can see order: summing one cell's duplicates forwards and
  // backwards differs somewhere.
  std::map<std::pair<vertex_t, vertex_t>, std::vector<double>> cells;
  for (std::size_t k = 0; k < t.size(); ++k) cells[{t.row[k], t.col[k]}].push_back(t.val[k]);
  bool order_matters = false;
  for (const auto& [cell, v] : cells) {
    double forwards = 0, backwards = 0;
    for (std::size_t i = 0; i < v.size(); ++i) forwards += v[i], backwards += v[v.size() - 1 - i];
    order_matters |= forwards != backwards;
  }
  REQUIRE(order_matters);
  const auto bits = [](const std::vector<double>& w) {
    std::vector<std::uint64_t> b(w.size());
    for (std::size_t i = 0; i < w.size(); ++i) b[i] = std::bit_cast<std::uint64_t>(w[i]);
    return b;
  };
  for (Duplicates dup : {Duplicates::sum, Duplicates::max}) {
    omp_set_num_threads(1);
    const Csr<double> one = csr_from_triples(70, 70, t, dup, true);
    for (int repeat = 0; repeat < 3; ++repeat) {
      omp_set_num_threads(8);
      const Csr<double> eight = csr_from_triples(70, 70, t, dup, true);
      CHECK(one.offsets == eight.offsets);
      CHECK(one.cols == eight.cols);
      CHECK(bits(one.weights) == bits(eight.weights));
    }
  }
  omp_set_num_threads(omp_get_num_procs());
}

TEST_CASE("csr_from_triples refuses an index outside the matrix") {
  Triples<double> t;
  t.push_back(0, 0, 1);
  t.push_back(2, 5, 1);
  CHECK_THROWS_WITH_AS(csr_from_triples(3, 5, t, Duplicates::sum, true), doctest::Contains("entry 1 at (2, 5)"),
                       invalid_input);
}

// The first row of `greedy` that is not `by_column`'s row (same offsets) in
// the greedy order (heavier first, then the smaller column); -1: none.
static vertex_t first_row_not_in_greedy_order(const Csr<double>& greedy, const Csr<double>& by_column) {
  for (vertex_t r = 0; r < by_column.n_rows; ++r) {
    std::vector<std::pair<double, vertex_t>> row, expect;
    for (offset_t k = by_column.offsets[r]; k < by_column.offsets[r + 1]; ++k) {
      expect.push_back({by_column.weights[k], by_column.cols[k]});
      row.push_back({greedy.weights[k], greedy.cols[k]});
    }
    std::sort(expect.begin(), expect.end(),
              [](const auto& a, const auto& b) { return a.first > b.first || (a.first == b.first && a.second < b.second); });
    if (row != expect) return r;
  }
  return -1;
}

TEST_CASE("csr_from_entries: items of 0-2 entries equal their triples, by column or in the greedy order") {
  // Item k stands for (r, c) and, when r != c, (c, r) too; items with r == c
  // stand for nothing (as the distributed input treats drawn self-loops).
  std::mt19937_64 rng(5);
  const vertex_t n = 40;
  std::vector<std::array<vertex_t, 2>> ends;
  std::vector<double> vals;
  for (int k = 0; k < 3000; ++k) {
    ends.push_back({vertex_t(rng() % n), vertex_t(rng() % n)});
    vals.push_back(std::uniform_int_distribution<int>(-3, 3)(rng) * 0.5);  // ties and zeros
  }
  Triples<double> t;
  for (std::size_t k = 0; k < ends.size(); ++k)
    if (ends[k][0] != ends[k][1]) {
      t.push_back(ends[k][0], ends[k][1], vals[k]);
      t.push_back(ends[k][1], ends[k][0], vals[k]);
    }
  const auto items = [&](std::int64_t k, auto emit) {
    const auto [r, c] = ends[std::size_t(k)];
    if (r == c) return;
    emit(r, c, vals[std::size_t(k)]);
    emit(c, r, vals[std::size_t(k)]);
  };
  for (int threads : {1, 4})
    for (Duplicates dup : {Duplicates::sum, Duplicates::max}) {
      CAPTURE(threads);
      omp_set_num_threads(threads);
      const Csr<double> want = csr_from_triples(n, n, t, dup, true);
      const Csr<double> by_column = csr_from_entries<double>(n, n, std::int64_t(ends.size()), items, dup, true);
      CHECK(by_column.offsets == want.offsets);
      CHECK(by_column.cols == want.cols);
      CHECK(by_column.weights == want.weights);
      // The greedy order: the same entries per row, heavier first, then the
      // smaller column.
      const Csr<double> greedy =
          csr_from_entries<double>(n, n, std::int64_t(ends.size()), items, dup, true, RowOrder::greedy);
      REQUIRE(greedy.offsets == want.offsets);
      CHECK(first_row_not_in_greedy_order(greedy, want) == -1);
    }
  omp_set_num_threads(omp_get_num_procs());
  CHECK_THROWS_WITH_AS(csr_from_entries<double>(n, n, std::int64_t(ends.size()),
                                                [&](std::int64_t k, auto emit) {
                                                  items(k, emit);
                                                  if (k == 7) emit(3, n, 1.0);
                                                },
                                                Duplicates::sum, true),
                       doctest::Contains("entry 7 at (3, 40)"), invalid_input);
}

// Independent of lib/csr_build.hpp: every triple sorted by (row, column,
// value), each (row, column) combined in that order, zeros dropped.
static Csr<double> reference_csr(vertex_t n, std::vector<std::array<double, 3>> t, Duplicates dup) {
  std::sort(t.begin(), t.end());
  Csr<double> a;
  a.n_rows = a.n_cols = n;
  a.offsets.assign(std::size_t(n) + 1, 0);
  for (std::size_t i = 0; i < t.size();) {
    double acc = t[i][2];
    std::size_t j = i + 1;
    for (; j < t.size() && t[j][0] == t[i][0] && t[j][1] == t[i][1]; ++j)
      acc = dup == Duplicates::sum ? acc + t[j][2] : std::max(acc, t[j][2]);
    if (acc != 0) {
      a.cols.push_back(vertex_t(t[i][1]));
      a.weights.push_back(acc);
      ++a.offsets[std::size_t(t[i][0]) + 1];
    }
    i = j;
  }
  for (vertex_t r = 0; r < n; ++r) a.offsets[r + 1] += a.offsets[r];
  return a;
}

TEST_CASE("csr_from_entries: many buckets of rows and a hub row of over 2^20 entries, against a plain sort") {
  // 2.4M items of two entries: half of them with an end at the hub (row 0:
  // over 2^20 entries, so its bucket is sorted in place; its other ends in
  // rows 0..999, long rows), the others spread over 200,000 rows (dozens of
  // buckets) with their other end among the next 5 (short rows, about 12
  // entries, most of them duplicates); values with ties, zeros and sums
  // that cancel.
  std::mt19937_64 rng(11);
  const vertex_t n = 200000;
  const std::int64_t m = 2400000;
  std::vector<std::array<vertex_t, 2>> ends(static_cast<std::size_t>(m));
  std::vector<double> vals(static_cast<std::size_t>(m));
  std::vector<std::array<double, 3>> t;
  for (std::int64_t k = 0; k < m; ++k) {
    const vertex_t r = rng() % 2 == 0 ? 0 : vertex_t(rng() % n);
    const vertex_t c = r == 0 ? vertex_t(rng() % 1000) : vertex_t((r + 1 + rng() % 5) % n);
    ends[std::size_t(k)] = {r, c};
    vals[std::size_t(k)] = std::uniform_int_distribution<int>(-3, 3)(rng) * 0.25;
    t.push_back({double(r), double(c), vals[std::size_t(k)]});
    t.push_back({double(c), double(r), vals[std::size_t(k)]});
  }
  const auto items = [&](std::int64_t k, auto emit) {
    emit(ends[std::size_t(k)][0], ends[std::size_t(k)][1], vals[std::size_t(k)]);
    emit(ends[std::size_t(k)][1], ends[std::size_t(k)][0], vals[std::size_t(k)]);
  };
  const std::int64_t hub_entries = std::count_if(t.begin(), t.end(), [](const auto& x) { return x[0] == 0; });
  REQUIRE(hub_entries > (std::int64_t(1) << 20));
  const int saved_threads = omp_get_max_threads();
  for (Duplicates dup : {Duplicates::sum, Duplicates::max}) {
    const Csr<double> want = reference_csr(n, t, dup);
    for (int threads : {1, 3}) {
      CAPTURE(threads);
      omp_set_num_threads(threads);
      const Csr<double> got = csr_from_entries<double>(n, n, m, items, dup, true);
      CHECK(got.offsets == want.offsets);
      CHECK(got.cols == want.cols);
      CHECK(got.weights == want.weights);
      const Csr<double> greedy = csr_from_entries<double>(n, n, m, items, dup, true, RowOrder::greedy);
      REQUIRE(greedy.offsets == want.offsets);
      CHECK(first_row_not_in_greedy_order(greedy, want) == -1);
    }
  }
  omp_set_num_threads(saved_threads);
}

TEST_CASE("csr_from_entries: a hub row of 2^21 entries, 2^17 distinct columns, sorted on the threads in both orders") {
  // One bucket of more than 2^20 entries whose row keeps more than 2^16
  // entries after the duplicates are combined: its sort by column and its
  // greedy sort both run split over the threads and merged.
  std::mt19937_64 rng(5);
  const vertex_t n = 1 << 17;
  const std::int64_t m = std::int64_t(1) << 21;
  std::vector<vertex_t> col(static_cast<std::size_t>(m));
  std::vector<double> val(static_cast<std::size_t>(m));
  std::vector<std::array<double, 3>> t;
  for (std::int64_t k = 0; k < m; ++k) {
    col[std::size_t(k)] = vertex_t(rng() % n);
    val[std::size_t(k)] = std::uniform_int_distribution<int>(-8, 8)(rng) * 0.5;
    t.push_back({0.0, double(col[std::size_t(k)]), val[std::size_t(k)]});
  }
  const auto items = [&](std::int64_t k, auto emit) { emit(0, col[std::size_t(k)], val[std::size_t(k)]); };
  const int saved_threads = omp_get_max_threads();
  for (Duplicates dup : {Duplicates::sum, Duplicates::max}) {
    CAPTURE(int(dup));
    const Csr<double> want = reference_csr(1, t, dup);
    REQUIRE(want.num_entries() > (offset_t(1) << 16));
    for (int threads : {1, 3, 4}) {
      CAPTURE(threads);
      omp_set_num_threads(threads);
      const Csr<double> got = csr_from_entries<double>(1, n, m, items, dup, true);
      CHECK(got.offsets == want.offsets);
      CHECK(got.cols == want.cols);
      CHECK(got.weights == want.weights);
      const Csr<double> greedy = csr_from_entries<double>(1, n, m, items, dup, true, RowOrder::greedy);
      REQUIRE(greedy.offsets == want.offsets);
      CHECK(first_row_not_in_greedy_order(greedy, want) == -1);
    }
  }
  omp_set_num_threads(saved_threads);
}

TEST_CASE("csr_from_entries: signed zeros give the same bits at every thread count, +0 over -0 for a maximum") {
  // A hub row (over 2^20 entries, split over the threads when sorted) and a
  // short row, their values +0 and -0 at random, zeros kept.
  std::mt19937_64 rng(9);
  const vertex_t cols = 4096;
  const std::int64_t m = (std::int64_t(1) << 21) + 1000;
  std::vector<vertex_t> row(static_cast<std::size_t>(m)), col(static_cast<std::size_t>(m));
  std::vector<double> val(static_cast<std::size_t>(m));
  std::vector<std::uint8_t> has_plus(2 * std::size_t(cols), 0);
  for (std::int64_t k = 0; k < m; ++k) {
    row[std::size_t(k)] = k < (std::int64_t(1) << 21) ? 0 : 1;
    col[std::size_t(k)] = vertex_t(rng() % (row[std::size_t(k)] == 0 ? cols : 16));
    val[std::size_t(k)] = rng() % 2 ? 0.0 : -0.0;
    if (!std::signbit(val[std::size_t(k)])) has_plus[std::size_t(row[std::size_t(k)]) * cols + col[std::size_t(k)]] = 1;
  }
  const auto items = [&](std::int64_t k, auto emit) { emit(row[std::size_t(k)], col[std::size_t(k)], val[std::size_t(k)]); };
  const auto bits = [](const std::vector<double>& w) {
    std::vector<std::uint64_t> b(w.size());
    for (std::size_t i = 0; i < w.size(); ++i) b[i] = std::bit_cast<std::uint64_t>(w[i]);
    return b;
  };
  const int saved_threads = omp_get_max_threads();
  for (RowOrder order : {RowOrder::column, RowOrder::greedy}) {
    CAPTURE(int(order));
    omp_set_num_threads(1);
    const Csr<double> one = csr_from_entries<double>(2, cols, m, items, Duplicates::max, false, order);
    for (vertex_t r = 0; r < 2; ++r)
      for (offset_t k = one.offsets[r]; k < one.offsets[r + 1]; ++k)
        CHECK(std::signbit(one.weights[k]) == !has_plus[std::size_t(r) * cols + one.cols[k]]);
    for (int threads : {2, 3, 4}) {
      CAPTURE(threads);
      omp_set_num_threads(threads);
      const Csr<double> got = csr_from_entries<double>(2, cols, m, items, Duplicates::max, false, order);
      CHECK(got.offsets == one.offsets);
      CHECK(got.cols == one.cols);
      CHECK(bits(got.weights) == bits(one.weights));
    }
  }
  omp_set_num_threads(saved_threads);
}
