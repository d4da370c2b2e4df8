// AWPM (matchers/bipartite/awpm.hpp): on random matrices of every shape and
// rank with ties and explicit zeros, a valid matching of maximum cardinality
// (Kuhn), weight at most job 4's optimum, no 4-cycle gaining more than the
// threshold (an independent brute force, tests/check/four_cycles.hpp), the
// greedy start's weight, rounds that never lose weight, the same result at
// 1, 2 and 4 threads, from either start; the auction start within k epsilon
// of the optimum on square, wide and tall matrices with a matching of the
// smaller side (k lines); unsorted rows
// with duplicates; bad input; the registry entry and its conformance; and
// every shared matrix: count = structural rank, objective within 1% of job
// 4's but for a documented list of measured gaps, and the mean within 1%
// (the gaps as messages; the times against job 4 in a test case that runs
// only when asked for).
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "lib/error.hpp"
#include "lib/graph_from_matrix.hpp"
#include "lib/omp_threads.hpp"
#include "lib/mmio.hpp"
#include "matchers/bipartite/awpm.hpp"
#include "matchers/bipartite/prepass.hpp"
#include "matchers/registry.hpp"
#include "tests/check/bipartite_reference.hpp"
#include "tests/check/check.hpp"
#include "tests/check/shared_collection.hpp"
#include "tests/check/conformance.hpp"
#include "tests/check/four_cycles.hpp"

using namespace matchblas;

namespace {

// A random m x n matrix with values from few levels (ties) and, when asked,
// about one entry in three an explicit zero.
Csr<double> tied_matrix(vertex_t m, vertex_t n, double density, bool zeros, std::uint64_t seed) {
  Csr<double> a = check::random_matrix(m, n, density, 3, seed);
  if (zeros)
    for (std::size_t k = 0; k < a.weights.size(); k += 3) a.weights[k] = 0;
  return a;
}

// The weight of the greedy matching of |a| (entries by weight descending,
// then row, then column; a sorted row-major list, written here), summed in
// row order.
double greedy_weight(const Csr<double>& a) {
  std::vector<std::tuple<double, vertex_t, vertex_t>> e;
  for (vertex_t i = 0; i < a.n_rows; ++i)
    for (offset_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k) e.emplace_back(-std::fabs(a.weights[k]), i, a.cols[k]);
  std::sort(e.begin(), e.end());
  std::vector<double> row_weight(a.n_rows, -1);
  std::vector<char> col_used(a.n_cols, 0);
  for (const auto& [w, i, j] : e)
    if (row_weight[i] < 0 && !col_used[j]) {
      row_weight[i] = -w;
      col_used[j] = 1;
    }
  double sum = 0;
  for (double w : row_weight)
    if (w >= 0) sum += w;
  return sum;
}

AwpmResult run(const Csr<double>& a, int threads, AwpmOptions o = {}) {
  o.threads = threads;
  return awpm(a, o);
}

// Everything the tests compare between thread counts.
void require_same(const AwpmResult& x, const AwpmResult& y) {
  REQUIRE(x.mates.row_mate == y.mates.row_mate);
  REQUIRE(x.mates.col_mate == y.mates.col_mate);
  REQUIRE(x.rounds.size() == y.rounds.size());
  for (std::size_t t = 0; t < x.rounds.size(); ++t) {
    REQUIRE(x.rounds[t].cycles == y.rounds[t].cycles);
    REQUIRE(x.rounds[t].weight == y.rounds[t].weight);
  }
  REQUIRE(x.start_weight == y.start_weight);
  REQUIRE(x.maximum_weight == y.maximum_weight);
}

}  // namespace

TEST_CASE("awpm: random matrices of every shape and rank, ties and zeros: maximum, <= job 4, no gaining 4-cycle") {
  std::mt19937 rng(2020);
  for (int i = 0; i < 400; ++i) {
    const vertex_t span = i < 300 ? 12 : 120;
    const vertex_t m = vertex_t(rng() % span), n = vertex_t(rng() % span);
    const double density = i < 300 ? 0.05 + 0.1 * (i % 8) : 0.01 + 0.02 * (i % 6);
    const std::uint64_t seed = 7000 + i;
    const Csr<double> a = tied_matrix(m, n, density, i % 3 == 0, seed);
    CAPTURE(seed);
    CAPTURE(m);
    CAPTURE(n);
    const PrepassResult exact = prepass(a, {.job = 4});
    for (const AwpmOptions::Start start : {AwpmOptions::Start::auction, AwpmOptions::Start::greedy}) {
      CAPTURE(int(start));
      const AwpmResult r = run(a, 2, {.start = start});
      check::require_valid_mates(a, r.mates);
      REQUIRE(r.mates.matched == check::bipartite_rank(a));
      REQUIRE(r.converged);
      if (start == AwpmOptions::Start::greedy) CHECK(!r.auction_start);
      if (!r.auction_start) CHECK(r.start_weight == greedy_weight(a));
      double before = r.maximum_weight;
      for (const AwpmRound& round : r.rounds) {
        CHECK(round.weight >= before);
        before = round.weight;
      }
      const PrepassResult report = prepass_result(a, 4, r.mates);
      CHECK(report.objective == before);
      CHECK(report.objective <= exact.objective + 1e-9 * std::max(1.0, exact.objective));
      const check::FourCycle c = check::largest_4_cycle(a, r.mates.row_mate);
      INFO("rows ", c.row, " and ", c.other, " gain ", c.gain);
      CHECK(c.gain <= AwpmOptions{}.min_gain * report.objective + 1e-12 * std::max(1.0, report.objective));
      require_same(run(a, 1, {.start = start}), r);
      require_same(run(a, 4, {.start = start}), r);
    }
  }
}

namespace {

// Sum over rows of the largest |a_ij|: n times the auction start's epsilon
// is auction_epsilon times this.
double sum_of_row_maxima(const Csr<double>& a) {
  double sum = 0;
  for (vertex_t i = 0; i < a.n_rows; ++i) {
    double largest = 0;
    for (offset_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k) largest = std::max(largest, std::fabs(a.weights[k]));
    sum += largest;
  }
  return sum;
}

}  // namespace

TEST_CASE("awpm: the auction start with a matching of the smaller side: within (its size) epsilon of job 4") {
  // Below 2000 bidding rows the auction leaves no row over, so (finished, or
  // mended by the searches from its prices) its assignment covers the
  // smaller side and is within k epsilon = auction_epsilon * (sum of that
  // side's largest moduli) of the optimum; the rounds only add. Square,
  // wide and tall matrices (the tall ones bid by columns), random values
  // (few levels: ties), a planted matching of the smaller side (entries
  // (i, i)), some lines with one heavy outlier (price wars).
  std::mt19937 rng(44);
  int started = 0;
  for (int t = 0; t < 180; ++t) {
    const vertex_t k = vertex_t(2 + rng() % (t % 60 < 50 ? 60 : 1500));
    const vertex_t m = t < 60 ? k : t < 120 ? k : k + vertex_t(rng() % 20);
    const vertex_t n = t < 60 ? k : t < 120 ? k + vertex_t(rng() % 20) : k;  // square, wide, tall
    Csr<double> a = tied_matrix(m, n, t % 60 < 50 ? 0.1 : 4.0 / double(k), t % 4 == 0, 500 + t);
    Csr<double> b;  // a plus the entries (i, i), i < k
    b.n_rows = m;
    b.n_cols = n;
    for (vertex_t i = 0; i < m; ++i) {
      std::map<vertex_t, double> row;
      for (offset_t e = a.offsets[i]; e < a.offsets[i + 1]; ++e) row.emplace(a.cols[e], a.weights[e]);
      if (i < k) row.emplace(i, 1 + double(rng() % 5));
      if (t % 5 == 0 && !row.empty() && rng() % 20 == 0) row.begin()->second = 1e6;  // an outlier
      for (auto [j, w] : row) {
        b.cols.push_back(j);
        b.weights.push_back(w);
      }
      b.offsets.push_back(offset_t(b.cols.size()));
    }
    // The bidding side's largest moduli: rows, or columns when tall.
    double maxima = 0;
    if (m <= n) {
      maxima = sum_of_row_maxima(b);
    } else {
      std::vector<double> col_max(std::size_t(n), 0);
      for (std::size_t e = 0; e < b.cols.size(); ++e)
        col_max[b.cols[e]] = std::max(col_max[b.cols[e]], std::fabs(b.weights[e]));
      for (double x : col_max) maxima += x;
    }
    const double optimum = prepass(b, {.job = 4}).objective;
    for (const double fraction : {0.1, 0.01}) {
      CAPTURE(t);
      CAPTURE(m);
      CAPTURE(n);
      CAPTURE(fraction);
      const AwpmResult r = run(b, 2, {.auction_epsilon = fraction});
      REQUIRE(r.auction_start);
      REQUIRE(r.mates.matched == k);
      started += 1;
      const double got = prepass_result(b, 4, r.mates).objective;
      CHECK(got <= optimum * (1 + 1e-12));
      CHECK(got >= optimum - fraction * maxima * (1 + 1e-9));
      CHECK(r.start_weight >= optimum - fraction * maxima * (1 + 1e-9));
    }
  }
  CHECK(started == 360);
}

TEST_CASE("awpm: a stopped auction (singular, many unmatchable rows): maximum, never lighter than the greedy start's") {
  // The last 30% of the rows reach only the first 10% of the columns: about
  // a fifth of the rows cannot be matched, bid until the work limit, and
  // the searches from the prices find no path for them (each such search
  // marks what it reached dead, so they cost O(nnz) together).
  for (const vertex_t n : {300, 3000}) {
    std::mt19937 rng{std::uint32_t(n)};
    Csr<double> a;
    a.n_rows = a.n_cols = n;
    for (vertex_t i = 0; i < n; ++i) {
      std::map<vertex_t, double> row;
      const bool restricted = i >= n * 7 / 10;
      if (!restricted) row.emplace(i, 1 + double(rng() % 7));
      for (int e = 0; e < 4; ++e)
        row.emplace(vertex_t(rng() % std::uint32_t(restricted ? n / 10 : n)), 1 + double(rng() % 7));
      for (auto [j, w] : row) {
        a.cols.push_back(j);
        a.weights.push_back(w);
      }
      a.offsets.push_back(offset_t(a.cols.size()));
    }
    CAPTURE(n);
    const AwpmResult r = run(a, 2), greedy = run(a, 2, {.start = AwpmOptions::Start::greedy});
    CHECK(r.auction_start);
    CHECK(r.auction_stopped);
    check::require_valid_mates(a, r.mates);
    CHECK(r.mates.matched == check::bipartite_rank(a));
    CHECK(r.mates.matched < n * 9 / 10);
    CHECK(r.maximum_weight >= greedy.maximum_weight);
    CHECK(prepass_result(a, 4, r.mates).objective <= prepass(a, {.job = 4}).objective * (1 + 1e-12));
    require_same(run(a, 1), r);
  }
}

TEST_CASE("awpm: larger matrices, 1, 2 and 4 threads give the same rounds and matching (repeated)") {
  for (const auto& [m, n, density, seed] : std::vector<std::tuple<vertex_t, vertex_t, double, std::uint64_t>>{
           {3000, 3000, 0.002, 1}, {2000, 3500, 0.003, 2}, {4000, 1500, 0.004, 3}, {5000, 5000, 0.0008, 4}}) {
    const Csr<double> a = tied_matrix(m, n, density, seed % 2 == 0, seed);
    CAPTURE(seed);
    const AwpmResult one = run(a, 1);
    check::require_valid_mates(a, one.mates);
    CHECK(one.mates.matched == prepass(a, {.job = 1}).mates.matched);
    CHECK(one.converged);
    MESSAGE("seed " << seed << ": " << one.rounds.size() << " rounds");
    for (int repeat = 0; repeat < 3; ++repeat) {
      require_same(run(a, 2), one);
      require_same(run(a, 4), one);
    }
  }
}

TEST_CASE("awpm with Jacobi bids: maximum, <= job 4, and the same on 1, 2 and 4 threads (the bids on the threads)") {
  // 20000 x 20000 at 0.0002: over 2^16 entries, so the auction's first
  // rounds (those of 4096 bids or more) run on the threads; the auction's
  // own test runs every round on them.
  for (const auto& [m, n, density, seed] : std::vector<std::tuple<vertex_t, vertex_t, double, std::uint64_t>>{
           {3000, 3000, 0.002, 11}, {2500, 4000, 0.003, 12}, {20000, 20000, 0.0002, 13}}) {
    const Csr<double> a = tied_matrix(m, n, density, seed % 2 == 0, seed);
    CAPTURE(seed);
    const AwpmResult one = run(a, 1, {.jacobi_bids = true});
    check::require_valid_mates(a, one.mates);
    CHECK(one.mates.matched == prepass(a, {.job = 1}).mates.matched);
    CHECK(one.converged);
    CHECK(prepass_result(a, 4, one.mates).objective <= prepass(a, {.job = 4}).objective * (1 + 1e-9));
    for (int repeat = 0; repeat < 2; ++repeat) {
      require_same(run(a, 2, {.jacobi_bids = true}), one);
      require_same(run(a, 4, {.jacobi_bids = true}), one);
    }
  }
}

TEST_CASE("awpm: rows unsorted with duplicates read the first entry of each column") {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const Csr<double> sorted = check::random_matrix(vertex_t(seed % 23), vertex_t(seed % 17 + 3), 0.4, 3, seed);
    const Csr<double> a = check::scramble_rows(sorted, seed);
    // The first entry of each column in each row, rows sorted: what awpm reads.
    Csr<double> first;
    first.n_rows = a.n_rows;
    first.n_cols = a.n_cols;
    for (vertex_t i = 0; i < a.n_rows; ++i) {
      std::map<vertex_t, double> row;
      for (offset_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k) row.emplace(a.cols[k], a.weights[k]);
      for (auto [j, w] : row) {
        first.cols.push_back(j);
        first.weights.push_back(w);
      }
      first.offsets.push_back(offset_t(first.cols.size()));
    }
    CAPTURE(seed);
    const AwpmResult r = run(a, 2);
    check::require_valid_mates(a, r.mates);
    require_same(r, run(first, 2));
    CHECK(prepass_result(a, 4, r.mates).objective == prepass_result(first, 4, r.mates).objective);
  }
}

TEST_CASE("awpm: moduli near DBL_MAX: the rounds of the matrix scaled down, the weights scaled up") {
  // The matching's weight overflows; without care the threshold became inf
  // and no 4-cycle was applied (the maximum-cardinality matching came back).
  int with_cycles = 0;
  for (int i = 0; i < 60; ++i) {
    const vertex_t m = vertex_t(4 + i % 40), n = vertex_t(m + i % 3);
    Csr<double> small = tied_matrix(m, n, 0.1 + 0.05 * (i % 6), i % 3 == 0, 9000 + i);
    if (small.weights.empty()) continue;
    const double largest = std::fabs(*std::max_element(small.weights.begin(), small.weights.end(),
                                                       [](double x, double y) { return std::fabs(x) < std::fabs(y); }));
    for (double& w : small.weights) w = largest > 0 ? w / largest : w;  // |w| <= 1
    Csr<double> huge = small;
    for (double& w : huge.weights) w = std::ldexp(w, 1023);
    CAPTURE(i);
    for (const AwpmOptions::Start start : {AwpmOptions::Start::auction, AwpmOptions::Start::greedy}) {
      CAPTURE(int(start));
      const AwpmResult s = run(small, 2, {.start = start}), h = run(huge, 2, {.start = start});
      REQUIRE(s.converged);
      if (start == AwpmOptions::Start::greedy) with_cycles += s.rounds.size() > 1;
      REQUIRE(h.mates.row_mate == s.mates.row_mate);
      REQUIRE(h.rounds.size() == s.rounds.size());
      for (std::size_t t = 0; t < s.rounds.size(); ++t) {
        CHECK(h.rounds[t].cycles == s.rounds[t].cycles);
        CHECK(h.rounds[t].weight == std::ldexp(s.rounds[t].weight, 1023));  // exact, or inf as both overflow
      }
      CHECK(h.start_weight == std::ldexp(s.start_weight, 1023));
      CHECK(h.maximum_weight == std::ldexp(s.maximum_weight, 1023));
    }
  }
  CHECK(with_cycles > 10);  // the rounds applied cycles from the greedy start: the test exercises them
}

TEST_CASE("awpm: empty shapes, all zeros, max-rounds 0, bad input") {
  for (auto [m, n] : std::vector<std::pair<vertex_t, vertex_t>>{{0, 0}, {0, 5}, {4, 0}}) {
    Csr<double> a;
    a.n_rows = m;
    a.n_cols = n;
    a.offsets.assign(std::size_t(m) + 1, 0);
    const AwpmResult r = awpm(a);
    CHECK(r.mates.matched == 0);
    CHECK(r.converged);
  }
  Csr<double> zeros = check::random_matrix(30, 30, 0.2, 0, 5);
  std::fill(zeros.weights.begin(), zeros.weights.end(), 0.0);
  const AwpmResult z = awpm(zeros);
  CHECK(z.mates.matched == check::bipartite_rank(zeros));
  CHECK(z.converged);
  const Csr<double> a = tied_matrix(200, 200, 0.03, false, 9);
  const AwpmResult none = awpm(a, {.max_rounds = 0});
  CHECK(none.rounds.empty());
  CHECK(!none.converged);
  CHECK(prepass_result(a, 4, none.mates).objective == none.maximum_weight);
  CHECK(awpm(a).rounds.back().weight >= none.maximum_weight);

  Csr<double> bad = a;
  bad.weights[3] = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_AS(awpm(bad), invalid_input);
  bad = a;
  bad.cols[0] = a.n_cols;
  CHECK_THROWS_AS(awpm(bad), invalid_input);
  bad = a;
  bad.weights.pop_back();
  CHECK_THROWS_AS(awpm(bad), invalid_input);
  CHECK_THROWS_AS(awpm(a, {.min_gain = -1}), invalid_input);
  CHECK_THROWS_AS(awpm(a, {.max_rounds = -1}), invalid_input);
  CHECK_THROWS_AS(awpm(a, {.auction_epsilon = 0}), invalid_input);
  CHECK_THROWS_AS(awpm(a, {.auction_epsilon = 1.5}), invalid_input);
  CHECK_THROWS_AS(awpm(a, {.auction_epsilon = std::numeric_limits<double>::quiet_NaN()}), invalid_input);
}

TEST_CASE("awpm: the registry entry, after max-sum, and its conformance") {
  const MatcherInfo& m = find_matcher("awpm", Problem::bipartite);
  CHECK(m.job == 4);
  CHECK(m.guarantee == "approximate");
  CHECK(m.threaded);
  CHECK(m.deterministic);
  CHECK(m.family == "bipartite");
  CHECK(find_prepass_job(4).name == "max-sum");
  CHECK_THROWS_AS(parse_options(m, {{"min-gain", "-1"}}), invalid_input);
  CHECK_THROWS_AS(parse_options(m, {{"max-rounds", "x"}}), invalid_input);
  CHECK_THROWS_AS(parse_options(m, {{"init", "mc64"}}), invalid_input);
  CHECK_THROWS_AS(parse_options(m, {{"auction-epsilon", "0"}}), invalid_input);
  CHECK(parse_options(m, {{"init", "greedy"}}).typed<AwpmOptions>().start == AwpmOptions::Start::greedy);
  CHECK(parse_options(m, {}).typed<AwpmOptions>().start == AwpmOptions::Start::auction);
  const Csr<double> a = tied_matrix(60, 60, 0.08, true, 11);
  RunOptions o;
  o.threads = 2;
  const PrepassResult r = run_prepass(m, a, o);
  CHECK(r.job == 4);
  CHECK(r.mates.row_mate == awpm(a).mates.row_mate);
  CHECK(r.objective == prepass_result(a, 4, r.mates).objective);
  std::vector<vertex_t> perm = r.perm;
  std::sort(perm.begin(), perm.end());
  for (vertex_t j = 0; j < a.n_cols; ++j) CHECK(perm[j] == j);
  check::require_conformance(m);
}

namespace {

// The shared matrices with their structural rank (MANIFEST.tsv's
// structural_rank), but MC64's reference outputs; a file the reader
// refuses (the complex one) is skipped with a message.
std::vector<check::SharedMatrix> shared_matrices() {
  std::vector<check::SharedMatrix> out = check::shared_prepass_matrices();
  std::erase_if(out, [](const check::SharedMatrix& m) {
    return m.structural_rank < 0 || m.file.find("_mc64_result") != std::string::npos;
  });
  return out;
}

// Matrices on which AWPM misses job 4's optimum by more than 1%: the
// relative gap measured (default options; the same at every thread count).
// The test fails if a gap grows by more than 10% of itself plus 0.001, or
// if the mean over the collection goes above 1%. Why they miss: mahindas
// and bayer10 hold a few entries decades above the rest, whose price war
// stops the auction at its work limit, and neither the searches from its
// prices nor the greedy start (the heavier kept) reach the optimum's
// weight; GD97_b is structurally singular (rank 44 of 47), so its auction
// stops too (mahindas and GD97_b keep the greedy start's matching). With the greedy start on every
// matrix (the start before the auction start, --init greedy) the mean gap
// was 6.6% and the largest 65% (hangGlider_2, west0479, west1505: longer
// alternating cycles than 4); with the auction start on square matrices
// without empty rows only, 0.56% (the rectangular lp_share1b 6.6%, the
// singular mbeacxc 3.6%).
const std::map<std::string, double> known_gaps = {
    {"mahindas.mtx", 0.0294657}, {"GD97_b.mtx", 0.020986}, {"bayer10.mtx.gz", 0.0153518}};

std::int64_t cycles(const AwpmResult& r) {
  std::int64_t c = 0;
  for (const AwpmRound& round : r.rounds) c += round.cycles;
  return c;
}

template <class F>
double best_seconds(F f) {
  double best = std::numeric_limits<double>::infinity();
  for (int t = 0; t < 3; ++t) {
    const auto start = std::chrono::steady_clock::now();
    f();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

}  // namespace

TEST_CASE("awpm: shared matrices: count = structural rank, objective within 1% of job 4's, the mean too") {
  const auto matrices = shared_matrices();
  if (matrices.empty()) {
    MESSAGE("shared matrices absent (MATCHBLAS_SHARED_MATRICES): skipped");
    return;
  }
  double worst = 0, total = 0;
  int counted = 0;
  for (const auto& sm : matrices) {
    INFO(sm.file);
    const AwpmResult r = run(sm.a, 2);
    check::require_valid_mates(sm.a, r.mates);
    CHECK(r.mates.matched == sm.structural_rank);
    CHECK(r.converged);
    require_same(run(sm.a, 1), r);
    const double got = prepass_result(sm.a, 4, r.mates).objective;
    const PrepassResult exact = prepass(sm.a, {.job = 4});
    CHECK(got <= exact.objective * (1 + 1e-12));
    const double gap = exact.objective > 0 ? (exact.objective - got) / exact.objective : 0;
    worst = std::max(worst, gap);
    total += gap;
    ++counted;
    const check::FourCycle c = check::largest_4_cycle(sm.a, r.mates.row_mate);
    CHECK(c.gain <= AwpmOptions{}.min_gain * got + 1e-12 * std::max(1.0, got));
    if (const auto known = known_gaps.find(sm.file); known != known_gaps.end()) {
      MESSAGE(sm.file << ": known gap " << known->second << ", measured " << gap);
      CHECK(gap <= known->second * 1.1 + 1e-3);
    } else {
      CHECK(gap <= 0.01);
    }
    MESSAGE(sm.file << " " << sm.a.n_rows << "x" << sm.a.n_cols << " nnz " << sm.a.num_entries() << ": gap " << gap
                    << " (start " << r.start_weight / exact.objective << ", maximum "
                    << r.maximum_weight / exact.objective << " of the optimum), rounds " << r.rounds.size()
                    << ", cycles " << cycles(r));
  }
  MESSAGE("gap over " << counted << " matrices: max " << worst << ", mean " << total / std::max(1, counted));
  CHECK(total <= 0.01 * counted);  // the mean gap within 1%
}

// Times only, no assertions (skipped unless asked for: -tc="awpm: timings*" --no-skip).
TEST_CASE("awpm: timings against job 4 on the shared matrices" * doctest::skip()) {
  for (const auto& sm : shared_matrices()) {
    const double awpm_1 = best_seconds([&] { run(sm.a, 1); }), awpm_2 = best_seconds([&] { run(sm.a, 2); });
    const double exact_1 = best_seconds([&] { ScopedThreads one(1); prepass(sm.a, {.job = 4}); });
    const double exact_2 = best_seconds([&] { ScopedThreads two(2); prepass(sm.a, {.job = 4}); });
    MESSAGE(sm.file << " " << sm.a.n_rows << "x" << sm.a.n_cols << " nnz " << sm.a.num_entries() << ": awpm "
                    << awpm_1 << " s (1 thread) " << awpm_2 << " s (2), job 4 " << exact_1 << " s (1) " << exact_2
                    << " s (2)");
  }
}
