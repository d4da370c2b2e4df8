// cardinality-gpu (matchers/bipartite/max_cardinality_gpu.cu): a valid
// matching of the same size as the CPU job 1's (and Kuhn's, an independent
// reference), with no augmenting path left (Berge), on seeded random
// matrices of every shape (square, wide, tall, empty rows and columns, Hall
// violators, 0 x n), repeated to shake out races; on every matrix of the
// shared collection (their MANIFEST structural rank) and on the pre-pass
// benchmark's generated matrices; through the registry (run_prepass: the
// permutation and report of the CPU entry's form); a bad GPU id refused.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "datasets/solver_matrices.hpp"
#include "lib/error.hpp"
#include "matchers/bipartite/max_cardinality.hpp"
#include "matchers/registry.hpp"
#include "tests/check/bipartite_reference.hpp"
#include "tests/check/check.hpp"
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
