// The warm starts of the shortest-augmenting-path engine
// (matchers/bipartite/shortest_augmenting.hpp): min_cost_row_perfect from
// given duals and a partial matching, and from column duals alone (the
// repair behind max-sum-gpu and max-product-gpu). On random matrices with
// ties (square and wide) and on the shared matrices' job 4 and job 5 costs:
// from random feasible duals with no matching, from the optimal duals with
// part of the optimal matching, and from perturbed column duals with a
// perturbed matching, the cost equals the cold start's (1e-9 relative), the
// matching is valid and row-perfect, the duals feasible and tight on it. A
// start that breaks a condition is refused with invalid_input. From an
// auction's epsilon-optimal prices (the GPU entries' case) the pairs are
// kept and few rows searched.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "lib/error.hpp"
#include "matchers/bipartite/prepass.hpp"
#include "matchers/bipartite/shortest_augmenting.hpp"
#include "matchers/bipartite/shortest_augmenting_detail.hpp"
#include "matchers/bipartite/auction_start.hpp"
#include "matchers/registry.hpp"
#include "tests/check/bipartite_reference.hpp"
#include "tests/check/check.hpp"
#include "tests/check/shared_collection.hpp"
#include "datasets/solver_matrices.hpp"

using namespace matchblas;

namespace {

// A random m x n cost matrix (m <= n) with integer costs from {-levels..levels}
// (ties abound) and a full row rank (the entry (i, i) always present).
Csr<double> random_costs(vertex_t m, vertex_t n, double density, int levels, std::mt19937& rng) {
  Csr<double> c;
  c.n_rows = m;
  c.n_cols = n;
  std::bernoulli_distribution keep(density);
  std::uniform_int_distribution<int> value(-levels, levels);
  for (vertex_t i = 0; i < m; ++i) {
    for (vertex_t j = 0; j < n; ++j)
      if (i == j || keep(rng)) {
        c.cols.push_back(j);
        c.weights.push_back(value(rng));
      }
    c.offsets.push_back(static_cast<offset_t>(c.cols.size()));
  }
  return c;
}

// MC64's first column duals, independently of the engine: v0_j = min_i
// (c_ij - min_k c_ik), the bound canonical_duals' result stays at or below.
std::vector<double> mc64_first_column_duals(const Csr<double>& c) {
  std::vector<double> row_min(std::size_t(c.n_rows), 1e300), v0(std::size_t(c.n_cols), 1e300);
  for (vertex_t i = 0; i < c.n_rows; ++i)
    for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k) row_min[i] = std::min(row_min[i], c.weights[k]);
  for (vertex_t i = 0; i < c.n_rows; ++i)
    for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k)
      v0[c.cols[k]] = std::min(v0[c.cols[k]], c.weights[k] - row_min[i]);
  return v0;
}

// d is a row-perfect matching of c with feasible duals, tight on it, and its
// cost is `expected` (1e-9 relative).
void require_optimal(const Csr<double>& c, const DualMatching& d, double expected) {
  REQUIRE(d.mates.matched == c.n_rows);
  check::require_valid_mates(c, d.mates);
  double cost = 0, scale = 1, largest = 0;
  for (double x : c.weights) largest = std::max(largest, std::fabs(x));
  for (double x : d.u) largest = std::max(largest, std::fabs(x));
  for (double x : d.v) largest = std::max(largest, std::fabs(x));
  const double tol = 1e-12 * largest;
  for (vertex_t i = 0; i < c.n_rows; ++i)
    for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k) {
      const vertex_t j = c.cols[k];
      const double reduced = c.weights[k] - d.u[i] - d.v[j];
      if (reduced < -tol) FAIL_CHECK("row " << i << ", column " << j << ": reduced cost " << reduced << " < 0");
      if (d.mates.row_mate[i] == j) {
        if (std::fabs(reduced) > tol) FAIL_CHECK("row " << i << " matched to " << j << ": reduced cost " << reduced);
        cost += c.weights[k];
        scale += std::fabs(c.weights[k]);
      }
    }
  if (c.n_rows < c.n_cols)
    for (vertex_t j = 0; j < c.n_cols; ++j)
      if (d.v[j] > 0 || (d.mates.col_mate[j] < 0 && d.v[j] != 0)) FAIL_CHECK("column " << j << ": dual " << d.v[j]);
  CHECK(std::fabs(d.cost - expected) <= 1e-9 * std::max(1.0, std::fabs(expected)));
  CHECK(std::fabs(cost - d.cost) <= 1e-12 * scale);
}

// Random feasible duals and no matching: v random (0 with more columns
// than rows, where every column starts free), u_i = min_j (c_ij - v_j).
DualMatching random_feasible_start(const Csr<double>& c, std::mt19937& rng) {
  DualMatching s;
  s.mates.row_mate.assign(c.n_rows, -1);
  s.mates.col_mate.assign(c.n_cols, -1);
  std::uniform_real_distribution<double> noise(-3, 3);
  s.v.assign(c.n_cols, 0);
  if (c.n_rows == c.n_cols)
    for (double& x : s.v) x = noise(rng);
  s.u.assign(c.n_rows, 0);
  for (vertex_t i = 0; i < c.n_rows; ++i) {
    double best = INFINITY;
    for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k) best = std::min(best, c.weights[k] - s.v[c.cols[k]]);
    s.u[i] = best;
  }
  return s;
}

// The optimal duals with a random part of the optimal matching (with more
// columns than rows, only columns of dual 0 may become free).
DualMatching partial_optimum(DualMatching d, std::mt19937& rng) {
  const bool wide = d.u.size() < d.v.size();
  for (vertex_t i = 0; i < vertex_t(d.mates.row_mate.size()); ++i)
    if (d.mates.row_mate[i] >= 0 && rng() % 2 == 0 && (!wide || d.v[d.mates.row_mate[i]] == 0)) {
      d.mates.col_mate[d.mates.row_mate[i]] = -1;
      d.mates.row_mate[i] = -1;
      --d.mates.matched;
    }
  return d;
}

// Column duals off by noise of `size`, and a matching of entries that
// agrees with the optimum on some rows and is arbitrary elsewhere (each row
// takes its first free column, in a random row order).
std::pair<std::vector<double>, BipartiteMates> perturbed(const Csr<double>& c, const DualMatching& d, double size,
                                                        std::mt19937& rng) {
  std::vector<double> v = d.v;
  std::uniform_real_distribution<double> noise(-size, size);
  for (double& x : v) x += noise(rng);
  BipartiteMates mates;
  mates.row_mate.assign(c.n_rows, -1);
  mates.col_mate.assign(c.n_cols, -1);
  for (vertex_t i = 0; i < c.n_rows; ++i)
    if (rng() % 3 == 0) {
      mates.row_mate[i] = d.mates.row_mate[i];
      mates.col_mate[d.mates.row_mate[i]] = i;
    }
  std::vector<vertex_t> order(c.n_rows);
  for (vertex_t i = 0; i < c.n_rows; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  for (vertex_t i : order)
    for (offset_t k = c.offsets[i]; k < c.offsets[i + 1] && mates.row_mate[i] < 0; ++k)
      if (mates.col_mate[c.cols[k]] < 0) {
        mates.row_mate[i] = c.cols[k];
        mates.col_mate[c.cols[k]] = i;
      }
  for (vertex_t j : mates.row_mate) mates.matched += j >= 0;
  return {std::move(v), std::move(mates)};
}

// Every warm start of c against the cold start. With integer costs the
// arithmetic is exact, so the cold start's duals and matching are tight as
// given and the repair from them searches nothing; with real costs their
// rounding may free a few pairs.
void require_warm_starts(const Csr<double>& c, std::mt19937& rng, bool integer_costs) {
  const DualMatching cold = min_cost_row_perfect(c);

  double span = 1;
  for (double w : c.weights) span = std::max(span, std::fabs(w));
  {
    INFO("random feasible duals, no matching");
    const DualMatching w = min_cost_row_perfect(c, random_feasible_start(c, rng));
    require_optimal(c, w, cold.cost);
  }
  {
    INFO("the optimal duals, part of the optimal matching");
    const DualMatching start = partial_optimum(cold, rng);
    const DualMatching w = min_cost_row_perfect(c, start);
    require_optimal(c, w, cold.cost);
    CHECK(w.searches == c.n_rows - start.mates.matched);
  }
  {
    INFO("the optimal duals and matching: nothing to search");
    const DualMatching w = min_cost_row_perfect(c, cold);
    require_optimal(c, w, cold.cost);
    CHECK(w.searches == 0);
  }
  for (double size : {0.0, 1e-9 * span, 0.1 * span, 10 * span}) {
    INFO("perturbed column duals and matching, noise " << size);
    auto [v, mates] = perturbed(c, cold, size, rng);
    require_optimal(c, min_cost_row_perfect_from_column_duals(c, std::move(v), std::move(mates)), cold.cost);
  }
  {
    INFO("the optimal column duals and matching: nothing to search");
    const DualMatching w = min_cost_row_perfect_from_column_duals(c, cold.v, cold.mates);
    require_optimal(c, w, cold.cost);
    if (integer_costs) CHECK(w.searches == 0);
  }
}

// greatest_column_shifts' problem by Bellman-Ford: x_j <= x0_j and
// x_j <= x_{M(i)} + max(0, c_ij - u_i - v_j), the sums in path order.
std::vector<double> shifts_by_bellman_ford(const Csr<double>& c, const DualMatching& d, std::vector<double> x) {
  for (bool lowered = true; lowered;) {
    lowered = false;
    for (vertex_t i = 0; i < c.n_rows; ++i)
      for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k) {
        const vertex_t j = c.cols[k];
        const double through = x[d.mates.row_mate[i]] + std::max(0.0, c.weights[k] - d.u[i] - d.v[j]);
        if (through < x[j]) {
          x[j] = through;
          lowered = true;
        }
      }
  }
  return x;
}

}  // namespace

TEST_CASE("warm start: random matrices with ties, square and wide, every start gives the cold start's cost") {
  std::mt19937 rng(19);
  for (int trial = 0; trial < 300; ++trial) {
    const vertex_t m = 1 + vertex_t(rng() % 40), n = m + (trial % 3 == 0 ? vertex_t(rng() % 6) : 0);
    const Csr<double> c = random_costs(m, n, 0.05 + (rng() % 6) / 20.0, 1 + trial % 6, rng);
    CAPTURE(trial);
    CAPTURE(m);
    CAPTURE(n);
    require_warm_starts(c, rng, true);
  }
}

TEST_CASE("warm start: the shared matrices' job 4 and 5 costs, every start gives the cold start's cost") {
  const std::vector<check::SharedMatrix> shared = check::shared_prepass_matrices();
  if (shared.empty()) MESSAGE("the shared collection is absent");
  std::mt19937 rng(4);
  int checked = 0;
  for (const check::SharedMatrix& s : shared) {
    // Square and of full rank: the matrices the GPU entries auction.
    if (s.a.n_rows != s.a.n_cols || s.structural_rank != s.a.n_rows) continue;
    for (int job : {4, 5}) {
      CAPTURE(s.file);
      CAPTURE(job);
      require_warm_starts(prepass_costs(s.a, job), rng, false);
      ++checked;
    }
  }
  if (!shared.empty()) CHECK(checked > 0);
}

TEST_CASE("warm start from an auction's epsilon-optimal prices: the pairs kept, few or no searches") {
  // Integer costs and a last epsilon below 1/n: the auction's matching is
  // optimal (Bertsekas 1988, sec. 3), so column duals exist that make every
  // pair tight, and lowering the prices to them leaves nothing to search.
  std::mt19937 rng(23);
  int searched = 0, rows = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const vertex_t n = 1 + vertex_t(rng() % 60);
    const Csr<double> c = random_costs(n, n, 0.05 + (rng() % 6) / 20.0, 1 + trial % 9, rng);
    CAPTURE(trial);
    CAPTURE(n);
    double lo = 0, hi = 0;
    for (double w : c.weights) lo = std::min(lo, w), hi = std::max(hi, w);
    const double span = hi > lo ? hi - lo : 1;
    // Some with a tail of up to 3 rows left unassigned (the GPU auction's).
    const AuctionStart a = epsilon_scaling_auction(
        c, {.final_fraction = 1 / (2.0 * n * span), .ratio = 4, .tail_rows = trial % 4, .work_limit = 1e9});
    REQUIRE(a.finished);
    CHECK(a.mates.matched >= n - trial % 4);
    std::vector<double> v(a.price.size());
    for (std::size_t j = 0; j < v.size(); ++j) v[j] = -a.price[j];
    const DualMatching w = min_cost_row_perfect_from_column_duals(c, v, a.mates);
    require_optimal(c, w, min_cost_row_perfect(c).cost);
    CHECK(w.searches >= n - a.mates.matched);
    searched += int(w.searches) - (n - a.mates.matched);  // beyond the tail
    rows += n;
  }
  CHECK(searched * 100 <= rows);  // rounding of the prices may loosen a pair now and then
  // Real costs (the shared matrices' job 4 and 5 costs) and the auction
  // the pre-pass runs (last epsilon span / (4 n)): the matching may be off the
  // optimum (far off where a few huge costs make the span), and the
  // searches mend it; the count is reported, not bounded.
  const std::vector<check::SharedMatrix> shared = check::shared_prepass_matrices();
  if (shared.empty()) MESSAGE("the shared collection is absent");
  std::int64_t real_searched = 0, real_rows = 0, cold_searched = 0;
  for (const check::SharedMatrix& s : shared) {
    if (s.a.n_rows != s.a.n_cols || s.structural_rank != s.a.n_rows) continue;
    for (int job : {4, 5}) {
      CAPTURE(s.file);
      CAPTURE(job);
      const Csr<double> c = prepass_costs(s.a, job);
      const DualMatching cold = min_cost_row_perfect(c);
      const AuctionStart a = epsilon_scaling_auction(c, {.work_limit = 1e9});  // the pre-pass's, unlimited
      REQUIRE(a.finished);
      std::vector<double> v(a.price.size());
      for (std::size_t j = 0; j < v.size(); ++j) v[j] = -a.price[j];
      const DualMatching w = min_cost_row_perfect_from_column_duals(c, v, a.mates);
      require_optimal(c, w, cold.cost);
      real_searched += w.searches;
      cold_searched += cold.searches;
      real_rows += c.n_rows;
    }
  }
  MESSAGE("shared matrices: the repair searched " << real_searched << " of " << real_rows << " rows (cold start: "
                                                  << cold_searched << ")");
}

TEST_CASE("warm start: a start that breaks a condition is refused, naming it") {
  std::mt19937 rng(7);
  const Csr<double> c = random_costs(6, 6, 0.5, 3, rng);
  const DualMatching cold = min_cost_row_perfect(c);
  const vertex_t j0 = cold.mates.row_mate[0];
  {
    DualMatching s = cold;  // row 0's dual raised: its entries' reduced costs < 0
    s.u[0] += 1;
    CHECK_THROWS_WITH_AS(min_cost_row_perfect(c, s), doctest::Contains("not feasible"), invalid_input);
  }
  {
    DualMatching s = cold;  // row 0's dual lowered: its matched entry no longer tight
    s.u[0] -= 1;
    CHECK_THROWS_WITH_AS(min_cost_row_perfect(c, s), doctest::Contains("is not 0"), invalid_input);
  }
  {
    DualMatching s = cold;  // mates that disagree
    s.mates.col_mate[j0] = -1;
    CHECK_THROWS_WITH_AS(min_cost_row_perfect(c, s), doctest::Contains("not matched back"), invalid_input);
    CHECK_THROWS_AS(min_cost_row_perfect_from_column_duals(c, cold.v, s.mates), invalid_input);
  }
  {
    DualMatching s = cold;
    s.v.pop_back();
    CHECK_THROWS_AS(min_cost_row_perfect(c, s), invalid_input);
    CHECK_THROWS_AS(min_cost_row_perfect_from_column_duals(c, s.v, cold.mates), invalid_input);
    s = cold;
    s.v[1] = NAN;
    CHECK_THROWS_AS(min_cost_row_perfect(c, s), invalid_input);
    CHECK_THROWS_AS(min_cost_row_perfect_from_column_duals(c, s.v, cold.mates), invalid_input);
  }
  {
    // More columns than rows: a free column's dual must be 0.
    const Csr<double> w = random_costs(4, 7, 0.5, 3, rng);
    DualMatching s = min_cost_row_perfect(w);
    for (vertex_t j = 0; j < 7; ++j)
      if (s.mates.col_mate[j] < 0) {
        s.v[j] = -1;
        break;
      }
    CHECK_THROWS_WITH_AS(min_cost_row_perfect(w, s), doctest::Contains("while free"), invalid_input);
  }
  {
    // A row without entries cannot be matched, warm or cold.
    Csr<double> e = c;
    e.cols.erase(e.cols.begin() + e.offsets[2], e.cols.begin() + e.offsets[3]);
    e.weights.erase(e.weights.begin() + e.offsets[2], e.weights.begin() + e.offsets[3]);
    const offset_t gone = e.offsets[3] - e.offsets[2];
    for (vertex_t i = 3; i <= 6; ++i) e.offsets[i] -= gone;
    BipartiteMates none;
    none.row_mate.assign(6, -1);
    none.col_mate.assign(6, -1);
    CHECK_THROWS_WITH_AS(min_cost_row_perfect_from_column_duals(e, std::vector<double>(6, 0.0), none),
                         doctest::Contains("cannot be matched"), invalid_input);
  }
}

TEST_CASE("canonical_duals: the same duals from MC64's start and from an auction's, the greatest below MC64's first") {
  std::mt19937 rng(41);
  std::uniform_real_distribution<double> value(-5, 5);
  int moved = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const vertex_t n = 1 + vertex_t(rng() % 50);
    // Real costs: the optimal matching is unique (with probability 1), so
    // both starts end on it.
    Csr<double> c = random_costs(n, n, 0.05 + (rng() % 6) / 20.0, 1, rng);
    for (double& w : c.weights) w = value(rng);
    CAPTURE(trial);
    CAPTURE(n);
    DualMatching cold = min_cost_row_perfect(c);
    const AuctionStart a = epsilon_scaling_auction(c, {.work_limit = 1e9});
    REQUIRE(a.finished);
    std::vector<double> v(a.price.size());
    for (std::size_t j = 0; j < v.size(); ++j) v[j] = -a.price[j];
    DualMatching warm = min_cost_row_perfect_from_column_duals(c, v, a.mates);
    REQUIRE(warm.mates.row_mate == cold.mates.row_mate);
    const std::vector<double> cold_v = cold.v;
    canonical_duals(c, cold);
    canonical_duals(c, warm);
    require_optimal(c, cold, min_cost_row_perfect(c).cost);
    require_optimal(c, warm, cold.cost);
    const std::vector<double> v0 = mc64_first_column_duals(c);
    constexpr double tol = 1e-9;
    for (vertex_t j = 0; j < n; ++j) {
      CAPTURE(j);
      CHECK(warm.v[j] == doctest::Approx(cold.v[j]).epsilon(tol).scale(10));
      CHECK(warm.u[j] == doctest::Approx(cold.u[j]).epsilon(tol).scale(10));
      CHECK(cold.v[j] <= v0[j] + tol);
      CHECK(cold.v[j] >= cold_v[j] - tol);  // MC64's start ends at or below them
      // The greatest: each column is held by its bound or by a tight entry
      // of a row matched elsewhere (raising it would break that entry).
      bool held = cold.v[j] >= v0[j] - tol;
      for (vertex_t i = 0; i < n && !held; ++i)
        for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k)
          if (c.cols[k] == j && cold.mates.row_mate[i] != j && c.weights[k] - cold.u[i] - cold.v[j] <= tol) held = true;
      CHECK(held);
      moved += cold.v[j] < v0[j] - tol;
    }
  }
  CHECK(moved > 100);  // the bound is not simply v0
}

TEST_CASE("canonical_duals: its shortest paths equal Bellman-Ford's bit for bit on one thread and on several, and the greatest duals below MC64's first, on keys spread evenly, in ties and unevenly") {
  // The search keeps its keys in buckets a step wide (from the reduced
  // costs), n / 64 of them in a window that moves: its result must still be
  // the shortest-path distances, whatever the spread of the values (ties,
  // many decades, one outlier, job 5's stand-in cost of explicit zeros,
  // bounds far apart).
  std::mt19937 rng(2026);
  int moved = 0, spread = 0;
  for (int trial = 0; trial < 46; ++trial) {
    // Random rows (the last, of about 100k entries, has its first relaxation
    // on the threads where there are two), then job 5's costs of the
    // generated solver matrices, whose paths are long (the mesh's shortest
    // paths cross many buckets), and of two with 1% explicit zeros (their
    // stand-in cost is far above every other).
    const int kind = trial % 4;  // random rows: 0 uniform, 1 integers in ties, 2 log-normal, 3 an outlier
    Csr<double> c;
    if (trial >= 40) {
      const char* specs[] = {"stencil2d:150", "stencil3d:25", "circuit:8000", "heavy:8000", "stencil2d:100", "heavy:5000"};
      Csr<double> a = solver_matrix(specs[trial - 40], 3);
      if (trial >= 44)
        for (double& w : a.weights)
          if (rng() % 100 == 0) w = 0;
      c = prepass_costs(a, 5);
    } else {
      const vertex_t n = trial == 39 ? 20000 : 100 + vertex_t(rng() % 3000);
      std::uniform_real_distribution<double> uniform(-5, 5);
      std::normal_distribution<double> normal(0, 4);
      auto value = [&]() {
        switch (kind) {
          case 0: return uniform(rng);
          case 1: return double(rng() % 4);
          case 2: return std::exp(normal(rng));
          default: return uniform(rng);
        }
      };
      c.n_rows = c.n_cols = n;
      for (vertex_t i = 0; i < n; ++i) {
        std::vector<vertex_t> row{i};
        for (int e = 0; e < 4; ++e) row.push_back(vertex_t(rng() % std::uint32_t(n)));
        std::sort(row.begin(), row.end());
        row.erase(std::unique(row.begin(), row.end()), row.end());
        for (vertex_t j : row) {
          c.cols.push_back(j);
          c.weights.push_back(value());
        }
        c.offsets.push_back(offset_t(c.cols.size()));
      }
      if (kind == 3) c.weights[rng() % c.weights.size()] = 1e9;
    }
    const vertex_t n = c.n_rows;
    CAPTURE(trial);
    CAPTURE(n);
    // MC64's duals, or (every other, and the solver matrices) an auction's
    // as the pre-pass has them: their paths are longer.
    DualMatching d = min_cost_row_perfect(c);
    const double optimum = d.cost;
    if (trial % 2 == 1 || trial >= 40) {
      const AuctionStart a = epsilon_scaling_auction(c, {.jacobi = true});
      std::vector<double> v(a.price.size());
      for (std::size_t j = 0; j < v.size(); ++j) v[j] = -a.price[j];
      d = min_cost_row_perfect_from_column_duals(c, v, a.mates);
    }
    const std::vector<double> v0 = mc64_first_column_duals(c);
    // The shortest-path problem inside, against Bellman-Ford: x_j <= x0_j and
    // x_j <= x_{M(i)} + max(0, c_ij - u_i - v_j), the sums in path order, so
    // the same bits (memcmp: the sign of a zero counts too).
    const auto bellman_ford = [&](std::vector<double> x) { return shifts_by_bellman_ford(c, d, std::move(x)); };
    const auto same_bits = [](const std::vector<double>& p, const std::vector<double>& q) {
      return p.size() == q.size() && std::memcmp(p.data(), q.data(), p.size() * sizeof(double)) == 0;
    };
    std::vector<double> x0(n);
    for (vertex_t j = 0; j < n; ++j) x0[j] = v0[j] - d.v[j];
    const std::vector<double> x = bellman_ford(x0);
    CHECK(same_bits(shortest_augmenting_detail::greatest_column_shifts(c, d, x0), x));
    // The label-correcting rounds on threads (forced at any size): the
    // same bits on 2 and 3 threads.
    for (int threads : {2, 3}) CHECK(same_bits(shortest_augmenting_detail::greatest_column_shifts(c, d, x0, threads), x));
    // The inputs' spread: the trials whose lowered keys fall in several of
    // n / 64 equal ranges from the smallest of them to the largest x0 (the
    // inputs, not the search's layout, which depends on the reduced costs).
    double lo = 1e300, hi = -1e300;
    for (vertex_t j = 0; j < n; ++j) {
      if (x[j] < x0[j]) lo = std::min(lo, x[j]);
      hi = std::max(hi, x0[j]);
      moved += x[j] < x0[j];
    }
    const double width = (hi - lo) / double(std::max<vertex_t>(1, n / 64));
    std::vector<char> used(std::size_t(std::max<vertex_t>(1, n / 64)), 0);
    for (vertex_t j = 0; j < n; ++j)
      if (x[j] < x0[j] && width > 0) used[std::min(used.size() - 1, std::size_t((x[j] - lo) / width))] = 1;
    spread += std::count(used.begin(), used.end(), 1) >= 2;
    // The same problem with one bound far above the rest, and with bounds
    // near +-1.5e308 (a window's width overflows).
    if (kind == 3 || trial >= 40) {
      std::vector<double> crowded = x0;
      crowded[std::size_t(trial) % std::size_t(n)] = 1e9;
      std::vector<double> huge = x0;
      huge[0] = 1.5e308;
      huge[std::size_t(n) - 1] = -1.5e308;
      for (int threads : {0, 2}) {
        CHECK(same_bits(shortest_augmenting_detail::greatest_column_shifts(c, d, crowded, threads), bellman_ford(crowded)));
        CHECK(same_bits(shortest_augmenting_detail::greatest_column_shifts(c, d, huge, threads), bellman_ford(huge)));
      }
    }
    // Then the whole of canonical_duals, by what its result must be.
    canonical_duals(c, d);
    require_optimal(c, d, optimum);
    double largest = 1;
    for (double w : c.weights) largest = std::max(largest, std::fabs(w));
    const double tol = 1e-12 * largest;
    // Held: by its bound, or by a tight entry of a row matched elsewhere.
    std::vector<char> held(n, 0);
    for (vertex_t j = 0; j < n; ++j) held[j] = d.v[j] >= v0[j] - tol;
    for (vertex_t i = 0; i < n; ++i)
      for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k) {
        const vertex_t j = c.cols[k];
        if (d.mates.row_mate[i] != j && c.weights[k] - d.u[i] - d.v[j] <= tol) held[j] = 1;
      }
    for (vertex_t j = 0; j < n; ++j) {
      CAPTURE(j);
      CHECK(d.v[j] <= v0[j] + tol);
      CHECK(held[j]);
    }
  }
  CHECK(spread >= 15);
  CHECK(moved > 10000);
}

TEST_CASE("canonical_duals' shortest paths: bounds far apart, and every reduced cost zero: Bellman-Ford's bits on 1-3 threads") {
  // Pairs (2k, 2k + 1) with one costly entry into each odd column and the
  // bounds 1e3 apart: keys spread far wider than a window of the step (a
  // window that took a few of them a move was quadratic); then the same
  // pattern with every reduced cost zero (no step: one bucket).
  for (const bool zero : {false, true}) {
    const vertex_t n = 3001;
    Csr<double> c;
    c.n_rows = c.n_cols = n;
    DualMatching d;
    d.mates.row_mate.resize(n);
    d.mates.col_mate.resize(n);
    d.mates.matched = n;
    d.u.assign(n, 0);
    d.v.assign(n, 0);
    std::vector<double> x0(n);
    for (vertex_t i = 0; i < n; ++i) {
      d.mates.row_mate[i] = d.mates.col_mate[i] = i;
      if (i % 2 == 0 && i + 1 < n) {
        c.cols.insert(c.cols.end(), {i, i + 1});
        c.weights.insert(c.weights.end(), {0.0, zero ? 0.0 : 1.0});
      } else {
        c.cols.push_back(i);
        c.weights.push_back(0);
      }
      c.offsets.push_back(offset_t(c.cols.size()));
      x0[i] = (i / 2) * 1e3 + (i % 2 == 1 ? 5e2 : 0);
    }
    const std::vector<double> x = shifts_by_bellman_ford(c, d, x0);
    CAPTURE(zero);
    vertex_t lowered = 0;
    for (vertex_t j = 0; j < n; ++j) lowered += x[j] < x0[j];
    CHECK(lowered == n / 2);
    for (int threads : {0, 1, 2, 3})
      CHECK(shortest_augmenting_detail::greatest_column_shifts(c, d, x0, threads) == x);
  }
}

TEST_CASE("canonical_duals: from duals far larger than the result (a constant moved from every v to every u), the same feasible duals") {
  // Searches through job 5's stand-in cost of explicit zeros leave duals of
  // that size: v + x then loses the digits the constraints need (bayer10 lost
  // 6e-11 of the 1e-12 the scalings are held to). The result must be
  // feasible to rounding of its own size and equal the unshifted one's.
  std::mt19937 rng(77);
  std::uniform_real_distribution<double> value(-5, 5);
  for (int trial = 0; trial < 100; ++trial) {
    const vertex_t n = 2 + vertex_t(rng() % 60);
    Csr<double> c = random_costs(n, n, 0.05 + (rng() % 6) / 20.0, 1, rng);
    // Every fourth: costs near 1e-9 and a shift of 50, far larger than the
    // result but not than 1.
    const bool tiny = trial % 4 == 3;
    for (double& w : c.weights) w = value(rng) * (tiny ? 1e-9 : 1);
    CAPTURE(trial);
    CAPTURE(n);
    DualMatching plain = min_cost_row_perfect(c);
    DualMatching shifted = plain;
    const double shift = tiny ? 50 : 3.7e6 * (1 + trial % 5);
    for (double& u : shifted.u) u += shift;
    for (double& v : shifted.v) v -= shift;
    canonical_duals(c, plain);
    canonical_duals(c, shifted);
    for (vertex_t i = 0; i < n; ++i)
      for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k) {
        const vertex_t j = c.cols[k];
        CHECK(c.weights[k] - shifted.u[i] - shifted.v[j] >= -1e-13 * (tiny ? 1e-9 : 1));
      }
    for (vertex_t j = 0; j < n; ++j) {
      const double scale = tiny ? 1e-8 : 10;  // the results' size
      CHECK(std::fabs(shifted.v[j] - plain.v[j]) <= 1e-12 * scale);
      CHECK(std::fabs(shifted.u[j] - plain.u[j]) <= 1e-12 * scale);
    }
  }
}

namespace {

// A square matrix whose moduli hold a perfect matching of large entries on a
// hidden permutation (|a| in [8, 16) there, integers in [1, 4] elsewhere:
// ties), so MC64's start leaves no row free; `spoilt` rows then lose their
// large entry (it drops into the small range), which leaves some free.
Csr<double> hidden_dominant(vertex_t n, double density, int spoilt, std::mt19937& rng) {
  std::vector<vertex_t> hidden(static_cast<std::size_t>(n));
  for (vertex_t i = 0; i < n; ++i) hidden[std::size_t(i)] = i;
  std::shuffle(hidden.begin(), hidden.end(), rng);
  std::bernoulli_distribution keep(density);
  std::uniform_int_distribution<int> small(1, 4);
  std::uniform_real_distribution<double> large(8, 16);
  Csr<double> a;
  a.n_rows = a.n_cols = n;
  for (vertex_t i = 0; i < n; ++i) {
    for (vertex_t j = 0; j < n; ++j) {
      if (j == hidden[std::size_t(i)]) {
        a.cols.push_back(j);
        a.weights.push_back(i < spoilt ? small(rng) : large(rng) * (rng() % 2 ? 1 : -1));
      } else if (keep(rng)) {
        a.cols.push_back(j);
        a.weights.push_back(small(rng));
      }
    }
    a.offsets.push_back(static_cast<offset_t>(a.cols.size()));
  }
  return a;
}

vertex_t free_rows_after_mc64_start(const Csr<double>& c) {
  DualMatching s;
  shortest_augmenting_detail::initialise(c, s);
  return vertex_t(std::count(s.mates.row_mate.begin(), s.mates.row_mate.end(), -1));
}

}  // namespace

TEST_CASE("the near start: MC64's start finished by its searches when it leaves at most max_free rows, else nothing") {
  std::mt19937 rng(23);
  int taken = 0, declined = 0, searched = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const vertex_t n = 1 + vertex_t(rng() % 60);
    const int spoilt = trial % 4 == 0 ? 0 : int(rng() % (n / 4 + 1));
    const Csr<double> a = hidden_dominant(n, 0.02 + (rng() % 5) / 20.0, spoilt, rng);
    for (int job : {4, 5}) {
      const Csr<double> c = prepass_costs(a, job);
      CAPTURE(trial);
      CAPTURE(job);
      const vertex_t free = free_rows_after_mc64_start(c);
      const double optimum = min_cost_row_perfect(c).cost;
      if (free > 0) {  // one row fewer than it leaves: declined
        CHECK_FALSE(min_cost_row_perfect_if_start_near(c, free - 1).has_value());
        ++declined;
      }
      const auto near = min_cost_row_perfect_if_start_near(c, free);
      REQUIRE(near.has_value());
      CHECK(near->searches == free);
      require_optimal(c, *near, optimum);
      ++taken;
      searched += free > 0;
    }
  }
  CHECK(declined > 20);
  CHECK(searched > 20);
  CHECK(taken == 400);
  // Not square, an empty row, no perfect matching (two rows with one and the
  // same column): nothing, whatever the bound.
  Csr<double> wide = random_costs(3, 5, 0.5, 2, rng);
  CHECK_FALSE(min_cost_row_perfect_if_start_near(wide, 5).has_value());
  Csr<double> empty_row;
  empty_row.n_rows = empty_row.n_cols = 2;
  empty_row.offsets = {0, 2, 2};
  empty_row.cols = {0, 1};
  empty_row.weights = {1, 2};
  CHECK_FALSE(min_cost_row_perfect_if_start_near(empty_row, 2).has_value());
  Csr<double> singular;
  singular.n_rows = singular.n_cols = 3;
  singular.offsets = {0, 1, 2, 5};
  singular.cols = {0, 0, 0, 1, 2};
  singular.weights = {1, 1, 3, 2, 1};
  CHECK_FALSE(min_cost_row_perfect_if_start_near(singular, 3).has_value());
}

TEST_CASE("prepass jobs 4 and 5 on a matrix whose large entries form a matching: the same result from the near start as from MC64's") {
  // The default (auction) start now takes MC64's when it leaves at most
  // n / 2000 rows free: the permutation, objective and scalings must be
  // those of the MC64 start (canonical duals), and the objective the
  // Hungarian reference's.
  std::mt19937 rng(31);
  for (int trial = 0; trial < 40; ++trial) {
    const vertex_t n = 2 + vertex_t(rng() % 300);
    const Csr<double> a = hidden_dominant(n, 0.03, 0, rng);
    for (int job : {4, 5}) {
      CAPTURE(trial);
      CAPTURE(job);
      PrepassOptions near_start, mc64_start;
      near_start.job = mc64_start.job = job;
      mc64_start.start = PrepassOptions::Start::mc64;
      PrepassOptions auction_start = near_start;
      auction_start.start = PrepassOptions::Start::auction;  // the auction, whatever the start would leave
      const PrepassResult x = prepass(a, near_start), y = prepass(a, mc64_start), z = prepass(a, auction_start);
      CHECK(z.objective == doctest::Approx(x.objective).epsilon(1e-12));
      CHECK(x.perm == y.perm);
      CHECK(x.objective == y.objective);
      CHECK(x.row_log_scale == y.row_log_scale);
      CHECK(x.col_log_scale == y.col_log_scale);
      CHECK(x.objective == doctest::Approx(check::best_bipartite(a, job).second).epsilon(1e-12));
    }
  }
}

TEST_CASE("max-sum and max-product: --init automatic by default, auction and mc64 on request") {
  for (const char* name : {"max-sum", "max-product"}) {
    CAPTURE(name);
    const MatcherInfo& m = find_matcher(name, Problem::bipartite);
    CHECK(parse_options(m, {}).typed<PrepassOptions>().start == PrepassOptions::Start::automatic);
    CHECK(parse_options(m, {{"init", "auction"}}).typed<PrepassOptions>().start == PrepassOptions::Start::auction);
    CHECK(parse_options(m, {{"init", "mc64"}}).typed<PrepassOptions>().start == PrepassOptions::Start::mc64);
    CHECK_THROWS_AS(parse_options(m, {{"init", "greedy"}}), invalid_input);
  }
}
