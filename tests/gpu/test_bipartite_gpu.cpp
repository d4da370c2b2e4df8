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
#include <string>
#include <vector>

#include "datasets/solver_matrices.hpp"
#include "lib/error.hpp"
#include "matchers/bipartite/awpm.hpp"
#include "matchers/bipartite/max_cardinality.hpp"
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

// awpm-gpu (matchers/bipartite/awpm_gpu.cu): the CPU awpm's start weight
// (the same greedy matching), a maximum matching, rounds that never lose
// weight, at most job 4's optimum (small matrices), no 4-cycle gaining more
// than the threshold at convergence (the independent brute force); on the
// shared matrices its final weight beside the CPU awpm's, as messages.
TEST_CASE("awpm-gpu: the CPU's start, maximum cardinality, no gaining 4-cycle, never above the optimum") {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const vertex_t m = vertex_t(1 + seed * 29 % 120), n = vertex_t(1 + seed * 41 % 120);
    const double density = seed % 3 == 0 ? 0.02 : 0.08;
    CAPTURE(seed);
    const Csr<double> a = check::random_matrix(m, n, density, 3, seed);
    const AwpmResult cpu = awpm(a);
    const AwpmResult g = awpm_gpu(a);
    check::require_valid_mates(a, g.mates);
    CHECK(g.mates.matched == check::bipartite_rank(a));
    CHECK(g.start_weight == doctest::Approx(cpu.start_weight).epsilon(1e-12));
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

TEST_CASE("awpm-gpu on the shared matrices: maximum cardinality; its weight beside the CPU awpm's") {
  const std::vector<check::SharedMatrix> shared = check::shared_prepass_matrices();
  if (shared.empty()) MESSAGE("the shared collection is absent");
  for (const check::SharedMatrix& s : shared) {
    CAPTURE(s.file);
    const AwpmResult g = awpm_gpu(s.a);
    check::require_valid_mates(s.a, g.mates);
    CHECK(g.mates.matched == max_cardinality_bipartite(s.a).matched);
    const AwpmResult cpu = awpm(s.a);
    const double gw = g.rounds.empty() ? g.maximum_weight : g.rounds.back().weight;
    const double cw = cpu.rounds.empty() ? cpu.maximum_weight : cpu.rounds.back().weight;
    MESSAGE(s.file << ": awpm-gpu " << gw << ", awpm " << cw << " (" << g.rounds.size() << " and " << cpu.rounds.size()
                   << " rounds)");
  }
}
