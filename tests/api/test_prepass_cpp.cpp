// The pre-pass's C++ interface (include/matchblas/prepass.hpp): every job
// (and automatic) on seeded random matrices (square nonsingular, singular,
// rectangular, empty; ties, explicit zeros, magnitudes over 2^-10..2^10)
// given as CSR and CSC, 0- and 1-based, int32 and int64 indices, float,
// double and complex values: the result is the internal pre-pass's
// (matchers/bipartite/prepass.hpp) on the same moduli, array for array; perm
// is a permutation extending the matching; job 5's scaled values have
// modulus 1 on the matching and at most 1 elsewhere (1e-12 relative); the
// pattern input, the symmetric mode, +1 reported not thrown, and every
// invalid input thrown as prepass_error with the C interface's status.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "matchblas/prepass.hpp"
#include "matchers/bipartite/prepass.hpp"
#include "ops/gpu/device.hpp"

namespace api = matchblas::api;
using matchblas::Csr;
using matchblas::offset_t;
using matchblas::vertex_t;

namespace {

struct Entry {
  vertex_t i, j;
  double x;  // signed; its modulus is what the pre-pass reads
};

// A seeded random m x n matrix, entries sorted by (row, column): each (i, j)
// present with probability `density`, values sign * k * 2^e (k in 1..4 for
// ties, e in -10..10; exact in float), a share of explicit zeros; with
// `transversal` a random permutation's entries are added (square: then
// structurally nonsingular).
std::vector<Entry> random_entries(vertex_t m, vertex_t n, double density, bool zeros, bool transversal,
                                  std::mt19937_64& rng) {
  std::vector<std::vector<bool>> present(static_cast<std::size_t>(m), std::vector<bool>(static_cast<std::size_t>(n)));
  std::bernoulli_distribution keep(density);
  for (auto& row : present)
    for (std::size_t j = 0; j < row.size(); ++j) row[j] = keep(rng);
  if (transversal && m > 0 && n > 0) {
    std::vector<vertex_t> p(std::size_t(std::max(m, n)));
    for (std::size_t k = 0; k < p.size(); ++k) p[k] = vertex_t(k);
    std::shuffle(p.begin(), p.end(), rng);
    for (vertex_t i = 0; i < m; ++i)
      if (p[i] < n) present[i][p[i]] = true;
  }
  std::uniform_int_distribution<int> k(1, 4), e(-10, 10), zero(0, 9);
  std::vector<Entry> out;
  for (vertex_t i = 0; i < m; ++i)
    for (vertex_t j = 0; j < n; ++j)
      if (present[i][j])
        out.push_back({i, j, zeros && zero(rng) == 0 ? 0.0 : (rng() & 1 ? -1.0 : 1.0) * std::ldexp(k(rng), e(rng))});
  return out;
}

// The internal pre-pass's input: the moduli, row by row.
Csr<double> moduli(vertex_t m, vertex_t n, const std::vector<Entry>& entries) {
  Csr<double> a;
  a.n_rows = m;
  a.n_cols = n;
  a.offsets.assign(std::size_t(m) + 1, 0);
  for (const Entry& t : entries) {
    ++a.offsets[std::size_t(t.i) + 1];
    a.cols.push_back(t.j);
    a.weights.push_back(std::fabs(t.x));
  }
  for (std::size_t i = 0; i < std::size_t(m); ++i) a.offsets[i + 1] += a.offsets[i];
  return a;
}

template <class Value>
Value make_value(double x, std::size_t k) {
  if constexpr (std::is_same_v<Value, std::complex<double>> || std::is_same_v<Value, std::complex<float>>) {
    using R = typename Value::value_type;
    return k % 2 ? Value(R(0), R(x)) : Value(R(x), R(0));  // modulus |x| exactly, real or imaginary by turns
  } else {
    return Value(x);
  }
}

// The matrix in one storage: arrays owned here, viewed by view().
template <class Index, class Value>
struct Stored {
  std::int64_t rows, cols;
  api::Layout layout;
  int base;
  std::vector<Index> pointers, indices;
  std::vector<Value> values;

  Stored(vertex_t m, vertex_t n, const std::vector<Entry>& entries, api::Layout lay, int b)
      : rows(m), cols(n), layout(lay), base(b) {
    const bool csr = lay == api::Layout::csr;
    const std::size_t outer = std::size_t(csr ? m : n);
    std::vector<std::vector<std::size_t>> by_outer(outer);
    for (std::size_t k = 0; k < entries.size(); ++k) by_outer[std::size_t(csr ? entries[k].i : entries[k].j)].push_back(k);
    pointers.push_back(Index(b));
    for (const auto& list : by_outer) {
      for (std::size_t k : list) {
        indices.push_back(Index((csr ? entries[k].j : entries[k].i) + b));
        values.push_back(make_value<Value>(entries[k].x, values.size()));
      }
      pointers.push_back(Index(indices.size() + std::size_t(b)));
    }
  }
  api::SparseView<Index, Value> view() const { return {rows, cols, layout, base, pointers, indices, values}; }
};

// perm is a permutation that extends the matching.
void require_permutation(const api::Result& r, std::int64_t n) {
  REQUIRE(r.perm.size() == std::size_t(n));
  std::vector<bool> seen(std::size_t(n), false);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t p = r.perm[std::size_t(i)];
    REQUIRE(p >= 0);
    REQUIRE(p < n);
    REQUIRE_FALSE(seen[std::size_t(p)]);
    seen[std::size_t(p)] = true;
    if (r.row_mate[std::size_t(i)] >= 0) CHECK(p == r.row_mate[std::size_t(i)]);
  }
}

// |b_ij| <= 1 everywhere, = 1 on the matching (1e-12 relative).
template <class Index, class Value>
void require_scaled_bounds(const Stored<Index, Value>& s, const api::Result& r) {
  const std::vector<Value> b = api::scaled_values(s.view(), r);
  const bool csr = s.layout == api::Layout::csr;
  const double tol = std::is_same_v<Value, float> || std::is_same_v<Value, std::complex<float>> ? 1e-6 : 1e-12;
  for (std::size_t o = 0; o + 1 < s.pointers.size(); ++o)
    for (auto k = std::size_t(s.pointers[o] - s.base); k < std::size_t(s.pointers[o + 1] - s.base); ++k) {
      const std::int64_t inner = std::int64_t(s.indices[k]) - s.base;
      const std::int64_t i = csr ? std::int64_t(o) : inner, j = csr ? inner : std::int64_t(o);
      const double mod = std::abs(b[k]);
      CHECK(mod <= 1 + tol);
      if (r.row_mate[std::size_t(i)] == j && std::abs(s.values[k]) != 0) CHECK(mod == doctest::Approx(1).epsilon(tol));
    }
}

template <class Index, class Value>
void check_all_jobs(vertex_t m, vertex_t n, const std::vector<Entry>& entries) {
  const Csr<double> a = moduli(m, n, entries);
  for (api::Layout layout : {api::Layout::csr, api::Layout::csc})
    for (int base : {0, 1}) {
      const Stored<Index, Value> s(m, n, entries, layout, base);
      for (int job = -1; job <= 5; ++job) {
        CAPTURE(job);
        CAPTURE(base);
        CAPTURE(int(layout));
        const api::Result r = api::prepass(s.view(), {.job = api::Job(job)});
        const matchblas::PrepassResult want = matchblas::prepass(a, {.job = job < 0 ? 5 : job});
        CHECK(int(r.inform.job) == want.job);
        CHECK(r.inform.matched == want.mates.matched);
        CHECK(r.inform.status == (want.scaling_near_overflow ? 2 : want.singular ? 1 : 0));
        CHECK(r.structurally_singular() == (want.singular && !want.scaling_near_overflow));
        CHECK(r.inform.objective == want.objective);
        CHECK(r.inform.min_matched_abs == want.min_matched_abs);
        REQUIRE(r.row_mate.size() == std::size_t(m));
        REQUIRE(r.col_mate.size() == std::size_t(n));
        CHECK(std::equal(r.row_mate.begin(), r.row_mate.end(), want.mates.row_mate.begin()));
        CHECK(std::equal(r.col_mate.begin(), r.col_mate.end(), want.mates.col_mate.begin()));
        if (m == n) {
          require_permutation(r, n);
          CHECK(std::equal(r.perm.begin(), r.perm.end(), want.perm.begin()));
        } else {
          CHECK(r.perm.empty());
        }
        if (want.job == 5) {
          CHECK(r.row_log_scale == want.row_log_scale);
          CHECK(r.col_log_scale == want.col_log_scale);
          require_scaled_bounds(s, r);
        } else {
          CHECK(r.row_log_scale.empty());
          CHECK(r.col_log_scale.empty());
          CHECK_THROWS_AS(api::scaled_values(s.view(), r), api::prepass_error);
        }
      }
    }
}

template <class Index, class Value>
void check_random(std::uint64_t seed) {
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> size(0, 9);
  const vertex_t m = size(rng), n = rng() % 3 ? m : vertex_t(size(rng));  // mostly square
  const bool transversal = rng() % 4 != 0;                                   // else often singular
  const double density = 0.1 + 0.4 * std::uniform_real_distribution<double>()(rng);
  CAPTURE(m);
  CAPTURE(n);
  check_all_jobs<Index, Value>(m, n, random_entries(m, n, density, rng() % 2 == 0, transversal, rng));
}

}  // namespace

TEST_CASE("C++ pre-pass: every job and storage equals the internal pre-pass, double and int32") {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) check_random<std::int32_t, double>(seed);
}

TEST_CASE("C++ pre-pass: int64 indices, float and complex values") {
  for (std::uint64_t seed = 101; seed <= 120; ++seed) {
    check_random<std::int64_t, double>(seed);
    check_random<std::int32_t, float>(seed);
    check_random<std::int64_t, std::complex<double>>(seed);
    check_random<std::int32_t, std::complex<float>>(seed);
  }
}

TEST_CASE("C++ pre-pass: a structurally singular matrix is reported (+1), not thrown") {
  // Column 2 is empty: 2 of 3 matched.
  const std::vector<int> ptr{0, 2, 3, 4}, idx{0, 1, 0, 1};
  const std::vector<double> val{1, 2, 3, 4};
  api::Result r;
  REQUIRE_NOTHROW(r = api::prepass(api::csr(3, 3, ptr, idx, val)));
  CHECK(r.inform.status == MATCHBLAS_STRUCTURALLY_SINGULAR);
  CHECK(r.structurally_singular());
  CHECK(r.inform.matched == 2);
  CHECK(r.col_mate[2] == -1);
  require_permutation(r, 3);
  for (int i = 0; i < 3; ++i)
    if (r.row_mate[std::size_t(i)] < 0) CHECK(r.perm[std::size_t(i)] == 2);  // the unmatched row takes the unmatched column
}

TEST_CASE("C++ pre-pass: a pattern runs job 1 by default, as the internal pre-pass on ones") {
  std::mt19937_64 rng(7);
  for (int t = 0; t < 20; ++t) {
    CAPTURE(t);
    const vertex_t m = vertex_t(rng() % 8), n = vertex_t(rng() % 8);
    const std::vector<Entry> entries = random_entries(m, n, 0.3, false, true, rng);
    Csr<double> a = moduli(m, n, entries);
    std::fill(a.weights.begin(), a.weights.end(), 1.0);
    const Stored<std::int32_t, double> s(m, n, entries, api::Layout::csc, 0);
    const api::SparseView<std::int32_t, api::Pattern> v{m, n, api::Layout::csc, 0, s.pointers, s.indices, {}};
    const api::Result r = api::prepass(v);
    const matchblas::PrepassResult want = matchblas::prepass(a, {.job = 1});
    CHECK(r.inform.job == api::Job::cardinality);
    CHECK(r.inform.matched == want.mates.matched);
    CHECK(std::equal(r.row_mate.begin(), r.row_mate.end(), want.mates.row_mate.begin()));
    CHECK(r.row_log_scale.empty());
  }
}

TEST_CASE("C++ pre-pass: the symmetric mode takes one triangle and gives one scaling") {
  std::mt19937_64 rng(11);
  for (int t = 0; t < 20; ++t) {
    CAPTURE(t);
    const vertex_t n = vertex_t(1 + rng() % 9);
    std::vector<Entry> lower;  // the lower triangle of a symmetric matrix
    for (const Entry& e : random_entries(n, n, 0.4, false, true, rng))
      if (e.j <= e.i) lower.push_back(e);
    for (vertex_t i = 0; i < n; ++i)  // a full diagonal keeps it nonsingular
      if (std::none_of(lower.begin(), lower.end(), [&](const Entry& e) { return e.i == i && e.j == i; }))
        lower.push_back({i, i, std::ldexp(1.0, int(rng() % 9) - 4)});
    std::sort(lower.begin(), lower.end(), [](const Entry& x, const Entry& y) { return x.i != y.i ? x.i < y.i : x.j < y.j; });
    std::vector<Entry> full = lower;
    for (const Entry& e : lower)
      if (e.i != e.j) full.push_back({e.j, e.i, e.x});
    std::sort(full.begin(), full.end(), [](const Entry& x, const Entry& y) { return x.i != y.i ? x.i < y.i : x.j < y.j; });
    const Stored<std::int64_t, double> s(n, n, lower, api::Layout::csr, 0);
    const api::Result r = api::prepass(s.view(), {.job = api::Job::max_product, .symmetric = true});
    const matchblas::PrepassResult want = matchblas::prepass(moduli(n, n, full), {.job = 5, .symmetric = true});
    CHECK(r.inform.matched == want.mates.matched);
    CHECK(r.row_log_scale == r.col_log_scale);
    CHECK(r.row_log_scale == want.row_log_scale);
    // The scaled full matrix keeps the bounds with the one scaling.
    const Stored<std::int64_t, double> f(n, n, full, api::Layout::csr, 0);
    const std::vector<double> b = api::scaled_values(f.view(), r);
    for (double x : b) CHECK(std::fabs(x) <= 1 + 1e-12);
  }
}

TEST_CASE("C++ pre-pass: invalid input throws prepass_error with the C interface's status") {
  const std::vector<int> ptr{0, 2, 3, 4}, idx{0, 1, 1, 2};
  const std::vector<double> val{1, 2, 3, 4};
  auto status_of = [](auto&& call) {
    try {
      call();
    } catch (const api::prepass_error& e) {
      CHECK(std::string(e.what()).find(matchblas_status_string(e.status())) == 0);
      return e.status();
    }
    return 0;
  };
  CHECK(status_of([&] { api::prepass(api::csr(3, 3, ptr, idx, val)); }) == 0);
  CHECK(status_of([&] { api::prepass(api::csr(3, 3, ptr, idx, val), {.job = api::Job(6)}); }) == MATCHBLAS_ERR_BAD_JOB);
  CHECK(status_of([&] { api::prepass(api::csr(3, 3, ptr, idx, val), {.job = api::Job::max_sum, .symmetric = true}); }) ==
        MATCHBLAS_ERR_BAD_JOB);
  CHECK(status_of([&] { api::prepass(api::csr(-1, 3, ptr, idx, val)); }) == MATCHBLAS_ERR_BAD_DIMENSION);
  CHECK(status_of([&] { api::prepass(api::csr(3, 3, ptr, idx, val, 2)); }) == MATCHBLAS_ERR_BAD_FORMAT);
  CHECK(status_of([&] { api::prepass(api::csr(2, 3, ptr, idx, val)); }) == MATCHBLAS_ERR_BAD_POINTERS);  // 4 offsets for 2 rows
  const std::vector<int> decreasing{0, 3, 2, 4};
  CHECK(status_of([&] { api::prepass(api::csr(3, 3, decreasing, idx, val)); }) == MATCHBLAS_ERR_BAD_POINTERS);
  const std::vector<int> too_long{0, 2, 3, 5};
  CHECK(status_of([&] { api::prepass(api::csr(3, 3, too_long, idx, val)); }) == MATCHBLAS_ERR_BAD_POINTERS);
  const std::vector<int> out_of_range{0, 1, 3, 3};
  CHECK(status_of([&] { api::prepass(api::csr(3, 3, ptr, out_of_range, val)); }) == MATCHBLAS_ERR_INDEX_OUT_OF_RANGE);
  const std::vector<int> duplicate{0, 0, 1, 2};
  CHECK(status_of([&] { api::prepass(api::csr(3, 3, ptr, duplicate, val)); }) == MATCHBLAS_ERR_DUPLICATE_ENTRY);
  const std::vector<double> nan{1, std::nan(""), 3, 4};
  CHECK(status_of([&] { api::prepass(api::csr(3, 3, ptr, idx, nan)); }) == MATCHBLAS_ERR_BAD_VALUE);
  const std::vector<double> inf{1, 2, std::numeric_limits<double>::infinity(), 4};
  CHECK(status_of([&] { api::prepass(api::csc(3, 3, ptr, idx, inf)); }) == MATCHBLAS_ERR_BAD_VALUE);
  const std::vector<std::int64_t> ptr4{0, 2, 4}, idx4{0, 1, 0, 1};
  CHECK(status_of([&] { api::prepass(api::csr(2, 3, ptr4, idx4, val), {.job = api::Job::max_product, .symmetric = true}); }) ==
        MATCHBLAS_ERR_NOT_SYMMETRIC);
  const api::Result r = api::prepass(api::csr(3, 3, ptr, idx, val));
  const std::vector<double> short_scale(2, 0.0);
  CHECK(status_of([&] { api::scaled_values(api::csr(3, 3, ptr, idx, val), short_scale, r.col_log_scale); }) ==
        MATCHBLAS_ERR_BAD_DIMENSION);
}

TEST_CASE("C++ pre-pass on device arrays without a GPU: MATCHBLAS_ERR_UNAVAILABLE, the arrays not read") {
  if (matchblas::gpu::device_count() > 0) {
    MESSAGE("this machine has a GPU: tests/gpu/test_prepass_device checks the device entry");
    return;
  }
  // Pointers no device holds: a call that read them would crash or fail otherwise.
  const std::vector<std::int64_t> ptr{0, 1, 2}, idx{0, 1};
  const std::vector<double> val{1.0, 2.0};
  namespace mb = matchblas::api;
  try {
    (void)mb::prepass_device(mb::csr(2, 2, ptr, idx, val));
    FAIL("no error without a GPU");
  } catch (const mb::error& e) {
    CHECK(e.status() == MATCHBLAS_ERR_UNAVAILABLE);
    CHECK(std::string(e.what()).find("GPU") != std::string::npos);
  }
  // The description's own errors come first.
  try {
    (void)mb::prepass_device(mb::csr(-1, 2, ptr, idx, val));
    FAIL("no error for a negative dimension");
  } catch (const mb::error& e) {
    CHECK(e.status() == MATCHBLAS_ERR_BAD_DIMENSION);
  }
}
