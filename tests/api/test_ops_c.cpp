// The ops' C interface (include/matchblas/ops.h): a matrix given as CSR or
// CSC, 0- or 1-based, int32 or int64, float or double becomes the library's
// Csr of the same matrix; argmax, assign, select and select_free on it give
// what the ops of ops/ give on that Csr (the ops themselves are checked
// against their executable specifications in tests/ops/); every bad
// argument is its named status; without a GPU the device entries say
// MATCHBLAS_ERR_UNAVAILABLE (tests/gpu/test_ops_device_c.cpp runs them on one).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "lib/csr.hpp"
#include "matchblas/ops.h"
#include "ops/argmax.hpp"
#include "ops/assign.hpp"
#include "ops/gpu/device.hpp"
#include "ops/select.hpp"
#include "tests/check/check.hpp"

using matchblas::Csr;
using matchblas::vertex_t;

namespace {

// A seeded random m x n Csr with ties, negative weights and empty rows.

// a's arrays in the caller's storage: CSR or CSC (of the same matrix), base, Index.
template <class Index, class W>
struct Caller {
  std::vector<Index> ptr, ind;
  std::vector<W> val;
  matchblas_sparse s{};
  Caller(const Csr<W>& a, bool csr, int base) {
    const vertex_t outer = csr ? a.n_rows : a.n_cols;
    ptr.assign(std::size_t(outer) + 1, 0);
    for (vertex_t i = 0; i < a.n_rows; ++i)
      for (auto k = a.offsets[i]; k < a.offsets[i + 1]; ++k) ++ptr[std::size_t(csr ? i : a.cols[k]) + 1];
    for (vertex_t o = 0; o < outer; ++o) ptr[o + 1] += ptr[o];
    std::vector<Index> next(ptr.begin(), ptr.end() - 1);
    ind.resize(a.cols.size());
    val.resize(a.cols.size());
    for (vertex_t i = 0; i < a.n_rows; ++i)
      for (auto k = a.offsets[i]; k < a.offsets[i + 1]; ++k) {
        const auto p = std::size_t(next[std::size_t(csr ? i : a.cols[k])]++);
        ind[p] = Index((csr ? a.cols[k] : i) + base);
        val[p] = a.weights[k];
      }
    for (Index& p : ptr) p += Index(base);
    s = {a.n_rows,  a.n_cols,   csr ? MATCHBLAS_CSR : MATCHBLAS_CSC,
         base,      sizeof(Index) == 4 ? MATCHBLAS_INT32 : MATCHBLAS_INT64,
         std::is_same_v<W, float> ? MATCHBLAS_FLOAT : MATCHBLAS_DOUBLE,
         ptr.data(), ind.data(), val.data()};
  }
};

template <class W>
Csr<W> csr_of(const matchblas_ops_matrix* m) {
  matchblas_ops_matrix_arrays v{};
  REQUIRE(matchblas_ops_matrix_view(m, &v) == MATCHBLAS_OK);
  Csr<W> c;
  c.n_rows = vertex_t(v.rows);
  c.n_cols = vertex_t(v.cols);
  c.offsets.assign(v.offsets, v.offsets + v.rows + 1);
  c.cols.assign(v.columns, v.columns + v.entries);
  c.weights.assign(static_cast<const W*>(v.values), static_cast<const W*>(v.values) + v.entries);
  return c;
}

// Same matrix: the same rows, each as a multiset of (column, weight).
template <class W>
void require_same_matrix(Csr<W> a, Csr<W> b) {
  REQUIRE(a.n_rows == b.n_rows);
  REQUIRE(a.n_cols == b.n_cols);
  REQUIRE(a.offsets == b.offsets);
  for (Csr<W>* c : {&a, &b})
    for (vertex_t i = 0; i < c->n_rows; ++i) {
      std::vector<std::pair<vertex_t, W>> row;
      for (auto k = c->offsets[i]; k < c->offsets[i + 1]; ++k) row.emplace_back(c->cols[k], c->weights[k]);
      std::sort(row.begin(), row.end());
      for (std::size_t k = 0; k < row.size(); ++k) {
        c->cols[std::size_t(c->offsets[i]) + k] = row[k].first;
        c->weights[std::size_t(c->offsets[i]) + k] = row[k].second;
      }
    }
  CHECK(a.cols == b.cols);
  CHECK(a.weights == b.weights);
}

template <class Index, class W>
void check_ops(std::uint64_t seed, vertex_t m, vertex_t n, bool csr, int base) {
  CAPTURE(seed);
  CAPTURE(csr);
  CAPTURE(base);
  const Csr<W> a = matchblas::check::random_signed_matrix<W>(m, n, 0.2, seed);
  Caller<Index, W> caller(a, csr, base);
  matchblas_ops_matrix* g = nullptr;
  matchblas_ops_status st{};
  REQUIRE(matchblas_ops_matrix_create(&caller.s, &g, &st) == MATCHBLAS_OK);
  const Csr<W> copy = csr_of<W>(g);
  require_same_matrix(copy, a);

  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> active(static_cast<std::size_t>(m)), eligible(static_cast<std::size_t>(n));
  std::vector<W> floor_w(static_cast<std::size_t>(n));
  std::vector<vertex_t> floor_v(static_cast<std::size_t>(n));
  for (auto& x : active) x = rng() % 2;
  for (auto& x : eligible) x = rng() % 3 != 0;
  for (auto& x : floor_w) x = W(int(rng() % 7) - 3);
  for (auto& x : floor_v) x = vertex_t(rng() % std::uint64_t(m + 2)) - 1;
  for (int variant = 0; variant < 3; ++variant) {
    CAPTURE(variant);
    matchblas::ops::ArgmaxMasks<W> masks;
    if (variant >= 1) {
      masks.active_rows = active;
      masks.eligible_cols = eligible;
    }
    if (variant == 2) {
      masks.floor_weight = floor_w;
      masks.floor_vertex = floor_v;
    }
    std::vector<vertex_t> want(static_cast<std::size_t>(m)), got(static_cast<std::size_t>(m));
    std::vector<W> want_w(static_cast<std::size_t>(m)), got_w(static_cast<std::size_t>(m));
    matchblas::ops::argmax_rows(copy, masks, std::span(want), std::span(want_w));
    REQUIRE(matchblas_ops_argmax(g, variant >= 1 ? active.data() : nullptr, variant >= 1 ? eligible.data() : nullptr,
                                 variant == 2 ? floor_w.data() : nullptr, variant == 2 ? floor_v.data() : nullptr,
                                 got.data(), got_w.data(), MATCHBLAS_OPS_AUTO, &st) == MATCHBLAS_OK);
    CHECK(got == want);
    CHECK(got_w == want_w);
    if (matchblas::ops::have_graphblas()) {
      REQUIRE(matchblas_ops_argmax(g, nullptr, nullptr, variant == 2 ? floor_w.data() : nullptr,
                                   variant == 2 ? floor_v.data() : nullptr, got.data(), got_w.data(),
                                   MATCHBLAS_OPS_GRAPHBLAS, &st) == MATCHBLAS_OK);
      matchblas::ops::ArgmaxMasks<W> floor_only;
      if (variant == 2) {
        floor_only.floor_weight = floor_w;
        floor_only.floor_vertex = floor_v;
      }
      matchblas::ops::argmax_rows(copy, floor_only, std::span(want), std::span(want_w));
      CHECK(got == want);
    }
  }

  matchblas_ops_matrix* c = nullptr;
  REQUIRE(matchblas_ops_select(g, active.data(), eligible.data(), &c, &st) == MATCHBLAS_OK);
  const auto keep = [&](vertex_t u, vertex_t v) { return active[std::size_t(u)] && eligible[std::size_t(v)]; };
  const Csr<W> want = matchblas::ops::select_entries(copy, keep);
  const Csr<W> got = csr_of<W>(c);
  CHECK(got.offsets == want.offsets);
  CHECK(got.cols == want.cols);
  CHECK(got.weights == want.weights);
  matchblas_ops_matrix_free(c);
  if (m == n) {
    std::vector<vertex_t> mate(static_cast<std::size_t>(m));
    for (auto& x : mate) x = rng() % 3 == 0 ? vertex_t(rng() % std::uint64_t(m)) : -1;
    REQUIRE(matchblas_ops_select_free(g, mate.data(), &c, &st) == MATCHBLAS_OK);
    const Csr<W> f = matchblas::ops::select_free_entries(copy, std::span<const vertex_t>(mate));
    const Csr<W> got_f = csr_of<W>(c);
    CHECK(got_f.offsets == f.offsets);
    CHECK(got_f.cols == f.cols);
    matchblas_ops_matrix_free(c);
  }
  matchblas_ops_matrix_free(g);
}

}  // namespace

TEST_CASE("ops: the caller's matrix in every storage, and argmax / select on it equal the ops") {
  for (std::uint64_t seed = 1; seed <= 3; ++seed)
    for (bool csr : {true, false})
      for (int base : {0, 1}) {
        check_ops<std::int32_t, double>(seed, 30, 30, csr, base);
        check_ops<std::int64_t, float>(seed, 20, 45, csr, base);
        check_ops<std::int64_t, double>(seed, 0, 0, csr, base);
        check_ops<std::int32_t, double>(seed, 1, 1, csr, base);
      }
}

TEST_CASE("ops: assign for every entry type") {
  const auto check = [](auto zero) {
    using T = decltype(zero);
    const matchblas_ops_type type = std::is_same_v<T, std::uint8_t>   ? MATCHBLAS_OPS_UINT8
                                    : std::is_same_v<T, std::int32_t> ? MATCHBLAS_OPS_INT32
                                    : std::is_same_v<T, std::int64_t> ? MATCHBLAS_OPS_INT64
                                    : std::is_same_v<T, float>        ? MATCHBLAS_OPS_FLOAT
                                                                      : MATCHBLAS_OPS_DOUBLE;
    std::vector<T> out(100), values(100), want(100);
    std::vector<std::uint8_t> mask(100);
    for (int i = 0; i < 100; ++i) {
      out[i] = T(i);
      values[i] = T(2 * i);
      mask[i] = i % 3 == 0;
    }
    want = out;
    matchblas::ops::assign<T>(std::span(want), mask, std::span<const T>(values));
    matchblas_ops_status st{};
    REQUIRE(matchblas_ops_assign(out.data(), type, 100, mask.data(), values.data(), nullptr, &st) == MATCHBLAS_OK);
    CHECK(out == want);
    const T seven = T(7);
    matchblas::ops::assign<T>(std::span(want), {}, seven);
    REQUIRE(matchblas_ops_assign(out.data(), type, 100, nullptr, nullptr, &seven, &st) == MATCHBLAS_OK);
    CHECK(out == want);
  };
  check(std::uint8_t{});
  check(std::int32_t{});
  check(std::int64_t{});
  check(float{});
  check(double{});
}

TEST_CASE("ops: every bad argument is its named status, with a message") {
  const Csr<double> a = matchblas::check::random_signed_matrix<double>(6, 8, 0.5, 5);
  Caller<std::int32_t, double> caller(a, true, 0);
  matchblas_ops_matrix* g = nullptr;
  matchblas_ops_status st{};
  REQUIRE(matchblas_ops_matrix_create(&caller.s, &g, &st) == MATCHBLAS_OK);
  std::vector<vertex_t> best(6);
  std::vector<double> best_w(6);
  std::vector<double> fw(8);
  CHECK(matchblas_ops_argmax(nullptr, nullptr, nullptr, nullptr, nullptr, best.data(), best_w.data(),
                             MATCHBLAS_OPS_AUTO, &st) == MATCHBLAS_ERR_NULL_ARGUMENT);
  CHECK(matchblas_ops_argmax(g, nullptr, nullptr, fw.data(), nullptr, best.data(), best_w.data(), MATCHBLAS_OPS_AUTO,
                             &st) == MATCHBLAS_ERR_NULL_ARGUMENT);
  CHECK(std::string(st.message).find("together") != std::string::npos);
  CHECK(matchblas_ops_argmax(g, nullptr, nullptr, nullptr, nullptr, nullptr, best_w.data(), MATCHBLAS_OPS_AUTO, &st) ==
        MATCHBLAS_ERR_NULL_ARGUMENT);
  CHECK(matchblas_ops_argmax(g, nullptr, nullptr, nullptr, nullptr, best.data(), best_w.data(),
                             static_cast<matchblas_ops_backend>(9), &st) == MATCHBLAS_ERR_BAD_OPTION);
  if (!matchblas::ops::have_graphblas())
    CHECK(matchblas_ops_argmax(g, nullptr, nullptr, nullptr, nullptr, best.data(), best_w.data(),
                               MATCHBLAS_OPS_GRAPHBLAS, &st) == MATCHBLAS_ERR_UNAVAILABLE);
  std::vector<vertex_t> mate(6, -1);
  matchblas_ops_matrix* c = nullptr;
  CHECK(matchblas_ops_select_free(g, mate.data(), &c, &st) == MATCHBLAS_ERR_BAD_DIMENSION);  // not square
  CHECK(c == nullptr);
  CHECK(matchblas_ops_select(g, nullptr, nullptr, nullptr, &st) == MATCHBLAS_ERR_NULL_ARGUMENT);
  int x = 0;
  CHECK(matchblas_ops_assign(&x, static_cast<matchblas_ops_type>(11), 1, nullptr, nullptr, &x, &st) ==
        MATCHBLAS_ERR_BAD_FORMAT);
  CHECK(matchblas_ops_assign(&x, MATCHBLAS_OPS_INT32, -1, nullptr, nullptr, &x, &st) == MATCHBLAS_ERR_BAD_DIMENSION);
  CHECK(matchblas_ops_assign(&x, MATCHBLAS_OPS_INT32, 1, nullptr, nullptr, nullptr, &st) ==
        MATCHBLAS_ERR_NULL_ARGUMENT);
  // Empty arrays may come as NULL pointers (an empty CuPy or numpy array's data): nothing to read or write.
  CHECK(matchblas_ops_assign(nullptr, MATCHBLAS_OPS_INT32, 0, nullptr, nullptr, nullptr, &st) == MATCHBLAS_OK);
  CHECK(matchblas_ops_assign(nullptr, static_cast<matchblas_ops_type>(11), 0, nullptr, nullptr, nullptr, &st) ==
        MATCHBLAS_ERR_BAD_FORMAT);
  matchblas_ops_matrix_free(g);

  // The matrix: checked as the matching calls check theirs; float or double values only.
  matchblas_ops_matrix* bad = nullptr;
  caller.s.value_type = MATCHBLAS_PATTERN;
  CHECK(matchblas_ops_matrix_create(&caller.s, &bad, &st) == MATCHBLAS_ERR_BAD_FORMAT);
  caller.s.value_type = MATCHBLAS_DOUBLE;
  caller.ind[0] = 99;
  CHECK(matchblas_ops_matrix_create(&caller.s, &bad, &st) == MATCHBLAS_ERR_INDEX_OUT_OF_RANGE);
  CHECK(std::string(st.message).find("99") != std::string::npos);
  CHECK(bad == nullptr);
  CHECK(matchblas_ops_matrix_create(nullptr, &bad, &st) == MATCHBLAS_ERR_NULL_ARGUMENT);
  CHECK(matchblas_ops_matrix_create(&caller.s, nullptr, nullptr) == MATCHBLAS_ERR_NULL_ARGUMENT);
}

TEST_CASE("ops on device arrays: unavailable without a GPU, after the host-side checks") {
  if (matchblas::gpu::device_count() > 0) return;  // tests/gpu/test_ops_device_c.cpp runs them
  const std::int64_t offsets[] = {0, 0};
  matchblas_device_csr a{1, 1, 0, MATCHBLAS_INT64, MATCHBLAS_DOUBLE, offsets, nullptr, nullptr, 0};
  std::int32_t best = 0;
  double best_w = 0;
  matchblas_ops_status st{};
  CHECK(matchblas_ops_argmax_device(&a, nullptr, nullptr, nullptr, nullptr, &best, &best_w, nullptr, &st) ==
        MATCHBLAS_ERR_UNAVAILABLE);
  CHECK(std::string(st.message).find("no usable GPU") == 0);
  a.value_type = MATCHBLAS_PATTERN;
  CHECK(matchblas_ops_argmax_device(&a, nullptr, nullptr, nullptr, nullptr, &best, &best_w, nullptr, &st) ==
        MATCHBLAS_ERR_BAD_FORMAT);
  int v = 1;
  CHECK(matchblas_ops_assign_device(&v, MATCHBLAS_OPS_INT32, 1, nullptr, nullptr, &v, 0, nullptr, &st) ==
        MATCHBLAS_ERR_UNAVAILABLE);
  a.value_type = MATCHBLAS_DOUBLE;
  matchblas_device_csr out{};
  std::int32_t mate = -1;
  CHECK(matchblas_ops_select_free_device(&a, &mate, &out, nullptr, &st) == MATCHBLAS_ERR_UNAVAILABLE);
  CHECK(out.offsets == nullptr);
  matchblas_device_csr_free(&out);  // an empty result: nothing to free
}
