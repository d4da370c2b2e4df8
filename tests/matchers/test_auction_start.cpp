// The auction start of jobs 4-5 (matchers/bipartite/auction_start.hpp) on
// one and several threads, and the pre-pass's jobs 4-5 at 1 and 2 threads.
// Every auction, on random matrices with real and with tied integer costs,
// at 1, 2 and 4 threads, with its bids on several threads in the first two
// phases (the default) or in every phase, repeated to shake out races: a
// valid matching of every row, epsilon-complementary slackness of every row
// at the last epsilon (checked from the prices it returns), and the repair
// from its prices reaching the cold start's cost; one thread gives the same
// prices every time. On heavy-tailed costs (a few outliers set the span)
// the epsilons scale from the spread of most costs, with the same checks,
// and where that schedule meets a price war across the outliers' gap the
// span's takes over. Jacobi bids: the same checks, and the same prices and
// matching on 1, 2, 3 and 8 threads. The phases before the last end at
// their own tail (none, a few, every row): the same checks; from 10000
// rows, where the default earlier tail is not empty, jobs 4-5 reach MC64's
// start's optimum. The pre-pass
// (the registry's max-sum and max-product, on matrices large enough for
// the parallel passes): the same objective at
// 1 and 2 threads (1e-9 relative), and on real values (a unique optimum)
// the same matching and job 5 scalings (canonical duals); canonical_duals
// bit for bit the same on 1 and 2 threads.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "datasets/solver_matrices.hpp"
#include "lib/omp_threads.hpp"
#include "matchers/bipartite/auction_start.hpp"
#include "matchers/bipartite/prepass.hpp"
#include "matchers/bipartite/shortest_augmenting.hpp"
#include "matchers/registry.hpp"
#include "tests/check/bipartite_reference.hpp"

using namespace matchblas;

namespace {

// A random n x n cost matrix with about `degree` entries a row and the
// diagonal (a perfect matching); real costs in [-5, 5], or integers from
// {-levels..levels} when levels > 0 (ties abound).
Csr<double> random_square(vertex_t n, int degree, int levels, std::mt19937& rng) {
  Csr<double> c;
  c.n_rows = c.n_cols = n;
  std::uniform_int_distribution<vertex_t> col(0, n - 1);
  std::uniform_real_distribution<double> real(-5, 5);
  std::uniform_int_distribution<int> level(-levels, levels);
  for (vertex_t i = 0; i < n; ++i) {
    std::vector<vertex_t> row = {i};
    for (int k = 1; k < degree; ++k) row.push_back(col(rng));
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    for (vertex_t j : row) {
      c.cols.push_back(j);
      c.weights.push_back(levels > 0 ? double(level(rng)) : real(rng));
    }
    c.offsets.push_back(offset_t(c.cols.size()));
  }
  return c;
}

// Every assigned row's value -c_ij - p_j at its column is within epsilon
// (and rounding) of its best value.
void require_epsilon_slack(const Csr<double>& c, const AuctionStart& a) {
  double largest = 0;
  for (double p : a.price) largest = std::max(largest, std::fabs(p));
  for (double w : c.weights) largest = std::max(largest, std::fabs(w));
  const double rounding = 1e-12 * largest;
  for (vertex_t i = 0; i < c.n_rows; ++i) {
    const vertex_t mine = a.mates.row_mate[i];
    if (mine < 0) continue;
    double best = -INFINITY, own = -INFINITY;
    for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k) {
      const double x = -c.weights[k] - a.price[c.cols[k]];
      best = std::max(best, x);
      if (c.cols[k] == mine) own = std::max(own, x);
    }
    CAPTURE(i);
    REQUIRE(own >= best - a.epsilon - rounding);
  }
}

// The repair from the auction's prices (v = -p) reaches the optimum.
void require_repairs_to(const Csr<double>& c, const AuctionStart& a, double optimum) {
  std::vector<double> v(a.price.size());
  for (std::size_t j = 0; j < v.size(); ++j) v[j] = -a.price[j];
  CHECK(min_cost_row_perfect_from_column_duals(c, v, a.mates).cost == doctest::Approx(optimum).epsilon(1e-9).scale(1));
}

}  // namespace

TEST_CASE("auction start on 1, 2 and 4 threads: a valid epsilon-optimal matching, repaired to the optimum") {
  std::mt19937 rng(1991);
  for (int trial = 0; trial < 12; ++trial) {
    const vertex_t n = 200 + vertex_t(rng() % 3000);
    const Csr<double> c = random_square(n, 2 + trial % 7, trial % 3 == 0 ? 4 : 0, rng);
    const double optimum = min_cost_row_perfect(c).cost;
    CAPTURE(trial);
    CAPTURE(n);
    for (int threads : {1, 2, 4})
      for (int phases : {2, 1000})
        for (int repeat = 0; repeat < (threads > 1 ? 3 : 1); ++repeat) {
          CAPTURE(threads);
          CAPTURE(phases);
          // No tail (every row assigned at the end), or the default one.
          const std::int64_t tail = repeat == 1 ? 0 : -1;
          const AuctionStart a = epsilon_scaling_auction(
              c, {.tail_rows = tail, .work_limit = 1e9, .threads = threads, .parallel_phases = phases});
          REQUIRE(a.finished);
          check::require_valid_mates(c, a.mates);
          if (tail < 0) CHECK(a.mates.matched == n);
          CHECK(a.mates.matched >= n - auction_tail_rows(tail, n, last_phase_rows_per_tail_row));
          require_epsilon_slack(c, a);
          require_repairs_to(c, a, optimum);
        }
    // One thread: the same auction every time.
    const AuctionStart one = epsilon_scaling_auction(c, {.work_limit = 1e9, .threads = 1});
    const AuctionStart again = epsilon_scaling_auction(c, {.work_limit = 1e9, .threads = 1});
    CHECK(one.price == again.price);
    CHECK(one.mates.row_mate == again.mates.row_mate);
  }
}

TEST_CASE("auction start with Jacobi bids: epsilon-optimal, repaired to the optimum, the same on 1, 2, 3 and 8 threads") {
  std::mt19937 rng(1988);
  for (int trial = 0; trial < 12; ++trial) {
    const vertex_t n = 200 + vertex_t(rng() % 3000);
    const Csr<double> c = random_square(n, 2 + trial % 7, trial % 3 == 0 ? 4 : 0, rng);  // ties every third
    const double optimum = min_cost_row_perfect(c).cost;
    CAPTURE(trial);
    CAPTURE(n);
    for (const std::int64_t tail : {std::int64_t(-1), std::int64_t(0)}) {
      CAPTURE(tail);
      // Every round on all the threads (one bid a thread), so a tie-break
      // that depended on the threads' timing would show; one thread runs
      // its rounds without atomics, so the two ways must agree.
      AuctionStartOptions o{.tail_rows = tail, .work_limit = 1e9, .threads = 1, .jacobi = true, .jacobi_bids_per_thread = 1};
      const AuctionStart one = epsilon_scaling_auction(c, o);
      REQUIRE(one.finished);
      check::require_valid_mates(c, one.mates);
      if (tail < 0) CHECK(one.mates.matched == n);
      CHECK(one.mates.matched >= n - auction_tail_rows(tail, n, last_phase_rows_per_tail_row));
      require_epsilon_slack(c, one);
      require_repairs_to(c, one, optimum);
      for (int threads : {2, 3, 8}) {
        CAPTURE(threads);
        o.threads = threads;
        const AuctionStart more = epsilon_scaling_auction(c, o);
        CHECK(more.price == one.price);  // bit for bit
        CHECK(more.mates.row_mate == one.mates.row_mate);
        CHECK(more.scanned == one.scanned);
      }
    }
  }
  // A row without entries: no matching of every row, reported unfinished.
  Csr<double> holed = random_square(300, 4, 0, rng);
  for (offset_t k = holed.offsets[7]; k < holed.offsets[8]; ++k) holed.cols[std::size_t(k)] = -1;  // marked
  Csr<double> without;
  without.n_rows = without.n_cols = holed.n_rows;
  for (vertex_t i = 0; i < holed.n_rows; ++i) {
    for (offset_t k = holed.offsets[i]; k < holed.offsets[i + 1]; ++k)
      if (holed.cols[std::size_t(k)] >= 0) {
        without.cols.push_back(holed.cols[std::size_t(k)]);
        without.weights.push_back(holed.weights[std::size_t(k)]);
      }
    without.offsets.push_back(offset_t(without.cols.size()));
  }
  const AuctionStart two =
      epsilon_scaling_auction(without, {.work_limit = 1e9, .threads = 2, .jacobi = true, .jacobi_bids_per_thread = 1});
  CHECK_FALSE(two.finished);
  // One thread stops the same way, with the same work counted.
  const AuctionStart one =
      epsilon_scaling_auction(without, {.work_limit = 1e9, .threads = 1, .jacobi = true, .jacobi_bids_per_thread = 1});
  CHECK_FALSE(one.finished);
  CHECK(one.scanned == two.scanned);
  CHECK(one.price == two.price);
  CHECK(one.mates.row_mate == two.mates.row_mate);
}

TEST_CASE("auction start: the phases before the last end at their own tail") {
  // earlier_tail_rows: 0 (n / 10000 with Jacobi bids, no row at these
  // sizes; the last phase's tail with Gauss-Seidel bids), none, a few, and
  // every row (capped at the last phase's tail: the same auction as that
  // tail); the last phase to its default tail (n / 2000: 0 or 1 row here),
  // to no row, or to 20 rows. Each: a finished epsilon-optimal auction
  // repaired to the optimum, Jacobi bids the same on 1 and 3 threads; under
  // a last tail of 20 the earlier tails change the bids (20 and 3 rows
  // against none).
  std::mt19937 rng(2000);
  int differs = 0, differs_few = 0;  // trials where an earlier tail changed the entries scanned
  for (int trial = 0; trial < 6; ++trial) {
    const vertex_t n = 300 + vertex_t(rng() % 2500);
    const Csr<double> c = random_square(n, 3 + trial % 5, trial % 2 == 0 ? 4 : 0, rng);  // ties every other
    const double optimum = min_cost_row_perfect(c).cost;
    CAPTURE(trial);
    CAPTURE(n);
    std::int64_t scanned_none = -1, scanned_all = -1, scanned_few = -1;
    for (const std::int64_t earlier : {std::int64_t(0), std::int64_t(-1), std::int64_t(3), std::int64_t(n)})
      for (const std::int64_t last : {std::int64_t(0), std::int64_t(-1), std::int64_t(20)})
        for (const bool jacobi : {true, false}) {
          CAPTURE(earlier);
          CAPTURE(last);
          CAPTURE(jacobi);
          AuctionStartOptions o{.tail_rows = last, .earlier_tail_rows = earlier, .work_limit = 1e9, .threads = 1,
                                .jacobi = jacobi};
          const AuctionStart a = epsilon_scaling_auction(c, o);
          REQUIRE(a.finished);
          check::require_valid_mates(c, a.mates);
          CHECK(a.mates.matched >= n - auction_tail_rows(last, n, last_phase_rows_per_tail_row));
          if (last < 0) CHECK(a.mates.matched == n);
          if (jacobi && last == 20 && earlier < 0) scanned_none = a.scanned;
          if (jacobi && last == 20 && earlier == n) scanned_all = a.scanned;
          if (jacobi && last == 20 && earlier == 3) scanned_few = a.scanned;
          if (last > 0 && earlier == n) {  // capped at the last phase's tail
            AuctionStartOptions capped = o;
            capped.earlier_tail_rows = last;
            const AuctionStart b = epsilon_scaling_auction(c, capped);
            CHECK(b.price == a.price);
            CHECK(b.scanned == a.scanned);
          }
          require_epsilon_slack(c, a);
          require_repairs_to(c, a, optimum);
          if (jacobi) {
            o.threads = 3;
            o.jacobi_bids_per_thread = 1;
            const AuctionStart more = epsilon_scaling_auction(c, o);
            CHECK(more.price == a.price);
            CHECK(more.mates.row_mate == a.mates.row_mate);
          }
        }
    differs += scanned_none != scanned_all;
    differs_few += scanned_none != scanned_few;
  }
  CHECK(differs >= 3);  // the option reaches the phases
  CHECK(differs_few >= 3);
}

TEST_CASE("auction start on heavy-tailed costs: epsilons from the spread of most costs, the same optimum") {
  // Costs in [-5, 5] with one entry in 100 a thousand to a million times
  // larger: the span is set by the outliers, the spread of 98% of the costs
  // is about 10. Outliers on the diagonal (no two rows want the same one):
  // the schedule scales from the spread throughout (its last epsilon far
  // below span / (4 n)). Outliers anywhere (rows contend for them: price
  // wars across their gap at the spread's epsilons): the span's schedule
  // takes over after a phase of 8x the entries, instead of the 130-1350x
  // the spread's alone scanned on these matrices. Either way the repair
  // reaches the optimum.
  std::mt19937 rng(2015);
  for (int trial = 0; trial < 6; ++trial) {
    const vertex_t n = 300 + vertex_t(rng() % 2000);
    const Csr<double> base = random_square(n, 3 + trial % 4, 0, rng);
    std::uniform_real_distribution<double> decades(3, 6);
    for (bool diagonal : {true, false}) {
      Csr<double> c = base;
      if (diagonal) {
        for (vertex_t i = 0; i < n; i += 100)
          for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k)
            if (c.cols[k] == i) c.weights[k] = -std::pow(10.0, decades(rng));
      } else {
        for (std::size_t k = 0; k < c.weights.size(); k += 100) c.weights[k] = -std::pow(10.0, decades(rng));
      }
      double lo = 0, hi = 0;
      for (double w : c.weights) lo = std::min(lo, w), hi = std::max(hi, w);
      const double optimum = min_cost_row_perfect(c).cost;
      CAPTURE(trial);
      CAPTURE(n);
      CAPTURE(diagonal);
      // Gauss-Seidel bids on 1 and 2 threads to the last row; Jacobi bids
      // with the phases before the last ending at 5 rows and the last at 20
      // (so that a phase handed over to the span's schedule is followed by
      // phases of either tail).
      for (int threads : {1, 2, 0}) {
        CAPTURE(threads);
        const bool jacobi = threads == 0;
        const AuctionStart a = epsilon_scaling_auction(c, {.tail_rows = jacobi ? 20 : -1,
                                                           .earlier_tail_rows = jacobi ? 5 : 0,
                                                           .work_limit = 1e9,
                                                           .threads = jacobi ? 1 : threads,
                                                           .jacobi = jacobi});
        REQUIRE(a.finished);
        CHECK(a.scanned < 100 * (c.num_entries() + n));
        check::require_valid_mates(c, a.mates);
        CHECK(a.mates.matched >= n - (jacobi ? 20 : 0));
        require_epsilon_slack(c, a);
        if (diagonal) CHECK(a.epsilon < (hi - lo) / (4.0 * double(n)) / 10);
        require_repairs_to(c, a, optimum);
      }
    }
  }
}

TEST_CASE("auction start on heavy-tailed costs with a price war across the outliers' gap: the span's schedule takes over") {
  // k + 1 rows share k columns at an outlier cost (-1e6, one entry in about
  // 400): one of them must leave for a column of the ordinary costs, and at
  // the spread's epsilons (about 1) the k + 1 rows would raise those
  // columns' prices an epsilon at a time up to the gap, about 1e7 bids. A
  // phase of the spread's schedule that scans more than 8x the entries hands
  // over to the span's schedule from its prices: the auction finishes far
  // inside a work limit of 1000x the entries (the spread's schedule alone
  // would not), and the repair reaches the optimum.
  std::mt19937 rng(2010);
  for (int trial = 0; trial < 4; ++trial) {
    const vertex_t n = 3000 + vertex_t(rng() % 1000), k = 8;
    Csr<double> c = random_square(n, 4, 0, rng);
    Csr<double> war;
    war.n_rows = war.n_cols = n;
    for (vertex_t i = 0; i < n; ++i) {
      std::vector<std::pair<vertex_t, double>> row;
      for (offset_t e = c.offsets[i]; e < c.offsets[i + 1]; ++e)
        if (i > k || c.cols[e] >= k) row.emplace_back(c.cols[e], c.weights[e]);
      if (i <= k)
        for (vertex_t j = 0; j < k; ++j) row.emplace_back(j, -1e6);
      std::sort(row.begin(), row.end());
      for (auto [j, w] : row) {
        war.cols.push_back(j);
        war.weights.push_back(w);
      }
      war.offsets.push_back(offset_t(war.cols.size()));
    }
    const double optimum = min_cost_row_perfect(war).cost;
    CAPTURE(trial);
    CAPTURE(n);
    for (int threads : {1, 2}) {
      CAPTURE(threads);
      const AuctionStart a = epsilon_scaling_auction(war, {.tail_rows = -1, .work_limit = 1000, .threads = threads});
      REQUIRE(a.finished);
      CHECK(a.scanned < 200 * (war.num_entries() + n));
      check::require_valid_mates(war, a.mates);
      CHECK(a.mates.matched == n);
      require_epsilon_slack(war, a);
      require_repairs_to(war, a, optimum);
    }
  }
}

TEST_CASE("auction start: bad options and a matrix without a perfect matching") {
  std::mt19937 rng(5);
  const Csr<double> c = random_square(50, 3, 0, rng);
  CHECK_THROWS_AS(epsilon_scaling_auction(c, {.threads = -1}), invalid_input);
  CHECK_THROWS_AS(epsilon_scaling_auction(c, {.final_epsilon = -1}), invalid_input);
  Csr<double> tall;  // 3 x 2: the rows cannot all be assigned
  tall.n_rows = 3;
  tall.n_cols = 2;
  tall.offsets = {0, 1, 2, 3};
  tall.cols = {0, 1, 0};
  tall.weights = {1, 2, 3};
  CHECK_THROWS_AS(epsilon_scaling_auction(tall), invalid_input);
  Csr<double> wide = c;  // more columns than rows: the rows bid, the extra columns may stay free
  wide.n_cols = c.n_cols + 7;
  const AuctionStart w = epsilon_scaling_auction(wide, {.work_limit = 1e9, .threads = 1});
  CHECK(w.finished);
  CHECK(w.price.size() == std::size_t(wide.n_cols));
  CHECK(w.mates.col_mate.size() == std::size_t(wide.n_cols));
  // Column 0 in no row: some row never finds a column; the work limit ends it.
  Csr<double> s = c;
  for (std::size_t k = 0; k < s.cols.size(); ++k)
    if (s.cols[k] == 0) s.cols[k] = 1;
  // (duplicate entries are fine for the auction: a row's best of them)
  for (int threads : {1, 2}) {
    CAPTURE(threads);
    const AuctionStart a = epsilon_scaling_auction(s, {.work_limit = 20, .threads = threads});
    CHECK(!a.finished);
  }
}

TEST_CASE("pre-pass jobs 4-5 at 1 and 2 threads: the same objective; a unique optimum gives the same matching and scalings") {
  const MatcherInfo& product = find_matcher("max-product", Problem::bipartite);
  const MatcherInfo& sum = find_matcher("max-sum", Problem::bipartite);
  CHECK(product.threaded);
  CHECK(sum.threaded);
  // Above the size where the O(nnz) passes run on several threads.
  for (const char* spec : {"stencil2d:140", "stencil3d:28", "circuit:20000", "heavy:20000"}) {
    CAPTURE(spec);
    const Csr<double> a = solver_matrix(spec);
    REQUIRE(a.num_entries() >= (1 << 16));
    for (const MatcherInfo* m : {&product, &sum}) {
      CAPTURE(m->name);
      RunOptions one, two;
      one.threads = 1;
      two.threads = 2;
      const PrepassResult r1 = run_prepass(*m, a, one);
      for (int repeat = 0; repeat < 2; ++repeat) {
        const PrepassResult r2 = run_prepass(*m, a, two);
        REQUIRE(r2.mates.matched == r1.mates.matched);
        CHECK(r2.objective == doctest::Approx(r1.objective).epsilon(1e-9));
        // Random real values: one optimal matching, hence one set of
        // canonical duals (up to rounding).
        CHECK(r2.mates.row_mate == r1.mates.row_mate);
        for (std::size_t i = 0; i < r1.row_log_scale.size(); ++i) {
          REQUIRE(r2.row_log_scale[i] == doctest::Approx(r1.row_log_scale[i]).epsilon(1e-9).scale(1));
          REQUIRE(r2.col_log_scale[i] == doctest::Approx(r1.col_log_scale[i]).epsilon(1e-9).scale(1));
        }
      }
    }
  }
}

TEST_CASE("pre-pass jobs 4-5 from the auction's default tails: MC64's start's optimum") {
  // From 10000 rows up the phases before the last leave rows of their own
  // (n / 10000) and the last n / 2000: the exact jobs from that start equal
  // those from MC64's start (another path to the optimum), on real and on
  // tied integer values.
  std::mt19937 rng(10000);
  std::vector<Csr<double>> matrices = {solver_matrix("stencil2d:140"), solver_matrix("circuit:20000"),
                                       solver_matrix("heavy:20000")};
  for (int levels : {0, 3}) {
    Csr<double> c = random_square(24000 + vertex_t(rng() % 8000), 5, levels, rng);
    for (double& w : c.weights) w = levels > 0 ? 1 + std::fabs(w) : std::exp(2 * w);  // positive: |a_ij| for jobs 4-5
    matrices.push_back(std::move(c));
  }
  for (const Csr<double>& a : matrices) {
    CAPTURE(a.n_rows);
    REQUIRE(a.n_rows >= 10000);
    for (int job : {4, 5}) {
      CAPTURE(job);
      const PrepassResult auction = prepass(a, {.job = job});
      const PrepassResult mc64 = prepass(a, {.job = job, .start = PrepassOptions::Start::mc64});
      REQUIRE(auction.mates.matched == mc64.mates.matched);
      CHECK(auction.objective == doctest::Approx(mc64.objective).epsilon(1e-9));
      // The auction's start ran (a stopped auction would fall back to
      // MC64's, whose searches start from about a fifth of the rows).
      CHECK(auction.searches * 10 < mc64.searches);
    }
  }
}

TEST_CASE("canonical_duals: bit for bit the same on 1 and 2 threads") {
  const Csr<double> a = solver_matrix("heavy:20000");
  const Csr<double> c = prepass_costs(a, 5);
  REQUIRE(c.num_entries() >= (1 << 16));
  const DualMatching d = min_cost_row_perfect(c);
  DualMatching one = d, two = d;
  {
    const ScopedThreads scope(1);
    canonical_duals(c, one);
  }
  {
    const ScopedThreads scope(2);
    canonical_duals(c, two);
  }
  CHECK(one.u == two.u);
  CHECK(one.v == two.v);
}

TEST_CASE("auction start inside a parallel region: the team OpenMP gives, the one-thread result") {
  // Nested regions get one thread (OpenMP's default): the stacks, one per
  // thread of the team asked for, must follow the team actually given.
  std::mt19937 rng(4096);
  const Csr<double> c = random_square(20000, 5, 4, rng);
  REQUIRE(c.num_entries() >= (offset_t(1) << 16));
  for (const bool jacobi : {true, false}) {
    CAPTURE(jacobi);
    const AuctionStartOptions one{.work_limit = 1e9, .threads = 1, .jacobi = jacobi};
    AuctionStartOptions four = one;
    four.threads = 4;
    const AuctionStart alone = epsilon_scaling_auction(c, one);
    AuctionStart nested;
    bool threw = false;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
      try {
        nested = epsilon_scaling_auction(c, four);
      } catch (...) {
        threw = true;
      }
    }
    REQUIRE_FALSE(threw);
    CHECK(nested.finished);
    CHECK(nested.price == alone.price);
    CHECK(nested.mates.row_mate == alone.mates.row_mate);
  }
}
