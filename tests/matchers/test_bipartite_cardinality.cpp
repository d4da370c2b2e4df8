// max_cardinality_bipartite (matchers/bipartite/max_cardinality.hpp): every
// result validated (each pair an entry, no row or column twice, mates
// consistent), certified maximum by Berge's theorem (an alternating BFS from
// all free rows reaches no free column), and its size compared with Kuhn's
// simple augmenting-path algorithm written here independently.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <functional>
#include <limits>
#include <utility>
#include <random>
#include <vector>

#include "datasets/solver_matrices.hpp"
#include "lib/error.hpp"
#include "lib/omp_threads.hpp"
#include "lib/mmio.hpp"
#include "matchers/bipartite/max_cardinality.hpp"
#include "tests/check/bipartite_reference.hpp"
#include "tests/check/check.hpp"
#include "tests/check/shared_collection.hpp"

using namespace matchblas;

namespace {

Csr<double> random_bipartite(vertex_t m, vertex_t n, double density, std::mt19937& rng) {
  Csr<double> a;
  a.n_rows = m;
  a.n_cols = n;
  std::bernoulli_distribution keep(density);
  for (vertex_t i = 0; i < m; ++i) {
    for (vertex_t j = 0; j < n; ++j)
      if (keep(rng)) {
        a.cols.push_back(j);
        a.weights.push_back(0.0);  // explicit zeros: the pattern alone counts
      }
    a.offsets.push_back(static_cast<offset_t>(a.cols.size()));
  }
  return a;
}

}  // namespace

TEST_CASE("bipartite max cardinality: empty, one entry, structurally singular") {
  Csr<double> empty;
  auto r0 = max_cardinality_bipartite(empty);
  CHECK(r0.matched == 0);

  Csr<double> a;  // 3x3, rows 0 and 1 only reach column 0: structural rank 2
  a.n_rows = 3;
  a.n_cols = 3;
  a.offsets = {0, 1, 2, 5};
  a.cols = {0, 0, 0, 1, 2};
  a.weights = {1, 2, 3, 4, 5};
  auto r = max_cardinality_bipartite(a);
  check::require_valid_mates(a, r);
  CHECK(r.matched == 2);
  CHECK_FALSE(check::has_augmenting_path(a, r));
}

TEST_CASE("bipartite max cardinality: random square and rectangular, against Kuhn") {
  std::mt19937 rng(18);
  for (int trial = 0; trial < 300; ++trial) {
    const vertex_t m = static_cast<vertex_t>(rng() % 40);
    const vertex_t n = static_cast<vertex_t>(rng() % 40);
    const double density = (rng() % 100) / 400.0;
    const auto a = random_bipartite(m, n, density, rng);
    const auto r = max_cardinality_bipartite(a);
    check::require_valid_mates(a, r);
    CHECK_FALSE(check::has_augmenting_path(a, r));
    CHECK(r.matched == check::bipartite_rank(a));
  }
}

TEST_CASE("bipartite max cardinality: malformed input throws") {
  Csr<double> a;
  a.n_rows = 1;
  a.n_cols = 2;
  a.offsets = {0, 1};
  a.cols = {5};
  a.weights = {1.0};
  CHECK_THROWS_AS(max_cardinality_bipartite(a), invalid_input);
}

// Every matrix of the shared collection: the matched count equals the
// structural rank recorded in MANIFEST.tsv (computed there with scipy).
TEST_CASE("bipartite max cardinality: shared matrices reach their structural rank") {
  const auto dir = check::shared_matrices();
  if (!dir) {
    MESSAGE("shared matrices absent (MATCHBLAS_SHARED_MATRICES): skipped");
    return;
  }
  int checked = 0;
  for (const check::SharedMatrix& sm : check::shared_prepass_matrices()) {
    if (sm.structural_rank < 0) continue;
    const Csr<double>& a = sm.a;  // the entries, explicit zeros included, are the pattern
    const auto r = max_cardinality_bipartite(a);
    INFO(sm.file);
    check::require_valid_mates(a, r);
    CHECK_FALSE(check::has_augmenting_path(a, r));
    CHECK(r.matched == sm.structural_rank);
    ++checked;
  }
  MESSAGE("checked " << checked << " shared matrices");
  CHECK(checked > 0);
}

TEST_CASE("bipartite max cardinality by breadth-first phases: from the empty and from partial starts, against Kuhn") {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const vertex_t m = vertex_t(1 + seed * 37 % 150), n = vertex_t(1 + seed * 53 % 150);
    CAPTURE(seed);
    const Csr<double> a = check::random_matrix(m, n, seed % 3 == 0 ? 0.01 : 0.05, 3, seed);
    BipartiteMates empty;
    empty.row_mate.assign(std::size_t(m), -1);
    empty.col_mate.assign(std::size_t(n), -1);
    const BipartiteMates x = max_cardinality_bipartite_bfs(a, empty);
    check::require_valid_mates(a, x);
    CHECK(x.matched == check::bipartite_rank(a));
    CHECK_FALSE(check::has_augmenting_path(a, x));
    // From a partial start (every other row of a maximum matching): the
    // start's rows stay matched (augmenting paths never unmatch a vertex).
    BipartiteMates half = empty;
    for (vertex_t i = 0; i < m; i += 2)
      if (const vertex_t j = x.row_mate[i]; j >= 0) {
        half.row_mate[i] = j;
        half.col_mate[j] = i;
        ++half.matched;
      }
    const BipartiteMates y = max_cardinality_bipartite_bfs(a, half);
    check::require_valid_mates(a, y);
    CHECK(y.matched == x.matched);
    for (vertex_t i = 0; i < m; i += 2) CHECK((half.row_mate[i] < 0 || y.row_mate[i] >= 0));
  }
  BipartiteMates wrong;
  wrong.row_mate.assign(3, -1);
  CHECK_THROWS_AS(max_cardinality_bipartite_bfs(check::random_matrix(4, 4, 0.5, 1, 1), wrong), invalid_input);
}

// The breadth-first phases as one first-in first-out loop, written plainly:
// the reference for both readings of max_cardinality_bipartite_bfs.
BipartiteMates fifo_phases(const Csr<double>& a, BipartiteMates x) {
  const vertex_t m = a.n_rows, n = a.n_cols;
  while (true) {
    std::vector<vertex_t> col_pred(std::size_t(n), -1), root_of(std::size_t(m), -1), queue, ends;
    std::vector<char> done(std::size_t(m), 0);
    for (vertex_t i = 0; i < m; ++i)
      if (x.row_mate[i] < 0 && a.degree(i) > 0) queue.push_back(root_of[i] = i);
    for (std::size_t h = 0; h < queue.size(); ++h) {
      const vertex_t i = queue[h], r = root_of[i];
      for (offset_t k = a.offsets[i]; k < a.offsets[i + 1] && !done[r]; ++k) {
        const vertex_t j = a.cols[k];
        if (col_pred[j] >= 0) continue;
        col_pred[j] = i;
        if (x.col_mate[j] < 0) {
          done[r] = 1;
          ends.push_back(j);
        } else {
          root_of[x.col_mate[j]] = r;
          queue.push_back(x.col_mate[j]);
        }
      }
    }
    if (ends.empty()) return x;
    for (vertex_t j : ends)
      for (vertex_t c = j;;) {
        const vertex_t i = col_pred[c], before = x.row_mate[i];
        x.row_mate[i] = c;
        x.col_mate[c] = i;
        if (before < 0) break;
        c = before;
      }
    ++x.matched;
  }
}

TEST_CASE("bipartite max cardinality by breadth-first phases: levels on teams give the one-thread matching") {
  // The team's three passes (free columns settled in queue order, claims by
  // the smallest queue place, winners listing mates in order) against the
  // first-in first-out reading, level for level: every level on the team
  // (team_rows 1) or the large ones (64), on 1-4 threads, from the empty
  // start (every row a root) and from a maximum matching with every 7th
  // row unmatched (few roots, deep trees), on meshes, circuit-like and
  // heavy-tailed solver matrices, random rectangular matrices, and rows
  // holding duplicate columns out of order.
  std::vector<Csr<double>> matrices = {solver_matrix("stencil2d:60"), solver_matrix("stencil3d:14"),
                                       solver_matrix("circuit:4000"), solver_matrix("heavy:4000")};
  std::mt19937 rng(11);
  for (const auto& [m, n] : {std::pair{300, 420}, std::pair{420, 300}, std::pair{500, 500}})
    matrices.push_back(random_bipartite(m, n, 4.0 / n, rng));
  {
    Csr<double> d = check::random_matrix(400, 400, 0.01, 1, 5), dup;
    dup.n_rows = d.n_rows;
    dup.n_cols = d.n_cols;
    for (vertex_t i = 0; i < d.n_rows; ++i) {
      for (offset_t k = d.offsets[i + 1]; k-- > d.offsets[i];) {  // reversed, the first entry twice
        dup.cols.push_back(d.cols[k]);
        dup.weights.push_back(1);
      }
      if (d.degree(i) > 0) {
        dup.cols.push_back(d.cols[d.offsets[i]]);
        dup.weights.push_back(1);
      }
      dup.offsets.push_back(offset_t(dup.cols.size()));
    }
    matrices.push_back(dup);
    Csr<double> pattern = check::random_matrix(300, 300, 0.02, 1, 9);
    pattern.weights.clear();  // a pattern: no values at all
    matrices.push_back(pattern);
  }
  int checked = 0;
  for (std::size_t t = 0; t < matrices.size(); ++t) {
    const Csr<double>& a = matrices[t];
    CAPTURE(t);
    BipartiteMates empty;
    empty.row_mate.assign(std::size_t(a.n_rows), no_vertex);
    empty.col_mate.assign(std::size_t(a.n_cols), no_vertex);
    BipartiteMates sparse = [&] {
      const ScopedThreads one(1);
      return detail::max_cardinality_bipartite_bfs(a, empty, std::numeric_limits<std::size_t>::max(), 1);
    }();
    for (vertex_t i = 0; i < a.n_rows; i += 7)
      if (const vertex_t j = sparse.row_mate[i]; j >= 0) {
        sparse.row_mate[i] = sparse.col_mate[j] = no_vertex;
        --sparse.matched;
      }
    for (const BipartiteMates& start : {empty, sparse}) {
      BipartiteMates one;
      {
        const ScopedThreads scope(1);
        one = detail::max_cardinality_bipartite_bfs(a, start, std::numeric_limits<std::size_t>::max(), 1);
      }
      CHECK(one.row_mate == fifo_phases(a, start).row_mate);
      Csr<double> valued = a;  // the checks read values
      valued.weights.assign(a.cols.size(), 1.0);
      check::require_valid_mates(valued, one);
      CHECK(one.matched == check::bipartite_rank(valued));
      for (const int threads : {1, 2, 3, 4})
        for (const std::size_t team_rows : {std::size_t(1), std::size_t(64)}) {
          CAPTURE(threads);
          CAPTURE(team_rows);
          const ScopedThreads scope(threads);
          const BipartiteMates team = detail::max_cardinality_bipartite_bfs(a, start, team_rows, 1);
          CHECK(team.row_mate == one.row_mate);
          CHECK(team.col_mate == one.col_mate);
          CHECK(team.matched == one.matched);
          ++checked;
        }
    }
  }
  CHECK(checked == 9 * 2 * 8);
  // A start whose two mate arrays disagree is refused.
  const Csr<double> a = check::random_matrix(20, 20, 0.3, 1, 3);
  BipartiteMates bad;
  bad.row_mate.assign(20, no_vertex);
  bad.col_mate.assign(20, no_vertex);
  bad.col_mate[4] = 7;  // row 7 is free
  CHECK_THROWS_AS(max_cardinality_bipartite_bfs(a, bad), invalid_input);
  bad.col_mate[4] = no_vertex;
  bad.row_mate[2] = 25;  // out of range
  CHECK_THROWS_AS(max_cardinality_bipartite_bfs(a, bad), invalid_input);
}
