// The diagonal pre-pass (matchers/bipartite/prepass.hpp), jobs 0-5:
// every result validated (pairs are entries, no row or column twice, the
// permutation a permutation extending the matching); the count equal to
// the maximum cardinality; jobs 4 and 5 equal to a dense Hungarian
// reference written here independently (with a large cost for missing
// entries, so that it maximises the cardinality first, as the pre-pass
// does), on random matrices with ties, explicit zeros, empty rows and
// columns, square, rectangular and singular; job 2 equal to a brute-force
// threshold search; job 5's scalings within the bounds; the symmetric
// mode; and every shared matrix (count = structural rank from MANIFEST.tsv,
// scalings within the bounds, the two MC64 reference outputs compared).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "lib/error.hpp"
#include "lib/graph_from_matrix.hpp"
#include "lib/mmio.hpp"
#include "lib/omp_threads.hpp"
#include "matchers/bipartite/prepass.hpp"
#include "matchers/bipartite/shortest_augmenting.hpp"
#include "tests/check/bipartite_reference.hpp"
#include "tests/check/check.hpp"
#include "tests/check/shared_collection.hpp"

using namespace matchblas;

namespace {

// Values drawn from {0, 1, ..., levels} (0 an explicit zero), so ties abound.
Csr<double> random_integer_matrix(vertex_t m, vertex_t n, double density, int levels, bool zeros, std::mt19937& rng) {
  Csr<double> a;
  a.n_rows = m;
  a.n_cols = n;
  std::bernoulli_distribution keep(density);
  std::uniform_int_distribution<int> value(zeros ? 0 : 1, levels);
  for (vertex_t i = 0; i < m; ++i) {
    for (vertex_t j = 0; j < n; ++j)
      if (keep(rng)) {
        a.cols.push_back(j);
        a.weights.push_back((rng() & 1 ? 1.0 : -1.0) * value(rng));
      }
    a.offsets.push_back(static_cast<offset_t>(a.cols.size()));
  }
  return a;
}

void validate(const Csr<double>& a, const PrepassResult& r) {
  check::require_valid_mates(a, r.mates);
  if (a.n_rows == a.n_cols) {
    REQUIRE(r.perm.size() == std::size_t(a.n_rows));
    std::vector<char> seen(a.n_cols, 0);
    for (vertex_t i = 0; i < a.n_rows; ++i) {
      REQUIRE(r.perm[i] >= 0);
      REQUIRE(r.perm[i] < a.n_cols);
      REQUIRE(!seen[r.perm[i]]);
      seen[r.perm[i]] = 1;
      if (r.mates.row_mate[i] >= 0) REQUIRE(r.perm[i] == r.mates.row_mate[i]);
    }
  } else {
    REQUIRE(r.perm.empty());
  }
}

// Job 5's bounds: |a_ij| exp(r_i + c_j) <= 1 everywhere, = 1 on the matching
// (relative tolerance tol), unless an explicit zero had to be matched.
void require_scaling_bounds(const Csr<double>& a, const PrepassResult& r, double tol) {
  REQUIRE(r.row_log_scale.size() == std::size_t(a.n_rows));
  REQUIRE(r.col_log_scale.size() == std::size_t(a.n_cols));
  const Csr<double> b = apply_log_scaling(a, r.row_log_scale, r.col_log_scale);
  double largest = 0;
  for (vertex_t i = 0; i < a.n_rows; ++i)
    for (offset_t k = b.offsets[i]; k < b.offsets[i + 1]; ++k) {
      const double x = std::fabs(b.weights[k]);
      largest = std::max(largest, x);
      INFO("row " << i << " col " << b.cols[k] << " |b| = " << x);
      REQUIRE(x <= 1 + tol);
      if (b.cols[k] == r.mates.row_mate[i] && a.weights[k] != 0) REQUIRE(std::fabs(x - 1) <= tol);
    }
}

}  // namespace

TEST_CASE("prepass: jobs 4 and 5 equal a dense Hungarian reference, with ties, zeros, any shape and rank") {
  std::mt19937 rng(2026);
  int singular = 0, rectangular = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const vertex_t m = static_cast<vertex_t>(rng() % 9), n = static_cast<vertex_t>(rng() % 9);
    const double density = 0.1 + (rng() % 8) / 10.0;
    const bool zeros = trial % 3 == 0;
    const Csr<double> a = random_integer_matrix(m, n, density, 1 + trial % 5, zeros, rng);
    const vertex_t rank = check::bipartite_rank(a);
    singular += rank < std::min(m, n);
    rectangular += m != n;
    for (int job : {1, 2, 3, 4, 5}) {
      INFO("trial " << trial << " job " << job << " " << m << " x " << n);
      const PrepassResult r = prepass(a, {.job = job});
      validate(a, r);
      CHECK(r.mates.matched == rank);
      CHECK(r.singular == (rank < std::min(m, n)));
      if (job == 4 || job == 5) {
        const auto [count, objective] = check::best_bipartite(a, job);
        CHECK(count == rank);
        if (job == 4) CHECK(r.objective == objective);  // integers: exact
        if (job == 5 && std::isfinite(objective)) CHECK(r.objective == doctest::Approx(objective).epsilon(1e-12));
        if (job == 5 && !std::isfinite(objective)) CHECK(r.objective == -std::numeric_limits<double>::infinity());
        const PrepassResult jacobi = prepass(a, {.job = job, .bids = PrepassOptions::Bids::jacobi});
        validate(a, jacobi);
        CHECK(jacobi.mates.matched == rank);
        if (job == 4) CHECK(jacobi.objective == objective);
        if (job == 5 && std::isfinite(r.objective)) CHECK(jacobi.objective == doctest::Approx(r.objective).epsilon(1e-12));
        if (job == 5 && !std::isfinite(r.objective)) CHECK(jacobi.objective == r.objective);  // -inf: a zero matched
        if (job == 5) require_scaling_bounds(a, jacobi, 1e-12);
      }
      if (job == 5) require_scaling_bounds(a, r, 1e-12);
      if ((job == 2 || job == 3) && rank > 0) {
        const double best = check::bottleneck_value(a);
        CHECK(r.min_matched_abs == best);
        CHECK(r.objective == best);
      }
    }
  }
  CHECK(singular > 50);
  CHECK(rectangular > 300);
}

TEST_CASE("prepass: Jacobi bids on threads: the sequential bids' optimum, the same result at 1, 2 and 3 threads") {
  // Over 2^16 entries and 4096 rows, so that the auction's phase starts and
  // its first Jacobi rounds (512 bids or more) run on the threads; values
  // from 12 levels: many optimal matchings, so a result that depended on
  // the threads would show.
  std::mt19937 rng(4242);
  const Csr<double> a = random_integer_matrix(6000, 6000, 0.003, 12, false, rng);
  REQUIRE(a.num_entries() > (1 << 16));
  for (int job : {4, 5}) {
    INFO("job " << job);
    const PrepassResult sequential = prepass(a, {.job = job, .bids = PrepassOptions::Bids::sequential});
    std::vector<PrepassResult> runs;
    for (int threads : {1, 2, 3}) {
      const ScopedThreads scope(threads);
      runs.push_back(prepass(a, {.job = job, .bids = PrepassOptions::Bids::jacobi}));
      validate(a, runs.back());
      CHECK(runs.back().mates.matched == sequential.mates.matched);
      if (job == 4) CHECK(runs.back().objective == sequential.objective);  // integers: exact
      if (job == 5) CHECK(runs.back().objective == doctest::Approx(sequential.objective).epsilon(1e-12));
      if (job == 5) require_scaling_bounds(a, runs.back(), 1e-12);
    }
    // Many matchings are optimal here: the Jacobi rounds find another one
    // than one thread's order (so the option reached the auction).
    CHECK(runs[0].mates.row_mate != sequential.mates.row_mate);
    for (std::size_t t = 1; t < runs.size(); ++t) {
      CHECK(runs[t].mates.row_mate == runs[0].mates.row_mate);
      CHECK(runs[t].perm == runs[0].perm);
      CHECK(runs[t].row_log_scale == runs[0].row_log_scale);
      CHECK(runs[t].col_log_scale == runs[0].col_log_scale);
    }
    // The default: the rounds, on any count.
    for (int threads : {1, 2}) {
      const ScopedThreads scope(threads);
      CHECK(prepass(a, {.job = job}).mates.row_mate == runs[0].mates.row_mate);
    }
  }
}

TEST_CASE("prepass: explicit zeros and values over 300 decades: both bids' optimum, the scalings' bounds") {
  // Job 5's stand-in cost of explicit zeros puts duals far above the
  // scalings (see canonical_duals); 300 decades of values put the logs near
  // 345. The bounds hold to 1e-12 of the largest |log scale| (the GPU
  // test's rule), and the Jacobi and the sequential bids reach the same
  // objective.
  std::mt19937 rng(345);
  std::uniform_real_distribution<double> unit(0, 1);
  int finite = 0;
  for (int trial = 0; trial < 30; ++trial) {
    const vertex_t n = 40 + vertex_t(rng() % 1500);
    CAPTURE(trial);
    CAPTURE(n);
    Csr<double> a = random_integer_matrix(n, n, std::min(1.0, (3.0 + trial % 8) / double(n)), 1, false, rng);
    Csr<double> with = check::with_diagonal(a, [](vertex_t) { return 1.0; });  // structurally nonsingular
    for (double& w : with.weights) {
      const double x = unit(rng);
      w = x < 0.15 ? 0.0 : std::copysign(std::pow(10.0, -150 + 300 * unit(rng)), x - 0.5);
    }
    for (int job : {4, 5}) {
      CAPTURE(job);
      const PrepassResult jacobi = prepass(with, {.job = job});
      const PrepassResult sequential = prepass(with, {.job = job, .bids = PrepassOptions::Bids::sequential});
      validate(with, jacobi);
      CHECK(jacobi.mates.matched == n);
      if (std::isfinite(sequential.objective)) CHECK(jacobi.objective == doctest::Approx(sequential.objective).epsilon(1e-12));
      else CHECK(jacobi.objective == sequential.objective);  // -inf: a zero had to be matched
      finite += job == 5 && std::isfinite(jacobi.objective);
      if (job == 5) {
        double largest = 1;
        for (double x : jacobi.row_log_scale) largest = std::max(largest, std::fabs(x));
        for (double x : jacobi.col_log_scale) largest = std::max(largest, std::fabs(x));
        require_scaling_bounds(with, jacobi, 1e-12 * largest);
      }
    }
  }
  CHECK(finite >= 5);  // both kinds: some need a zero, most do not
}

TEST_CASE("prepass: the symmetric mode takes |A| symmetric as a multiset (duplicates in any order, signs free)") {
  Csr<double> a;
  a.n_rows = a.n_cols = 2;
  a.offsets = {0, 3, 6};
  a.cols = {0, 1, 1, 0, 0, 1};
  a.weights = {5, 2, -3, 3, -2, 5};  // (0, 1) twice, mirrored in the other order and sign
  const PrepassResult r = prepass(a, {.job = 5, .symmetric = true});
  CHECK(r.mates.matched == 2);
  CHECK(r.row_log_scale == r.col_log_scale);
  for (const double changed : {2.5, 4.0}) {  // one side's duplicate differs: refused
    Csr<double> b = a;
    b.weights[4] = changed;
    CHECK_THROWS_WITH_AS(prepass(b, {.job = 5, .symmetric = true}), doctest::Contains("not symmetric"),
                         invalid_input);
  }
  Csr<double> c = a;  // a duplicate on one side only
  c.offsets = {0, 3, 5};
  c.cols = {0, 1, 1, 0, 1};
  c.weights = {5, 2, 3, 3, 5};
  CHECK_THROWS_AS(prepass(c, {.job = 5, .symmetric = true}), invalid_input);
}

TEST_CASE("prepass: job 4 near DBL_MAX: the matching of the same matrix scaled down, the sums overflowing") {
  // The matched sum overflows (objective inf), and without care so did the
  // distances and the auction's prices (a matching 0.1% lighter came back):
  // the matching must be the heaviest of the matrix scaled by a power of two.
  std::mt19937 rng(1234);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    const vertex_t m = 1 + static_cast<vertex_t>(rng() % 14), n = trial % 4 == 0 ? 1 + static_cast<vertex_t>(rng() % 14) : m;
    Csr<double> small = random_integer_matrix(m, n, 0.2 + (rng() % 6) / 10.0, 1, false, rng);
    for (double& w : small.weights) w *= unit(rng) * 1.7;  // reals below 1.7, ties few
    Csr<double> huge = small;
    for (double& w : huge.weights) w = std::ldexp(w, 1023);
    for (auto start : {PrepassOptions::Start::auction, PrepassOptions::Start::mc64}) {
      INFO("trial " << trial << " " << m << " x " << n << " start " << int(start));
      const PrepassResult r = prepass(huge, {.job = 4, .start = start});
      validate(huge, r);
      const auto [count, objective] = check::best_bipartite(small, 4);
      CHECK(r.mates.matched == count);
      CHECK(prepass_result(small, 4, r.mates).objective == doctest::Approx(objective).epsilon(1e-12));
      const double expected = std::ldexp(objective, 1023);
      if (std::isinf(expected)) CHECK(r.objective == expected);  // the sum overflows
      else CHECK(r.objective == doctest::Approx(expected).epsilon(1e-12));
    }
  }
}

TEST_CASE("prepass: larger random matrices, job 5 against the reference; duals feasible") {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> value(1e-3, 1e3);
  for (int trial = 0; trial < 40; ++trial) {
    const vertex_t m = 20 + static_cast<vertex_t>(rng() % 40), n = m + static_cast<vertex_t>(rng() % 3) - 1;
    Csr<double> a;
    a.n_rows = m;
    a.n_cols = n;
    std::bernoulli_distribution keep(0.05 + (rng() % 10) / 50.0);
    for (vertex_t i = 0; i < m; ++i) {
      for (vertex_t j = 0; j < n; ++j)
        if (keep(rng) || (trial % 2 == 0 && i == j)) {
          a.cols.push_back(j);
          a.weights.push_back(value(rng) * value(rng));
        }
      a.offsets.push_back(static_cast<offset_t>(a.cols.size()));
    }
    for (int job : {4, 5}) {
      const PrepassResult r = prepass(a, {.job = job});
      validate(a, r);
      const auto [count, objective] = check::best_bipartite(a, job);
      CHECK(r.mates.matched == count);
      CHECK(r.objective == doctest::Approx(objective).epsilon(1e-10));
      if (job == 5) require_scaling_bounds(a, r, 1e-12);
    }
  }
}

TEST_CASE("prepass: job 5 matching explicit zeros: scalings of the nonzero pairs, within the bounds to 1e-12") {
  // Rows whose only entry is an explicit zero force zeros into the
  // matching. The scalings once came from duals carrying the zeros' cost
  // (about n times the range of the logs): |log scale| near 4500 at
  // n = 300 and |b_ij| up to 1 + 4e-12 (1 + 1.5e-10 at n = 2000).
  std::mt19937 rng(31);
  std::uniform_real_distribution<double> exponent(-3, 3);
  for (int trial = 0; trial < 6; ++trial) {
    const vertex_t m = 300 + 20 * trial, n = trial % 3 == 0 ? m : trial % 3 == 1 ? m + 15 : m - 15;
    Csr<double> a;
    a.n_rows = m;
    a.n_cols = n;
    for (vertex_t i = 0; i < m; ++i) {
      std::vector<std::pair<vertex_t, double>> row;
      if (i < 10) {
        row.push_back({i, 0.0});
      } else {
        if (i < n) row.push_back({i, std::pow(10.0, exponent(rng))});
        for (int e = 0; e < 3; ++e)
          row.push_back({vertex_t(rng() % n), rng() % 5 == 0 ? 0.0 : -std::pow(10.0, exponent(rng))});
      }
      std::sort(row.begin(), row.end(), [](auto x, auto y) { return x.first < y.first; });
      for (std::size_t t = 0; t < row.size(); ++t)
        if (t == 0 || row[t].first != row[t - 1].first) {
          a.cols.push_back(row[t].first);
          a.weights.push_back(row[t].second);
        }
      a.offsets.push_back(static_cast<offset_t>(a.cols.size()));
    }
    INFO("trial " << trial << " " << m << " x " << n);
    const PrepassResult r = prepass(a, {.job = 5});
    validate(a, r);
    CHECK(r.mates.matched == check::bipartite_rank(a));
    CHECK(r.objective == -std::numeric_limits<double>::infinity());  // zeros matched
    require_scaling_bounds(a, r, 1e-12);
    CHECK(!r.scaling_near_overflow);
    double largest = 0;
    for (double x : r.row_log_scale) largest = std::max(largest, std::fabs(x));
    for (double x : r.col_log_scale) largest = std::max(largest, std::fabs(x));
    CHECK(largest < 500);  // tens here; thousands from the zeros' cost
  }
}

TEST_CASE("prepass: the symmetric mode matching zeros on the diagonal: small scalings within the bounds") {
  // Explicit zeros on the diagonal of rows 0-9, whose other entries lie in
  // columns 10-14: some zeros are matched. The scalings grew with n (flagged
  // near overflow); from the nonzero pairs they are single digits.
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> exponent(-3, 3);
  for (vertex_t n : {300, 500}) {
    std::vector<std::tuple<vertex_t, vertex_t, double>> lower;
    for (vertex_t i = 0; i < 10; ++i) lower.emplace_back(i, i, 0.0);
    for (vertex_t i = 10; i < n; ++i) {
      lower.emplace_back(i, i, std::pow(10.0, exponent(rng)));
      for (int e = 0; e < 2; ++e)
        lower.emplace_back(i, 10 + vertex_t(rng() % std::uint32_t(i - 9)), rng() % 3 == 0 ? 0.0 : std::pow(10.0, exponent(rng)));
      if (i < 15)  // rows 0-9 reach only columns 10-14 besides their zero: five zeros matched at least
        for (vertex_t j = 0; j < 10; ++j) lower.emplace_back(i, j, std::pow(10.0, exponent(rng)));
    }
    std::vector<std::vector<std::pair<vertex_t, double>>> rows(n);
    for (auto [i, j, x] : lower) {
      rows[i].push_back({j, x});
      if (i != j) rows[j].push_back({i, x});
    }
    Csr<double> a;
    a.n_rows = a.n_cols = n;
    for (auto& row : rows) {
      std::sort(row.begin(), row.end(), [](auto x, auto y) { return x.first < y.first; });
      for (std::size_t t = 0; t < row.size(); ++t)
        if (t == 0 || row[t].first != row[t - 1].first) {  // a repeated pair: its first value, both ways
          a.cols.push_back(row[t].first);
          a.weights.push_back(row[t].second);
        }
      a.offsets.push_back(static_cast<offset_t>(a.cols.size()));
    }
    INFO("n = " << n);
    const PrepassResult r = prepass(a, {.job = 5, .symmetric = true});
    validate(a, r);
    CHECK(r.objective == -std::numeric_limits<double>::infinity());  // zeros matched
    CHECK(r.row_log_scale == r.col_log_scale);
    require_scaling_bounds(a, r, 1e-12);
    CHECK(!r.scaling_near_overflow);
    double largest = 0;
    for (double x : r.row_log_scale) largest = std::max(largest, std::fabs(x));
    CHECK(largest < 100);
  }
}

TEST_CASE("prepass: min_cost_max_cardinality's duals are feasible and tight on every block") {
  std::mt19937 rng(77);
  for (int trial = 0; trial < 300; ++trial) {
    const vertex_t m = static_cast<vertex_t>(rng() % 12), n = static_cast<vertex_t>(rng() % 12);
    Csr<double> c = random_integer_matrix(m, n, 0.25, 7, true, rng);
    const DualMatching d = min_cost_max_cardinality(c);
    for (vertex_t i = 0; i < m; ++i)
      for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k) {
        const double rc = c.weights[k] - d.u[i] - d.v[c.cols[k]];
        CHECK(rc >= -1e-9);
        if (d.mates.row_mate[i] == c.cols[k]) CHECK(std::fabs(rc) <= 1e-9);
      }
  }
}

TEST_CASE("prepass: symmetric mode gives one scaling with both bounds") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> value(1e-4, 1e4);
  for (int trial = 0; trial < 60; ++trial) {
    const vertex_t n = 1 + static_cast<vertex_t>(rng() % 30);
    std::vector<std::vector<std::pair<vertex_t, double>>> rows(n);
    std::bernoulli_distribution keep(0.15);
    for (vertex_t i = 0; i < n; ++i)
      for (vertex_t j = 0; j <= i; ++j)
        if (keep(rng) || (i == j && trial % 2)) {
          const double x = value(rng) * (rng() & 1 ? 1 : -1);
          rows[i].push_back({j, x});
          if (i != j) rows[j].push_back({i, x});
        }
    Csr<double> a;
    a.n_rows = a.n_cols = n;
    for (auto& r : rows) {
      std::sort(r.begin(), r.end());
      for (auto [j, x] : r) {
        a.cols.push_back(j);
        a.weights.push_back(x);
      }
      a.offsets.push_back(static_cast<offset_t>(a.cols.size()));
    }
    const PrepassResult r = prepass(a, {.job = 5, .symmetric = true});
    validate(a, r);
    CHECK(r.row_log_scale == r.col_log_scale);
    require_scaling_bounds(a, r, 1e-12);
  }
}

TEST_CASE("prepass: bad input and bad options throw invalid_input") {
  Csr<double> a;
  a.n_rows = 2;
  a.n_cols = 2;
  a.offsets = {0, 1, 2};
  a.cols = {0, 1};
  a.weights = {1.0, std::nan("")};
  CHECK_THROWS_AS(prepass(a, {.job = 5}), invalid_input);
  a.weights = {1.0, 2.0};
  CHECK_THROWS_AS(prepass(a, {.job = 6}), invalid_input);
  CHECK_THROWS_AS(prepass(a, {.job = -1}), invalid_input);
  CHECK_THROWS_AS(prepass(a, {.job = 4, .symmetric = true}), invalid_input);
  CHECK_THROWS_AS(prepass(a, {.job = 4, .bids = PrepassOptions::Bids(7)}), invalid_input);
  a.cols = {1, 1};  // |A| not symmetric
  CHECK_THROWS_AS(prepass(a, {.job = 5, .symmetric = true}), invalid_input);
  a.cols = {0, 2};
  CHECK_THROWS_AS(prepass(a, {.job = 1}), invalid_input);
  a.cols = {0, 1};
  a.weights = {1.0};
  CHECK_THROWS_AS(prepass(a, {.job = 4}), invalid_input);
  // Job 0 is the identity.
  a.weights = {1.0, 2.0};
  const PrepassResult r = prepass(a, {.job = 0});
  CHECK(r.mates.matched == 0);
  CHECK(r.perm == std::vector<vertex_t>{0, 1});
}

// The checks and the report's passes run on the threads from 2^16 rows or
// entries: the error names the same first culprit, and the objective, the
// permutation and the scalings are the same bits, at any thread count.
TEST_CASE("prepass: the checks and the report on the threads: the first culprit, the same bits at 1 and 3 threads") {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> value(1, 9);
  const vertex_t n = 70000;  // rows and entries over 2^16
  Csr<double> a;  // the diagonal and two more entries a row, integer values with ties and both signs
  a.n_rows = a.n_cols = n;  // offsets start as {0}
  for (vertex_t i = 0; i < n; ++i) {
    std::vector<vertex_t> row{i, vertex_t((i * 7LL + 1) % n), vertex_t((i * 13LL + 5) % n)};
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    for (vertex_t j : row) {
      a.cols.push_back(j);
      a.weights.push_back((rng() & 1 ? 1.0 : -1.0) * value(rng));
    }
    a.offsets.push_back(offset_t(a.cols.size()));
  }
  const auto message = [](const Csr<double>& bad, int threads) {
    const ScopedThreads scope(threads);
    try {
      (void)prepass(bad, {.job = 5});
    } catch (const invalid_input& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  {  // two values that are not finite: the first is named
    Csr<double> bad = a;
    bad.weights[bad.offsets[n - 10]] = std::numeric_limits<double>::infinity();
    bad.weights[bad.offsets[n / 2]] = std::nan("");
    const std::string one = message(bad, 1);
    CHECK(one.find("the entry at row " + std::to_string(n / 2) + ",") != std::string::npos);
    CHECK(message(bad, 3) == one);
  }
  {  // two columns out of range: the first is named
    Csr<double> bad = a;
    bad.cols[std::size_t(bad.offsets[n - 3])] = n + 5;
    bad.cols[std::size_t(bad.offsets[n / 3])] = -2;
    const std::string one = message(bad, 1);
    CHECK(one.find("column index -2 out of range at entry " + std::to_string(bad.offsets[n / 3])) != std::string::npos);
    CHECK(message(bad, 3) == one);
  }
  {  // offsets that decrease at two rows: the first is named
    Csr<double> bad = a;
    std::swap(bad.offsets[n / 4], bad.offsets[n / 4 + 1]);
    std::swap(bad.offsets[n - 7], bad.offsets[n - 6]);
    const std::string one = message(bad, 1);
    CHECK(one.find("offsets decrease at row " + std::to_string(n / 4)) != std::string::npos);
    CHECK(message(bad, 3) == one);
  }
  for (int job : {4, 5}) {
    CAPTURE(job);
    PrepassResult r1, r3;
    {
      const ScopedThreads scope(1);
      r1 = prepass(a, {.job = job});
    }
    {
      const ScopedThreads scope(3);
      r3 = prepass(a, {.job = job});
    }
    CHECK(r1.mates.matched == n);
    CHECK(r3.objective == r1.objective);  // bits: summed in row order either way
    CHECK(r3.perm == r1.perm);
    CHECK(r3.row_log_scale == r1.row_log_scale);
    CHECK(r3.col_log_scale == r1.col_log_scale);
    // The objective, summed here independently in row order.
    double sum = 0;
    for (vertex_t i = 0; i < n; ++i)
      for (offset_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k)
        if (a.cols[k] == r1.mates.row_mate[i]) {
          sum += job == 4 ? std::fabs(a.weights[k]) : std::log(std::fabs(a.weights[k]));
          break;
        }
    CHECK(r1.objective == sum);
  }
}

namespace {

// The collection's matrices with a structural rank in MANIFEST.tsv.
std::vector<check::SharedMatrix> shared_matrices() {
  std::vector<check::SharedMatrix> out = check::shared_prepass_matrices();
  std::erase_if(out, [](const check::SharedMatrix& m) { return m.structural_rank < 0; });
  return out;
}

// Sorted row and column entry counts: equal for two matrices that are row
// and column permutations of each other.
std::pair<std::vector<offset_t>, std::vector<offset_t>> degree_profile(const Csr<double>& a) {
  std::vector<offset_t> rows(a.n_rows), cols(a.n_cols, 0);
  for (vertex_t i = 0; i < a.n_rows; ++i) {
    rows[i] = a.degree(i);
    for (vertex_t j : a.row_cols(i)) ++cols[j];
  }
  std::sort(rows.begin(), rows.end());
  std::sort(cols.begin(), cols.end());
  return {rows, cols};
}

}  // namespace

TEST_CASE("prepass: shared matrices, every job: count = structural rank, scalings within bounds") {
  const auto matrices = shared_matrices();
  if (matrices.empty()) {
    MESSAGE("shared matrices absent (MATCHBLAS_SHARED_MATRICES): skipped");
    return;
  }
  for (const auto& sm : matrices) {
    if (sm.file.find("_mc64_result") != std::string::npos) continue;
    INFO(sm.file);
    for (int job : {1, 2, 4, 5}) {
      INFO("job " << job);
      const PrepassResult r = prepass(sm.a, {.job = job});
      validate(sm.a, r);
      CHECK(r.mates.matched == sm.structural_rank);
      if (job == 5) require_scaling_bounds(sm.a, r, 1e-12);
      if (job == 4 && sm.a.num_entries() <= 20000) {
        const auto [count, objective] = check::best_bipartite(sm.a, 4);
        (void)count;
        if (std::max(sm.a.n_rows, sm.a.n_cols) <= 600) CHECK(r.objective == doctest::Approx(objective).epsilon(1e-9));
      }
    }
  }
}

// The two reference outputs of MC64 (Ginkgo's test data: A permuted and
// scaled by a maximum-product matching). A maximum-product matching is not
// unique and its scalings even less so; what every correct answer shares:
// B is a row and column permutation of A (same sorted degree profile), all
// |b_ii| = 1 and |b_ij| <= 1, and B's identity matching is a maximum-product
// one (its optimal log product is 0, which the pre-pass must find on B). The
// pre-pass's own B from A must pass the same three checks.
TEST_CASE("prepass: mahindas and 1138_bus against MC64's reference outputs") {
  const auto dir = check::shared_matrices();
  if (!dir) {
    MESSAGE("shared matrices absent (MATCHBLAS_SHARED_MATRICES): skipped");
    return;
  }
  for (const std::string name : {"mahindas", "1138_bus"}) {
    INFO(name);
    const Csr<double> a = matrix_as_given(read_matrix_market((*dir / (name + ".mtx")).string()));
    const Csr<double> ref = matrix_as_given(read_matrix_market((*dir / (name + "_mc64_result.mtx")).string()));
    CHECK(degree_profile(a) == degree_profile(ref));
    // The reference's diagonal is a maximum-product matching of it.
    const PrepassResult on_ref = prepass(ref, {.job = 5});
    CHECK(on_ref.mates.matched == ref.n_rows);
    CHECK(std::fabs(on_ref.objective) <= 1e-6 * ref.n_rows);  // the reference is given to ~7 digits
    for (vertex_t i = 0; i < ref.n_rows; ++i)
      for (offset_t k = ref.offsets[i]; k < ref.offsets[i + 1]; ++k) {
        const double x = std::fabs(ref.weights[k]);
        CHECK(x <= 1 + 1e-6);
        if (ref.cols[k] == i) CHECK(x == doctest::Approx(1).epsilon(1e-6));
      }
    // Ours: scale A, then permute its columns by perm (A Q); the same checks.
    const PrepassResult r = prepass(a, {.job = 5});
    REQUIRE(r.mates.matched == a.n_rows);
    Csr<double> b = apply_log_scaling(a, r.row_log_scale, r.col_log_scale);
    std::vector<vertex_t> position(a.n_cols);
    for (vertex_t i = 0; i < a.n_rows; ++i) position[r.perm[i]] = i;
    for (vertex_t& j : b.cols) j = position[j];
    CHECK(degree_profile(b) == degree_profile(ref));
    const PrepassResult on_ours = prepass(b, {.job = 5});
    CHECK(std::fabs(on_ours.objective) <= 1e-9 * b.n_rows);
    for (vertex_t i = 0; i < b.n_rows; ++i)
      for (offset_t k = b.offsets[i]; k < b.offsets[i + 1]; ++k) {
        const double x = std::fabs(b.weights[k]);
        CHECK(x <= 1 + 1e-12);
        if (b.cols[k] == i) CHECK(x == doctest::Approx(1).epsilon(1e-12));
      }
    // The optimal products agree: log prod |a_matched| is invariant, and the
    // reference's B = D1 P A Q D2 has the same optimum up to the scalings,
    // which this test cannot undo; the objective on A is checked against the
    // Hungarian reference below for the smaller one.
    if (a.n_rows <= 1300) {
      const auto [count, objective] = check::best_bipartite(a, 5);
      CHECK(count == a.n_rows);
      CHECK(r.objective == doctest::Approx(objective).epsilon(1e-10));
    }
  }
}
