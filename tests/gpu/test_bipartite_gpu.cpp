// cardinality-gpu (matchers/bipartite/max_cardinality_gpu.cu): a valid
// matching of the same size as the CPU job 1's (and Kuhn's, an independent
// reference), with no augmenting path left (Berge), on seeded random
// matrices of every shape (square, wide, tall, empty rows and columns, Hall
// violators, 0 x n), repeated to shake out races; on every matrix of the
// shared collection (their MANIFEST structural rank) and on the pre-pass
// benchmark's generated matrices; through the registry (run_prepass: the
// permutation and report of the CPU entry's form); a bad GPU id refused.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "datasets/solver_matrices.hpp"
#include "lib/error.hpp"
#include "matchers/bipartite/awpm.hpp"
#include "matchers/bipartite/max_cardinality.hpp"
#include "matchers/bipartite/prepass.hpp"
#include "matchers/bipartite/shortest_augmenting.hpp"
#include "matchers/registry.hpp"
#include "tests/check/bipartite_reference.hpp"
#include "tests/check/check.hpp"
#include "tests/check/four_cycles.hpp"
#include "tests/check/shared_collection.hpp"

using namespace matchblas;

namespace {

// The GPU matching of a: valid, maximum (no augmenting path), and as large
// as the CPU's.
void require_maximum(const Csr<double>& a, vertex_t expected) {
  const BipartiteMates m = max_cardinality_bipartite_gpu(a);
  check::require_valid_mates(a, m);
  CHECK(m.matched == expected);
  CHECK_FALSE(check::has_augmenting_path(a, m));
}

}  // namespace

TEST_CASE("cardinality-gpu: the CPU's size and no augmenting path on random matrices of every shape") {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const vertex_t m = vertex_t(1 + seed * 37 % 300), n = vertex_t(1 + seed * 53 % 300);
    const double density = seed % 4 == 0 ? 0.002 : seed % 4 == 1 ? 0.01 : 0.05;
    CAPTURE(seed);
    CAPTURE(m);
    CAPTURE(n);
    const Csr<double> a = check::random_matrix(m, n, density, 3, seed);
    const vertex_t cpu = max_cardinality_bipartite(a).matched;
    CHECK(cpu == check::bipartite_rank(a));
    for (int rep = 0; rep < 3; ++rep) require_maximum(a, cpu);
  }
  // Empty shapes and a matrix without entries.
  require_maximum(check::random_matrix(0, 5, 0.5, 1, 1), 0);
  require_maximum(check::random_matrix(5, 0, 0.5, 1, 1), 0);
  require_maximum(check::random_matrix(7, 9, 0.0, 1, 1), 0);
}

TEST_CASE("cardinality-gpu: the structural rank of every shared matrix and of the generated solver matrices") {
  const std::vector<check::SharedMatrix> shared = check::shared_prepass_matrices();
  if (shared.empty()) MESSAGE("the shared collection is absent: only the generated matrices are checked");
  for (const check::SharedMatrix& s : shared) {
    CAPTURE(s.file);
    const vertex_t cpu = max_cardinality_bipartite(s.a).matched;
    if (s.structural_rank >= 0) CHECK(cpu == s.structural_rank);
    require_maximum(s.a, cpu);
  }
  for (const char* spec : {"stencil2d:300", "stencil3d:40", "circuit:50000", "heavy:50000"}) {
    CAPTURE(spec);
    const Csr<double> a = solver_matrix(spec);
    require_maximum(a, max_cardinality_bipartite(a).matched);
  }
}

TEST_CASE("cardinality-gpu through the registry: the CPU entry's report and a permutation; bad GPU ids refused") {
  const MatcherInfo& gpu = find_matcher("cardinality-gpu", Problem::bipartite);
  const MatcherInfo& cpu = find_matcher("cardinality", Problem::bipartite);
  CHECK(&on_device(cpu, Device::gpu) == &gpu);
  const Csr<double> a = check::random_matrix(200, 200, 0.01, 2, 7);
  const PrepassResult g = run_prepass(gpu, a, RunOptions{});
  const PrepassResult c = run_prepass(cpu, a, RunOptions{});
  CHECK(g.job == 1);
  CHECK(g.mates.matched == c.mates.matched);
  CHECK(g.singular == c.singular);
  std::vector<int> seen(200, 0);
  for (vertex_t i = 0; i < 200; ++i) {
    REQUIRE(g.perm[i] >= 0);
    REQUIRE(g.perm[i] < 200);
    ++seen[g.perm[i]];
    if (g.mates.row_mate[i] >= 0) CHECK(g.perm[i] == g.mates.row_mate[i]);
  }
  for (int k : seen) CHECK(k == 1);
  GpuOptions bad;
  bad.device = 4096;
  CHECK_THROWS_AS(max_cardinality_bipartite_gpu(a, bad), invalid_input);
}

// awpm-gpu (matchers/bipartite/awpm_gpu.cu), from either start: a maximum
// matching, rounds that never lose weight, at most job 4's optimum (small
// matrices), no 4-cycle gaining more than the threshold at convergence (the
// independent brute force); the greedy start's weight the CPU awpm's (the
// same greedy matching); the auction start, on square, wide and tall
// matrices with a matching of the smaller side, within its size times
// epsilon of the optimum (the assignment complete below 2000 lines); on the shared matrices its gap to
// job 4 beside the CPU awpm's, as messages, and the mean gap within 2%.
TEST_CASE("awpm-gpu: maximum cardinality, no gaining 4-cycle, never above the optimum; the CPU's greedy start") {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const vertex_t m = vertex_t(1 + seed * 29 % 120), n = vertex_t(seed % 4 == 0 ? m : 1 + seed * 41 % 120);
    const double density = seed % 3 == 0 ? 0.02 : 0.08;
    CAPTURE(seed);
    const Csr<double> a = check::random_matrix(m, n, density, 3, seed);
    for (const AwpmOptions::Start start : {AwpmOptions::Start::auction, AwpmOptions::Start::greedy}) {
      CAPTURE(int(start));
      const AwpmResult g = awpm_gpu(a, {.start = start});
      check::require_valid_mates(a, g.mates);
      CHECK(g.mates.matched == check::bipartite_rank(a));
      if (start == AwpmOptions::Start::greedy)
        CHECK(g.start_weight == doctest::Approx(awpm(a, {.start = start}).start_weight).epsilon(1e-12));
      CHECK(g.converged);
      double last = g.maximum_weight;
      for (const AwpmRound& r : g.rounds) {
        CHECK(r.weight >= last * (1 - 1e-12));
        last = r.weight;
      }
      if (std::max(m, n) <= 120) CHECK(last <= check::best_bipartite(a, 4).second * (1 + 1e-12));
      const check::FourCycle c = check::largest_4_cycle(a, g.mates.row_mate);
      CHECK(c.gain <= 1e-12 * std::max(1.0, last) * (1 + 1e-9));
    }
  }
}

TEST_CASE("awpm-gpu: the auction start with a matching of the smaller side: within (its size) epsilon of job 4") {
  // Square, wide and tall (its columns bid) matrices with a planted matching
  // of the smaller side (entries (i, i)); below 2000 bidding lines no line
  // is left over, so the assignment covers the smaller side and is within
  // its size times epsilon = auction_epsilon * (the sum of that side's
  // largest moduli) of the optimum.
  std::mt19937 rng(45);
  for (int t = 0; t < 60; ++t) {
    const vertex_t k = vertex_t(2 + rng() % (t % 20 < 15 ? 80 : 1500));
    const vertex_t m = t < 40 ? k : k + vertex_t(rng() % 20), n = t < 20 || t >= 40 ? k : k + vertex_t(rng() % 20);
    const Csr<double> a = check::random_matrix(m, n, t % 20 < 15 ? 0.1 : 4.0 / double(k), 3, 600 + t);
    Csr<double> b;  // a with the entries (i, i), i < k
    b.n_rows = m;
    b.n_cols = n;
    for (vertex_t i = 0; i < m; ++i) {
      std::vector<std::pair<vertex_t, double>> row;
      if (i < k) row.emplace_back(i, 1 + double(rng() % 5));
      for (offset_t e = a.offsets[i]; e < a.offsets[i + 1]; ++e)
        if (a.cols[e] != i || i >= k) row.emplace_back(a.cols[e], a.weights[e]);
      std::sort(row.begin(), row.end());
      for (auto [j, w] : row) {
        b.cols.push_back(j);
        b.weights.push_back(w);
      }
      b.offsets.push_back(offset_t(b.cols.size()));
    }
    std::vector<double> row_max(std::size_t(m), 0), col_max(std::size_t(n), 0);
    for (vertex_t i = 0; i < m; ++i)
      for (offset_t e = b.offsets[i]; e < b.offsets[i + 1]; ++e) {
        row_max[i] = std::max(row_max[i], std::fabs(b.weights[e]));
        col_max[b.cols[e]] = std::max(col_max[b.cols[e]], std::fabs(b.weights[e]));
      }
    double maxima = 0;
    for (double x : m <= n ? row_max : col_max) maxima += x;
    const double optimum = prepass(b, {.job = 4}).objective;
    for (const double fraction : {0.1, 0.01}) {
      CAPTURE(t);
      CAPTURE(m);
      CAPTURE(n);
      CAPTURE(fraction);
      const AwpmResult g = awpm_gpu(b, {.auction_epsilon = fraction});
      CHECK(g.auction_start);
      check::require_valid_mates(b, g.mates);
      REQUIRE(g.mates.matched == k);
      const double got = prepass_result(b, 4, g.mates).objective;
      CHECK(got <= optimum * (1 + 1e-12));
      CHECK(got >= optimum - fraction * maxima * (1 + 1e-9));
    }
  }
}

TEST_CASE("awpm-gpu: rows out of order with repeated columns, and moduli near 2^511 and beyond: the same guarantees") {
  // awpm-gpu takes the moduli on the device from a's own arrays when the
  // rows are sorted, and from sorted_moduli's host copy when not (a
  // repeated column's first entry kept): both must hold the guarantees,
  // with the scale that keeps huge moduli's sums finite (1e200: the scale
  // is not 1; the matching's reported weights are divided back by it).
  for (std::uint64_t seed = 1; seed <= 24; ++seed) {
    const vertex_t m = vertex_t(2 + seed * 13 % 90), n = vertex_t(seed % 3 == 0 ? m : 2 + seed * 31 % 90);
    const Csr<double> a = check::random_matrix(m, n, seed % 2 ? 0.05 : 0.15, 3, 900 + seed);
    Csr<double> shuffled;  // each row reversed, its first entry repeated at the end with a larger modulus
    shuffled.n_rows = m;
    shuffled.n_cols = n;
    for (vertex_t i = 0; i < m; ++i) {
      for (offset_t k = a.offsets[i + 1]; k-- > a.offsets[i];) {
        shuffled.cols.push_back(a.cols[k]);
        shuffled.weights.push_back(a.weights[k]);
      }
      if (a.offsets[i + 1] > a.offsets[i]) {
        shuffled.cols.push_back(a.cols[a.offsets[i + 1] - 1]);
        shuffled.weights.push_back(100 * a.weights[a.offsets[i + 1] - 1]);
      }
      shuffled.offsets.push_back(offset_t(shuffled.cols.size()));
    }
    Csr<double> huge = a;
    for (double& w : huge.weights) w *= 1e200;
    for (const Csr<double>* b : {&shuffled, &huge}) {
      CAPTURE(seed);
      CAPTURE(b == &huge);
      // The reference: the same matrix without repeats (the first kept) and
      // in order, as awpm reads it.
      double scale = 1;
      const Csr<double> moduli = sorted_moduli(*b, scale);
      CHECK((scale != 1) == (b == &huge));
      for (const AwpmOptions::Start start : {AwpmOptions::Start::auction, AwpmOptions::Start::greedy}) {
        CAPTURE(int(start));
        const AwpmResult g = awpm_gpu(*b, {.start = start});
        check::require_valid_mates(moduli, g.mates);
        CHECK(g.mates.matched == check::bipartite_rank(moduli));
        CHECK(g.converged);
        const double got = prepass_result(moduli, 4, g.mates).objective / scale;
        CHECK(got == doctest::Approx(g.rounds.empty() ? g.maximum_weight : g.rounds.back().weight).epsilon(1e-9));
        CHECK(got <= check::best_bipartite(moduli, 4).second / scale * (1 + 1e-12));
        const check::FourCycle c = check::largest_4_cycle(moduli, g.mates.row_mate);
        CHECK(c.gain <= 1e-12 * std::max(1.0, got * scale) * (1 + 1e-9));
      }
    }
  }
}

TEST_CASE("awpm-gpu on the shared matrices: maximum cardinality; its gap to job 4 beside the CPU awpm's") {
  const std::vector<check::SharedMatrix> shared = check::shared_prepass_matrices();
  if (shared.empty()) MESSAGE("the shared collection is absent");
  double total = 0;
  int counted = 0;
  for (const check::SharedMatrix& s : shared) {
    CAPTURE(s.file);
    const AwpmResult g = awpm_gpu(s.a);
    check::require_valid_mates(s.a, g.mates);
    CHECK(g.mates.matched == max_cardinality_bipartite(s.a).matched);
    const AwpmResult cpu = awpm(s.a);
    const double optimum = prepass(s.a, {.job = 4}).objective;
    const double gw = prepass_result(s.a, 4, g.mates).objective, cw = prepass_result(s.a, 4, cpu.mates).objective;
    const double gap = optimum > 0 ? (optimum - gw) / optimum : 0;
    total += gap;
    ++counted;
    MESSAGE(s.file << ": awpm-gpu gap " << gap << ", awpm gap " << (optimum > 0 ? (optimum - cw) / optimum : 0)
                   << " (" << g.rounds.size() << " and " << cpu.rounds.size() << " rounds)");
  }
  if (counted > 0) {
    MESSAGE("awpm-gpu: mean gap over " << counted << " matrices " << total / counted);
    CHECK(total <= 0.02 * counted);
  }
}

// max-sum-gpu and max-product-gpu (matchers/bipartite/max_sum_gpu.cu,
// prepass_gpu): the CPU job's matched count and objective (1e-9 relative)
// on seeded random matrices with ties (square ones auctioned, some capped
// early; singular and rectangular ones on the host, said so), on every
// shared matrix and on generated solver matrices; job 5's scalings within
// the CPU version's bounds (symmetric mode too); through the registry
// (--job 4 / 5 --device gpu pick them); a bad GPU id refused.
namespace {

// a with every missing diagonal entry (i, i), i < min(m, n), added with
// weight 1 + i % 3 (a full structural rank), columns still ascending.
Csr<double> with_diagonal(const Csr<double>& a) {
  return check::with_diagonal(a, [](vertex_t i) { return double(1 + i % 3); });
}

// A seeded n x n matrix with a symmetric |A| (signs differ across the
// diagonal), the diagonal full, values from {1, 2, 3} (ties).
Csr<double> random_symmetric(vertex_t n, double density, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::bernoulli_distribution keep(density);
  std::vector<std::vector<std::pair<vertex_t, double>>> rows(n);
  for (vertex_t i = 0; i < n; ++i) {
    rows[i].push_back({i, double(1 + rng() % 3)});
    for (vertex_t j = i + 1; j < n; ++j)
      if (keep(rng)) {
        const double w = double(1 + rng() % 3);
        rows[i].push_back({j, w});
        rows[j].push_back({i, -w});
      }
  }
  Csr<double> a;
  a.n_rows = a.n_cols = n;
  a.offsets.assign(1, 0);
  for (auto& r : rows) {
    std::sort(r.begin(), r.end());
    for (const auto& [j, w] : r) {
      a.cols.push_back(j);
      a.weights.push_back(w);
    }
    a.offsets.push_back(static_cast<offset_t>(a.cols.size()));
  }
  return a;
}

// The GPU job equals the CPU job (count, objective), valid; job 5's
// scalings: |a_ij| exp(r_i + c_j) <= 1, = 1 on the matching (unless an
// explicit zero had to be matched).
AuctionGpuReport require_cpu_job(const Csr<double>& a, int job, const AuctionGpuOptions& auction = {},
                                 bool symmetric = false) {
  CAPTURE(job);
  const PrepassResult cpu = prepass(a, {.job = job, .symmetric = symmetric});
  AuctionGpuReport report;
  const PrepassResult g = prepass_gpu(a, {.job = job, .symmetric = symmetric}, {}, auction, &report);
  check::require_valid_mates(a, g.mates);
  CHECK(g.job == job);
  CHECK(g.mates.matched == cpu.mates.matched);
  CHECK(g.singular == cpu.singular);
  if (std::isfinite(cpu.objective))
    CHECK(std::fabs(g.objective - cpu.objective) <= 1e-9 * std::max(1.0, std::fabs(cpu.objective)));
  else
    CHECK(g.objective == cpu.objective);
  CHECK(report.fell_back == (a.n_rows != a.n_cols || cpu.singular || a.num_entries() == 0));
  if (!report.fell_back) {
    CHECK(report.phases >= 1);
    CHECK(report.repaired <= a.n_rows);
    // The device repair finishes on its own (the host's searches are its
    // fallback for rounding, which these matrices must not need).
    CHECK(report.host_repaired == auction.host_repair);
    if (!auction.host_repair) CHECK(report.repair_phases <= report.repaired);
  }
  CHECK(g.searches == report.repaired);
  if (job == 5) {
    REQUIRE(g.row_log_scale.size() == std::size_t(a.n_rows));
    REQUIRE(g.col_log_scale.size() == std::size_t(a.n_cols));
    // The flag says what the scalings are (the GPU's duals may be larger
    // than the CPU's where explicit zeros raised the auction's prices).
    const double limit = 0.5 * std::log(std::numeric_limits<double>::max());
    bool near = false;
    for (double x : g.row_log_scale) near |= !(std::fabs(x) < limit);
    for (double x : g.col_log_scale) near |= !(std::fabs(x) < limit);
    CHECK(g.scaling_near_overflow == near);
    if (near != cpu.scaling_near_overflow)
      MESSAGE("scalings near overflow: GPU " << near << ", CPU " << cpu.scaling_near_overflow);
    // The bounds up to the rounding of the duals, 1e-12 for duals of
    // magnitude <= 1 (the CPU test's), relative to their size beyond.
    double largest = 1;
    for (double x : g.row_log_scale) largest = std::max(largest, std::fabs(x));
    for (double x : g.col_log_scale) largest = std::max(largest, std::fabs(x));
    const double tol = 1e-12 * largest;
    const Csr<double> b = apply_log_scaling(a, g.row_log_scale, g.col_log_scale);
    for (vertex_t i = 0; i < a.n_rows; ++i)
      for (offset_t k = b.offsets[i]; k < b.offsets[i + 1]; ++k) {
        const double x = std::fabs(b.weights[k]);
        if (x > 1 + tol) FAIL_CHECK("row " << i << ", column " << b.cols[k] << ": scaled |a_ij| = " << x << " > 1");
        if (b.cols[k] == g.mates.row_mate[i] && a.weights[k] != 0 && std::fabs(x - 1) > tol)
          FAIL_CHECK("row " << i << " matched to column " << b.cols[k] << ": scaled |a_ij| = " << x << " != 1");
      }
  }
  return report;
}

}  // namespace

TEST_CASE("max-sum-gpu and max-product-gpu: the CPU job's count and objective on random matrices with ties") {
  int auctioned = 0, fell_back = 0, capped = 0, tails = 0;
  for (std::uint64_t seed = 1; seed <= 36; ++seed) {
    const vertex_t n = vertex_t(1 + seed * 37 % 250);
    const vertex_t cols = seed % 6 == 0 ? n + 3 : n;  // some wide
    const double density = seed % 3 == 0 ? 0.01 : seed % 3 == 1 ? 0.03 : 0.1;
    CAPTURE(seed);
    CAPTURE(n);
    Csr<double> a = check::random_matrix(n, cols, density, seed % 2 == 0 ? 3 : 0, seed);
    if (seed % 4 != 3) a = with_diagonal(a);  // nonsingular; the others mostly singular
    for (int job : {4, 5}) {
      const AuctionGpuReport r = require_cpu_job(a, job);
      (r.fell_back ? fell_back : auctioned) += 1;
      // Capped early: the repair finishes whatever the auction left.
      for (std::int64_t rounds : {0, 1, 3}) {
        const AuctionGpuReport c = require_cpu_job(a, job, {.max_rounds = rounds});
        capped += c.capped;
      }
      require_cpu_job(a, job, {.ratio = 16, .final_epsilon = 1e-3});  // a coarse auction
      require_cpu_job(a, job, {.host_repair = true});
      require_cpu_job(a, job, {.max_rounds = 1, .host_repair = true});
      // Every phase to the last row, and a tail of 5 rows left to the repair.
      const AuctionGpuReport whole = require_cpu_job(a, job, {.tail_rows = -1});
      if (!whole.fell_back && !whole.capped) CHECK(whole.assigned == a.n_rows);
      const AuctionGpuReport tail = require_cpu_job(a, job, {.tail_rows = 5});
      if (!tail.fell_back && !tail.capped) {
        CHECK(tail.tail == std::min<vertex_t>(5, a.n_rows));
        CHECK(tail.assigned >= a.n_rows - 5);
        ++tails;
      }
      // The phases before the last to their own tails (none; every row,
      // which the last phase's 5 rows cap), the last to 5 rows.
      for (std::int64_t earlier : {std::int64_t(-1), std::int64_t(a.n_rows)}) {
        const AuctionGpuReport own = require_cpu_job(a, job, {.tail_rows = 5, .earlier_tail_rows = earlier});
        if (!own.fell_back && !own.capped) CHECK(own.assigned >= a.n_rows - 5);
      }
    }
  }
  CHECK(auctioned > 20);
  CHECK(fell_back > 5);
  CHECK(capped > 20);
  CHECK(tails > 20);
}

TEST_CASE("max-sum-gpu and max-product-gpu: the CPU job on every shared matrix and the generated solver matrices") {
  const std::vector<check::SharedMatrix> shared = check::shared_prepass_matrices();
  if (shared.empty()) MESSAGE("the shared collection is absent: only the generated matrices are checked");
  for (const check::SharedMatrix& s : shared) {
    CAPTURE(s.file);
    for (int job : {4, 5}) {
      const AuctionGpuReport r = require_cpu_job(s.a, job);
      MESSAGE(s.file << " job " << job << ": " << (r.fell_back ? "host engine" : "auction") << ", " << r.phases
                     << " phases, " << r.rounds << " rounds, " << r.assigned << " assigned, " << r.repaired
                     << " repaired" << (r.capped ? " (capped)" : ""));
    }
  }
  for (const char* spec : {"stencil2d:100", "circuit:20000", "heavy:20000"}) {
    CAPTURE(spec);
    const Csr<double> a = solver_matrix(spec);
    for (int job : {4, 5}) require_cpu_job(a, job);
  }
}

TEST_CASE("max-sum-gpu and max-product-gpu: explicit zeros and values over 300 decades, the CPU job's optimum and bounds") {
  // Job 5 gives explicit zeros a stand-in cost far above the others; the
  // repair's phases through them shift whole regions of the duals by it,
  // and the canonical duals computed from such duals lost the digits the
  // bounds need (bayer10 on the CPU: 6e-11 above 1). The host checks the
  // device's canonical duals and computes them again where they break.
  std::mt19937_64 rng(300);
  std::uniform_real_distribution<double> unit(0, 1);
  for (std::uint64_t seed = 1; seed <= 24; ++seed) {
    CAPTURE(seed);
    Csr<double> a = with_diagonal(check::random_matrix(vertex_t(50 + seed * 97 % 900), vertex_t(50 + seed * 97 % 900),
                                                       seed % 2 ? 0.01 : 0.004, 0, seed));
    for (double& w : a.weights) {
      const double x = unit(rng);
      w = x < 0.15 ? 0.0 : std::copysign(std::pow(10.0, -150 + 300 * unit(rng)), x - 0.5);
    }
    for (int job : {4, 5}) require_cpu_job(a, job);
  }
}

TEST_CASE("max-product-gpu: the symmetric mode's one scaling within the bounds") {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) require_cpu_job(random_symmetric(150, 0.02, seed), 5, {}, true);
}

TEST_CASE("max-sum-gpu and max-product-gpu through the registry: --job 4 and 5 --device gpu; bad GPU ids refused") {
  for (const char* name : {"max-sum", "max-product"}) {
    CAPTURE(name);
    const MatcherInfo& cpu = find_matcher(name, Problem::bipartite);
    const MatcherInfo& gpu = on_device(cpu, Device::gpu);
    CHECK(gpu.name == std::string(name) + "-gpu");
    CHECK(&on_device(find_prepass_job(cpu.job), Device::gpu) == &gpu);
    const Csr<double> a = with_diagonal(check::random_matrix(200, 200, 0.02, 3, 5));
    const PrepassResult g = run_prepass(gpu, a, RunOptions{});
    const PrepassResult c = run_prepass(cpu, a, RunOptions{});
    CHECK(g.job == cpu.job);
    CHECK(g.mates.matched == c.mates.matched);
    CHECK(std::fabs(g.objective - c.objective) <= 1e-9 * std::max(1.0, std::fabs(c.objective)));
    CHECK(g.device_seconds >= 0);
    CHECK(g.perm.size() == 200);
  }
  GpuOptions bad;
  bad.device = 4096;
  const Csr<double> a = check::random_matrix(20, 20, 0.2, 0, 3);
  CHECK_THROWS_AS(prepass_gpu(a, {.job = 4}, bad), invalid_input);
  CHECK_THROWS_AS(prepass_gpu(a, {.job = 1}), invalid_input);
}

TEST_CASE("max-sum-gpu and max-product-gpu: rectangular and singular matrices on the host engine, said so") {
  // 4 x 5, and 4 x 4 with rows 0 and 1 both only in column 0 (rank 3).
  Csr<double> wide, singular;
  wide.n_rows = 4;
  wide.n_cols = 5;
  wide.offsets = {0, 2, 3, 5, 6};
  wide.cols = {0, 1, 0, 2, 4, 3};
  wide.weights = {1, 2, 3, 1, 0.5, 2};
  singular.n_rows = singular.n_cols = 4;
  singular.offsets = {0, 1, 2, 4, 6};
  singular.cols = {0, 0, 1, 2, 2, 3};
  singular.weights = {2, 3, 1, 4, 0.25, 1};
  for (const Csr<double>* a : {&wide, &singular})
    for (int job : {4, 5}) {
      const AuctionGpuReport r = require_cpu_job(*a, job);
      CHECK(r.fell_back);
      CHECK(r.phases == 0);
    }
  CHECK(prepass_gpu(singular, {.job = 4}).mates.matched == 3);
}

// The device repair's result directly: feasible duals, tight on a perfect
// matching, the optimum of the host engine; from a finished auction and from
// one stopped after 0 or 2 rounds (the repair then matches nearly every
// row), on tie-heavy integer costs and on log-normal costs over many decades.
TEST_CASE("max-sum-gpu's device repair: feasible duals tight on an optimal perfect matching") {
  int phases_over_one = 0, handovers = 0;
  std::int64_t early_stops = 0, phases = 0, maximum_matchings = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const vertex_t n = vertex_t(200 + seed * 131 % 1800);
    Csr<double> c = with_diagonal(check::random_matrix(n, n, seed % 2 ? 0.004 : 0.02, seed % 3 == 0 ? 0 : 4, seed));
    if (seed == 4)  // one cost everywhere: every reduced cost 0 (the distances' step is then infinite)
      for (double& w : c.weights) w = 2.5;
    if (seed % 3 == 0) {  // log-normal, sigma 6: costs over ten decades, some negative
      std::mt19937_64 rng(seed);
      std::lognormal_distribution<double> big(0, 6);
      for (double& w : c.weights) w = (rng() % 4 == 0 ? -1 : 1) * big(rng);
    }
    CAPTURE(seed);
    CAPTURE(n);
    const DualMatching cpu = min_cost_max_cardinality(c);
    for (std::int64_t rounds : {std::int64_t(5000), std::int64_t(2), std::int64_t(0)}) {
      CAPTURE(rounds);
      AuctionGpuReport report;
      const DualMatching g = min_cost_max_cardinality_gpu(c, {.max_rounds = rounds}, {}, &report);
      REQUIRE_FALSE(report.fell_back);
      CHECK_FALSE(report.host_repaired);
      phases_over_one += report.repair_phases > 1;
      early_stops += report.repair_early_stops;
      phases += report.repair_phases;
      maximum_matchings += report.repair_maximum_matchings;
      // One cost everywhere: every entry is tight, and every column's
      // predecessor may be one row, so the paths along the trees are few;
      // the maximum matching of the tight entries then finishes the phase
      // (along the trees alone: a phase a path or two).
      if (seed == 4) CHECK(report.repair_phases <= 3);
      CHECK(report.repair_early_stops <= report.repair_phases);
      CHECK(report.repair_maximum_matchings <= report.repair_phases);
      REQUIRE(g.mates.matched == n);
      check::require_valid_mates(c, g.mates);
      double largest = 0;
      for (double x : c.weights) largest = std::max(largest, std::fabs(x));
      for (double x : g.u) largest = std::max(largest, std::fabs(x));
      for (double x : g.v) largest = std::max(largest, std::fabs(x));
      const double tol = 1e-12 * largest * 8;
      double cost = 0;
      for (vertex_t i = 0; i < n; ++i)
        for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k) {
          const double r = c.weights[k] - g.u[i] - g.v[c.cols[k]];
          if (r < -tol) FAIL_CHECK("row " << i << ", column " << c.cols[k] << ": reduced cost " << r);
          if (c.cols[k] == g.mates.row_mate[i] && std::fabs(r) > tol)
            FAIL_CHECK("row " << i << " matched to column " << c.cols[k] << " at reduced cost " << r);
        }
      for (vertex_t i = 0; i < n; ++i)
        for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k)
          if (c.cols[k] == g.mates.row_mate[i]) {
            cost += c.weights[k];
            break;
          }
      CHECK(g.cost == cost);
      CHECK(std::fabs(g.cost - cpu.cost) <= 1e-9 * std::max(1.0, std::fabs(cpu.cost)));
    }
    // The canonical duals made on the device are the host's of the same
    // matching (they depend on it alone; the host, started from them, must
    // not move them). A device repair capped at 0 or 1 phases (after an
    // auction of no rounds, so that rows are left) hands what it has not
    // matched to the host's searches, and the host makes them.
    for (std::int64_t phases : {std::int64_t(-1), std::int64_t(0), std::int64_t(1)}) {
      CAPTURE(phases);
      AuctionGpuReport report;
      const DualMatching g = min_cost_max_cardinality_gpu(
          c, {.max_rounds = phases < 0 ? 5000 : 0, .repair_phases = phases, .canonical_duals = true}, {}, &report);
      CHECK(report.canonical_on_device == !report.host_repaired);
      if (phases < 0) {
        CHECK_FALSE(report.host_repaired);
      } else {
        CHECK(report.repair_phases <= phases);
        if (report.host_repaired) CHECK(report.repair_phases == phases);
        handovers += report.host_repaired;
      }
      REQUIRE(g.mates.matched == n);
      check::require_valid_mates(c, g.mates);
      CHECK(std::fabs(g.cost - cpu.cost) <= 1e-9 * std::max(1.0, std::fabs(cpu.cost)));
      DualMatching h = g;
      canonical_duals(c, h);
      double largest = 1;
      for (double x : h.v) largest = std::max(largest, std::fabs(x));
      for (double x : h.u) largest = std::max(largest, std::fabs(x));
      int differ = 0;
      for (vertex_t j = 0; j < n; ++j) differ += !(std::fabs(g.v[j] - h.v[j]) <= 1e-11 * largest);
      for (vertex_t i = 0; i < n; ++i) differ += !(std::fabs(g.u[i] - h.u[i]) <= 1e-11 * largest);
      CHECK(differ == 0);
    }
  }
  CHECK(phases_over_one > 5);  // the cases reach more than one phase
  CHECK(early_stops > 0);      // phases whose distances stopped once every free column was settled
  // Most phases augment along the shortest path trees alone; where ties
  // crowd the predecessors into few trees or close cycles of zero-cost
  // entries (one cost everywhere, seed 4), the maximum matching of the
  // tight entries follows. Both kinds run.
  MESSAGE("repair phases: " << phases << ", of them by a maximum matching: " << maximum_matchings);
  CHECK(maximum_matchings < phases);
  CHECK(maximum_matchings > 0);
  CHECK(handovers >= 10);      // and the host takes over after capped ones
}

// A small case for compute-sanitizer (memcheck, racecheck, synccheck): one
// auctioned matrix per job, capped and not.
TEST_CASE("max-sum-gpu sanitizer case: one small matrix per job") {
  const Csr<double> a = with_diagonal(check::random_matrix(64, 64, 0.08, 3, 2));
  for (int job : {4, 5}) {
    CHECK_FALSE(require_cpu_job(a, job).fell_back);
    require_cpu_job(a, job, {.max_rounds = 2});
  }
}
