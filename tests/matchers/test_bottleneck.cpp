// bottleneck_matching (matchers/bipartite/bottleneck.hpp), MC64's jobs 2-3,
// with its default engine, thresholds only and widest paths only: every
// result a valid matching of maximum cardinality (Kuhn's algorithm,
// tests/check/bipartite_reference.hpp) whose smallest matched |a_ij| is the
// reported bottleneck and equals a brute-force threshold search (every value
// tried, a maximum matching of the entries >= it); on hand-made traps (a
// greedy first row that must give way, the row and column bound not
// reached, explicit zeros, all values equal), on random matrices of every
// shape and rank with ties and zeros, and on block triangular matrices whose
// large entries lie between the Dulmage-Mendelsohn blocks (where no maximum
// matching may use them).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "lib/error.hpp"
#include "matchers/bipartite/bottleneck.hpp"
#include "tests/check/bipartite_reference.hpp"

using namespace matchblas;

namespace {

// An m-by-n matrix from (row, column, value) entries, rows in order.
Csr<double> matrix(vertex_t m, vertex_t n, std::vector<std::tuple<vertex_t, vertex_t, double>> entries) {
  std::sort(entries.begin(), entries.end(),
            [](const auto& x, const auto& y) { return std::tie(std::get<0>(x), std::get<1>(x)) < std::tie(std::get<0>(y), std::get<1>(y)); });
  Csr<double> a;
  a.n_rows = m;
  a.n_cols = n;
  a.offsets.assign(std::size_t(m) + 1, 0);
  for (const auto& [i, j, v] : entries) {
    ++a.offsets[i + 1];
    a.cols.push_back(j);
    a.weights.push_back(v);
  }
  for (vertex_t i = 0; i < m; ++i) a.offsets[i + 1] += a.offsets[i];
  return a;
}

// The smallest |a_ij| over the matched pairs (0 when none).
double smallest_matched(const Csr<double>& a, const BipartiteMates& m) {
  double s = std::numeric_limits<double>::infinity();
  for (vertex_t i = 0; i < a.n_rows; ++i)
    for (offset_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k)
      if (a.cols[k] == m.row_mate[i]) s = std::min(s, std::fabs(a.weights[k]));
  return m.matched > 0 ? s : 0;
}

// The engines: the default (thresholds, then widest paths for the last
// few free rows), thresholds only, widest paths only.
const BottleneckOptions engines[] = {{}, {.widest_limit = 0}, {.widest_limit = 1 << 30}};

// Checks each engine's result against the references; returns them.
std::vector<BottleneckMatching> check_exact(const Csr<double>& a) {
  const vertex_t rank = check::bipartite_rank(a);
  const double best = check::bottleneck_value(a);
  std::vector<BottleneckMatching> rs;
  for (const BottleneckOptions& o : engines) {
    INFO("widest_limit " << o.widest_limit);
    const BottleneckMatching r = bottleneck_matching(a, o);
    check::require_valid_mates(a, r.mates);
    CHECK(r.mates.matched == rank);
    CHECK(r.bottleneck == smallest_matched(a, r.mates));
    CHECK(r.bottleneck == best);
    rs.push_back(r);
  }
  return rs;
}

// Values from {0, 1, ..., levels} (0 an explicit zero when zeros), random signs.
Csr<double> random_levels(vertex_t m, vertex_t n, double density, int levels, bool zeros, std::mt19937& rng) {
  std::bernoulli_distribution keep(density);
  std::uniform_int_distribution<int> value(zeros ? 0 : 1, levels);
  std::vector<std::tuple<vertex_t, vertex_t, double>> e;
  for (vertex_t i = 0; i < m; ++i)
    for (vertex_t j = 0; j < n; ++j)
      if (keep(rng)) e.emplace_back(i, j, (rng() & 1 ? 1.0 : -1.0) * value(rng));
  return matrix(m, n, std::move(e));
}

}  // namespace

TEST_CASE("bottleneck: hand-made cases") {
  SUBCASE("a singular matrix whose first row must leave its small entry") {
    // Row 0 alone has entries; taking (0, 0) = 1 first would keep the count
    // maximum but not the bottleneck.
    const Csr<double> a = matrix(2, 2, {{0, 0, 1}, {0, 1, -10}});
    for (const BottleneckMatching& r : check_exact(a)) {
      CHECK(r.bottleneck == 10);
      CHECK(r.mates.row_mate[0] == 1);
    }
  }
  SUBCASE("the same transposed (one column, two rows)") {
    for (const BottleneckMatching& r : check_exact(matrix(2, 2, {{0, 0, 1}, {1, 0, 10}}))) {
      CHECK(r.bottleneck == 10);
      CHECK(r.mates.col_mate[0] == 1);
    }
  }
  SUBCASE("the row and column maxima (all 9) do not bound it tightly: 2") {
    const Csr<double> a = matrix(3, 3, {{0, 0, 9}, {0, 1, 1}, {1, 0, 9}, {1, 2, 2}, {2, 1, 9}, {2, 2, 9}});
    const std::vector<BottleneckMatching> rs = check_exact(a);
    CHECK(rs[0].bottleneck == 2);
    CHECK(rs[0].widest_searches == 1);  // one row left free above 9
    CHECK(rs[1].thresholds_tried >= 2);  // the bound, all the entries, maybe one threshold
    CHECK(rs[1].widest_searches == 0);
  }
  SUBCASE("all values equal") {
    std::vector<std::tuple<vertex_t, vertex_t, double>> e;
    for (vertex_t i = 0; i < 6; ++i)
      for (vertex_t j = 0; j < 6; ++j)
        if ((i + j) % 3 != 0) e.emplace_back(i, j, -3.5);
    CHECK(check_exact(matrix(6, 6, e))[0].bottleneck == 3.5);
  }
  SUBCASE("explicit zeros only: matched, bottleneck 0") {
    const BottleneckMatching r = check_exact(matrix(3, 4, {{0, 1, 0}, {1, 1, 0}, {2, 3, 0}}))[0];
    CHECK(r.mates.matched == 2);
    CHECK(r.bottleneck == 0);
  }
  SUBCASE("a zero that must be matched beside large values") {
    const BottleneckMatching r = check_exact(matrix(2, 2, {{0, 0, 5}, {0, 1, 7}, {1, 1, 0}}))[0];
    CHECK(r.bottleneck == 0);
    CHECK(r.mates.matched == 2);
  }
  SUBCASE("empty shapes and no entries") {
    for (auto [m, n] : {std::pair{0, 0}, {0, 3}, {3, 0}, {3, 3}, {2, 5}}) {
      const BottleneckMatching r = check_exact(matrix(m, n, {}))[0];
      CHECK(r.mates.matched == 0);
      CHECK(r.bottleneck == 0);
    }
  }
  SUBCASE("a wide and a tall matrix whose large entries share one column (row)") {
    // Rows 0-2 have 8 in column 0 only besides small entries: two of them
    // must take a small one.
    const Csr<double> wide = matrix(3, 5, {{0, 0, 8}, {0, 1, 3}, {1, 0, 8}, {1, 2, 1}, {1, 3, 4}, {2, 0, 8}, {2, 4, 2}});
    CHECK(check_exact(wide)[0].bottleneck == 3);
    std::vector<std::tuple<vertex_t, vertex_t, double>> t;
    for (vertex_t i = 0; i < wide.n_rows; ++i)
      for (offset_t k = wide.offsets[i]; k < wide.offsets[i + 1]; ++k) t.emplace_back(wide.cols[k], i, wide.weights[k]);
    CHECK(check_exact(matrix(5, 3, t))[0].bottleneck == 3);
  }
}

TEST_CASE("bottleneck: bad input") {
  Csr<double> a = matrix(2, 2, {{0, 0, 1}, {1, 1, std::nan("")}});
  CHECK_THROWS_WITH_AS(bottleneck_matching(a), "bottleneck: the entry at row 1, column 1 is not finite", invalid_input);
  a.weights[0] = -std::numeric_limits<double>::infinity();
  CHECK_THROWS_WITH_AS(bottleneck_matching(a), "bottleneck: the entry at row 0, column 0 is not finite", invalid_input);
  a.weights.pop_back();
  CHECK_THROWS_AS(bottleneck_matching(a), invalid_input);
  a = matrix(2, 2, {{0, 0, 1}, {1, 1, 2}});
  a.cols[1] = 7;
  CHECK_THROWS_AS(bottleneck_matching(a), invalid_input);
}

TEST_CASE("bottleneck: random matrices of every shape and rank, ties and zeros, against brute force") {
  std::mt19937 rng(2002);
  int searched = 0, widened = 0, singular = 0, tall = 0, wide = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const vertex_t m = static_cast<vertex_t>(rng() % 11), n = static_cast<vertex_t>(rng() % 11);
    const Csr<double> a = random_levels(m, n, 0.1 + (rng() % 9) / 10.0, 1 + trial % 7, trial % 3 == 0, rng);
    INFO("trial " << trial << ": " << m << " x " << n << ", " << a.num_entries() << " entries");
    const std::vector<BottleneckMatching> rs = check_exact(a);
    searched += rs[1].thresholds_tried > 2;
    widened += rs[0].widest_searches > 0;
    singular += rs[0].mates.matched < std::min(m, n);
    tall += m > n;
    wide += m < n;
  }
  // The branches were all taken: the thresholds below the bound, the
  // widest paths, the Dulmage-Mendelsohn blocks, both orientations.
  CHECK(searched > 200);
  CHECK(widened > 200);
  CHECK(singular > 200);
  CHECK(tall > 1000);
  CHECK(wide > 1000);
}

TEST_CASE("bottleneck: larger random matrices where few rows hold the large values") {
  // Each row has a small entry on a hidden permutation (so the matrix is
  // structurally nonsingular when square) and one large entry in a random
  // column: the row maxima are large, but most rows must take small entries.
  std::mt19937 rng(31);
  int searched = 0, both = 0;
  for (int trial = 0; trial < 30; ++trial) {
    const vertex_t m = 100 + static_cast<vertex_t>(rng() % 200), n = m + static_cast<vertex_t>(rng() % 21) - 10;
    std::vector<vertex_t> perm(std::max(m, n));
    for (std::size_t j = 0; j < perm.size(); ++j) perm[j] = static_cast<vertex_t>(j);
    std::shuffle(perm.begin(), perm.end(), rng);
    std::vector<std::tuple<vertex_t, vertex_t, double>> e;
    std::vector<char> used(std::size_t(m) * n, 0);
    auto add = [&](vertex_t i, vertex_t j, double v) {
      if (used[std::size_t(i) * n + j]) return;
      used[std::size_t(i) * n + j] = 1;
      e.emplace_back(i, j, v);
    };
    for (vertex_t i = 0; i < m; ++i) {
      if (perm[i] < n) add(i, perm[i], 1 + double(rng() % 20));
      add(i, static_cast<vertex_t>(rng() % n), 100 + double(rng() % 5));
      if (trial % 2) add(i, static_cast<vertex_t>(rng() % n), 1 + double(rng() % 20));
    }
    const Csr<double> a = matrix(m, n, std::move(e));
    INFO("trial " << trial << ": " << m << " x " << n);
    const std::vector<BottleneckMatching> rs = check_exact(a);
    searched += rs[1].thresholds_tried > 2;
    both += rs[0].thresholds_tried > 2 && rs[0].widest_searches > 0;  // thresholds, then widest paths
  }
  CHECK(searched > 10);
  CHECK(both > 5);
}

TEST_CASE("bottleneck: block triangular matrices, large entries between the blocks") {
  // Rows and columns of a horizontal block (fewer rows than columns), a
  // square one and a vertical one (more rows), shuffled; every entry between
  // blocks joins a lower block's row to a higher block's column and holds a
  // large value that no maximum matching can use.
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const vertex_t hr = static_cast<vertex_t>(rng() % 4), hc = hr + 1 + static_cast<vertex_t>(rng() % 3);
    const vertex_t s = static_cast<vertex_t>(rng() % 5);
    const vertex_t vc = static_cast<vertex_t>(rng() % 4), vr = vc + 1 + static_cast<vertex_t>(rng() % 3);
    const vertex_t m = hr + s + vr, n = hc + s + vc;
    std::vector<vertex_t> row_of(m), col_of(n);  // block position -> shuffled index
    for (vertex_t i = 0; i < m; ++i) row_of[i] = i;
    for (vertex_t j = 0; j < n; ++j) col_of[j] = j;
    std::shuffle(row_of.begin(), row_of.end(), rng);
    std::shuffle(col_of.begin(), col_of.end(), rng);
    auto row_block = [&](vertex_t i) { return i < hr ? 0 : i < hr + s ? 1 : 2; };
    auto col_block = [&](vertex_t j) { return j < hc ? 0 : j < hc + s ? 1 : 2; };
    std::vector<std::tuple<vertex_t, vertex_t, double>> e;
    std::bernoulli_distribution keep(0.5);
    for (vertex_t i = 0; i < m; ++i)
      for (vertex_t j = 0; j < n; ++j) {
        const int x = row_block(i), y = col_block(j);
        if (x == y && (keep(rng) || (x == 1 && i - hr == j - hc)))
          e.emplace_back(row_of[i], col_of[j], 1 + double(rng() % 9));
        else if (x < y && keep(rng))
          e.emplace_back(row_of[i], col_of[j], 1000 + double(rng() % 9));
      }
    INFO("trial " << trial << ": blocks " << hr << "x" << hc << ", " << s << "x" << s << ", " << vr << "x" << vc);
    check_exact(matrix(m, n, std::move(e)));
  }
}
