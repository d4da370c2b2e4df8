// max_cardinality_omp (matchers/bipartite/max_cardinality_omp.hpp): every
// result validated (each pair an entry, no row or column twice, mates
// symmetric, the count right), its size equal to the sequential
// max_cardinality_bipartite's and to Kuhn's (tests/check/bipartite_reference)
// on random matrices of every shape and rank at 1, 2 and 4 threads, run
// again and again to shake out races; the shared matrices against their
// structural rank (MANIFEST.tsv); large generated solver matrices; bad
// input; the registry entry.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "datasets/solver_matrices.hpp"
#include "lib/error.hpp"
#include "lib/mmio.hpp"
#include "matchers/bipartite/max_cardinality.hpp"
#include "matchers/bipartite/max_cardinality_omp.hpp"
#include "matchers/bipartite/prepass.hpp"
#include "matchers/registry.hpp"
#include "tests/check/bipartite_reference.hpp"
#include "tests/check/check.hpp"
#include "tests/check/shared_collection.hpp"

using namespace matchblas;

TEST_CASE("cardinality-omp: empty, no entries, one entry, structurally singular") {
  for (int threads : {1, 2, 4}) {
    CAPTURE(threads);
    Csr<double> empty;
    CHECK(max_cardinality_omp(empty, threads).matched == 0);

    Csr<double> none;  // 3 x 2, no entries
    none.n_rows = 3;
    none.n_cols = 2;
    none.offsets = {0, 0, 0, 0};
    const auto r0 = max_cardinality_omp(none, threads);
    check::require_valid_mates(none, r0);
    CHECK(r0.matched == 0);

    Csr<double> a;  // 3x3, rows 0 and 1 only reach column 0: structural rank 2
    a.n_rows = 3;
    a.n_cols = 3;
    a.offsets = {0, 1, 2, 5};
    a.cols = {0, 0, 0, 1, 2};
    a.weights = {1, 2, 3, 4, 5};
    const auto r = max_cardinality_omp(a, threads);
    check::require_valid_mates(a, r);
    CHECK(r.matched == 2);
    CHECK_FALSE(check::has_augmenting_path(a, r));
  }
}

TEST_CASE("cardinality-omp: random matrices of every shape and rank, 1, 2 and 4 threads") {
  for (int trial = 0; trial < 300; ++trial) {
    const std::uint64_t seed = 7000 + std::uint64_t(trial);
    CAPTURE(seed);
    std::mt19937 rng(static_cast<std::uint32_t>(seed));
    // Mostly small (every shape), every tenth up to 400 x 400 so that the
    // phases have many roots to share out.
    const vertex_t span = trial % 10 == 9 ? 400 : 40;
    const vertex_t m = vertex_t(rng() % span), n = vertex_t(rng() % span);
    const double density = trial % 10 == 9 ? 0.5 * (1 + rng() % 8) / std::max<vertex_t>(1, std::max(m, n))
                                           : (rng() % 100) / 400.0;
    const Csr<double> a = check::random_matrix(m, n, density, 0, seed);
    const vertex_t rank = check::bipartite_rank(a);
    CHECK(max_cardinality_bipartite(a).matched == rank);
    // The small ones give a thread a chunk of roots or two at most, so they
    // are run once; the larger ones, which share out their roots, three times.
    const int reps = span > 40 ? 3 : 1;
    for (int threads : {1, 2, 4})
      for (int rep = 0; rep < reps; ++rep) {
        CAPTURE(threads);
        CAPTURE(rep);
        const auto r = max_cardinality_omp(a, threads);
        check::require_valid_mates(a, r);
        REQUIRE(r.matched == rank);
        CHECK_FALSE(check::has_augmenting_path(a, r));
      }
  }
}

// Large enough that every phase shares hundreds of roots among the threads,
// sparse enough to be structurally singular (searches that fail meet
// searches that succeed), wide and tall: many runs, each against the rank.
TEST_CASE("cardinality-omp: mid-size sparse matrices, singular and not, 2 and 4 threads, many runs") {
  for (int trial = 0; trial < 6; ++trial) {
    const std::uint64_t seed = 8200 + std::uint64_t(trial);
    CAPTURE(seed);
    const vertex_t m = trial % 3 == 2 ? 1500 : 3000, n = trial % 3 == 1 ? 1500 : 3000;
    const double degree = trial < 3 ? 1.5 : 3.0;  // below and above the threshold of a perfect matching
    const Csr<double> a = check::random_matrix(m, n, degree / double(n), 0, seed);
    const vertex_t rank = max_cardinality_bipartite(a).matched;
    for (int threads : {2, 4})
      for (int rep = 0; rep < 10; ++rep) {
        CAPTURE(threads);
        CAPTURE(rep);
        const auto r = max_cardinality_omp(a, threads);
        check::require_valid_mates(a, r);
        REQUIRE(r.matched == rank);
      }
    CHECK_FALSE(check::has_augmenting_path(a, max_cardinality_omp(a, 2)));
  }
}

TEST_CASE("cardinality-omp: unsorted rows with duplicates, float weights") {
  for (int trial = 0; trial < 40; ++trial) {
    const std::uint64_t seed = 9100 + std::uint64_t(trial);
    CAPTURE(seed);
    const Csr<double> a = check::scramble_rows(check::random_matrix(60, 50, 0.06, 0, seed), seed);
    const vertex_t rank = check::bipartite_rank(a);
    const Csr<float> f = check::with_weights<float>(a);
    for (int threads : {1, 2, 4}) {
      CAPTURE(threads);
      const auto r = max_cardinality_omp(f, threads);
      check::require_valid_mates(f, r);
      CHECK(r.matched == rank);
    }
  }
}

TEST_CASE("cardinality-omp: large solver matrices, equal to the sequential count, repeated") {
  for (const char* spec : {"stencil2d:300", "circuit:100000", "heavy:100000"}) {
    CAPTURE(spec);
    const Csr<double> a = solver_matrix(spec);
    const vertex_t want = max_cardinality_bipartite(a).matched;
    CHECK(want == a.n_rows);  // the generators are structurally nonsingular
    for (int threads : {1, 2, 4})
      for (int rep = 0; rep < 2; ++rep) {
        CAPTURE(threads);
        MaxCardinalityOmpStats stats;
        const auto r = max_cardinality_omp(a, threads, &stats);
        check::require_valid_mates(a, r);
        CHECK(r.matched == want);
        CHECK(stats.start_matched <= r.matched);
        CHECK(stats.phases >= 1);
      }
  }
}

TEST_CASE("cardinality-omp: malformed input throws") {
  Csr<double> a;
  a.n_rows = 1;
  a.n_cols = 2;
  a.offsets = {0, 1};
  a.cols = {5};
  a.weights = {1.0};
  CHECK_THROWS_AS(max_cardinality_omp(a, 2), invalid_input);
  a.cols = {-1};
  CHECK_THROWS_AS(max_cardinality_omp(a, 2), invalid_input);
  a.cols = {1};
  a.offsets = {0, 2};  // more than the entries
  CHECK_THROWS_AS(max_cardinality_omp(a, 2), invalid_input);
  a.n_rows = 2;
  a.offsets = {0, 1, 0};  // decreasing
  CHECK_THROWS_AS(max_cardinality_omp(a, 2), invalid_input);
}

TEST_CASE("cardinality-omp: the registry entry, and job 1 still finds the sequential one") {
  const MatcherInfo& m = find_matcher("cardinality-omp", Problem::bipartite);
  CHECK(m.job == 1);
  CHECK(m.guarantee == "cardinality");
  CHECK(m.threaded);
  CHECK_FALSE(m.deterministic);
  CHECK(find_prepass_job(1).name == "cardinality");

  const Csr<double> a = check::random_matrix(30, 30, 0.08, 0, 31);
  RunOptions run;
  run.threads = 2;
  const PrepassResult r = run_prepass(m, a, run);
  check::require_valid_mates(a, r.mates);
  CHECK(r.job == 1);
  CHECK(r.objective == double(check::bipartite_rank(a)));
  CHECK(r.perm.size() == 30);
  CHECK(r.singular == (r.mates.matched < 30));
  const PrepassResult seq = prepass(a, {.job = 1});
  CHECK(r.mates.matched == seq.mates.matched);

  Csr<double> bad = a;
  bad.weights[0] = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_AS(run_prepass(m, bad, run), invalid_input);
}

// Every matrix of the shared collection: the matched count equals the
// structural rank recorded in MANIFEST.tsv and the sequential count, at 1,
// 2 and 4 threads.
TEST_CASE("cardinality-omp: shared matrices reach their structural rank") {
  const auto dir = check::shared_matrices();
  if (!dir) {
    MESSAGE("shared matrices absent (MATCHBLAS_SHARED_MATRICES): skipped");
    return;
  }
  int checked = 0;
  for (const check::SharedMatrix& sm : check::shared_prepass_matrices()) {
    if (sm.structural_rank < 0) continue;
    const Csr<double>& a = sm.a;  // the entries, explicit zeros included, are the pattern
    INFO(sm.file);
    CHECK(max_cardinality_bipartite(a).matched == sm.structural_rank);
    for (int threads : {1, 2, 4}) {
      CAPTURE(threads);
      const auto r = max_cardinality_omp(a, threads);
      check::require_valid_mates(a, r);
      CHECK(r.matched == sm.structural_rank);
    }
    ++checked;
  }
  MESSAGE("checked " << checked << " shared matrices");
  CHECK(checked > 0);
}
