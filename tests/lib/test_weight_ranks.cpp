// Weights as ranks in float form (lib/weight_ranks.hpp): on tie-heavy
// random graphs with negative weights, zeros of both signs and infinities,
// two entries compare (<, ==) as their weights do, and b_greedy and greedy
// return the same edges on the ranks as on the weights; a NaN weight is
// refused with invalid_input naming the entry.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "lib/error.hpp"
#include "lib/weight_ranks.hpp"
#include "matchers/b_matching/b_matching.hpp"
#include "matchers/common/greedy.hpp"
#include "tests/check/check.hpp"

using namespace matchblas;

namespace {

// g's weights replaced by values, symmetric entries kept equal.
Csr<float> with_ranks(const Csr<double>& g, const std::vector<float>& ranks) {
  Csr<float> r;
  r.n_rows = g.n_rows;
  r.n_cols = g.n_cols;
  r.offsets = g.offsets;
  r.cols = g.cols;
  r.weights = ranks;
  return r;
}

}  // namespace

TEST_CASE("weight ranks keep every comparison and the greedy edges") {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    Csr<double> g = check::random_graph(300, 0.05, seed % 2 ? 3 : 0, seed);
    // Signed weights, both zeros and infinities, each edge's two entries equal.
    std::mt19937_64 rng(seed);
    const double specials[] = {-0.0, 0.0, -1.5, std::numeric_limits<double>::infinity(),
                               -std::numeric_limits<double>::infinity(), 1e-300};
    for (vertex_t u = 0; u < g.n_rows; ++u)
      for (offset_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) {
        const vertex_t v = g.cols[k];
        if (v < u) continue;
        double w = g.weights[k];
        if (rng() % 5 == 0) w = specials[rng() % 6];
        else if (rng() % 3 == 0) w = -w;
        g.weights[k] = w;
        for (offset_t j = g.offsets[v]; j < g.offsets[v + 1]; ++j)
          if (g.cols[j] == u) g.weights[j] = w;
      }
    const std::vector<float> r = weight_ranks(g, seed % 2 ? 2 : 1);
    REQUIRE(r.size() == g.weights.size());
    std::uniform_int_distribution<std::size_t> pick(0, r.size() - 1);
    for (int i = 0; i < 20000; ++i) {
      const std::size_t a = pick(rng), b = pick(rng);
      REQUIRE(std::isnormal(r[a]));
      CHECK((g.weights[a] < g.weights[b]) == (r[a] < r[b]));
      CHECK((g.weights[a] == g.weights[b]) == (r[a] == r[b]));
    }
    const Csr<float> ranked = with_ranks(g, r);
    for (int b : {1, 3}) {
      const BMatching want = b_greedy(g, std::vector<int>(std::size_t(g.n_rows), b));
      const BMatching got = b_greedy(ranked, std::vector<int>(std::size_t(g.n_rows), b));
      CHECK(got.offsets == want.offsets);
      CHECK(got.partners == want.partners);
    }
    CHECK(greedy(ranked).mate == greedy(g).mate);
  }
}

TEST_CASE("weight ranks refuse a NaN weight") {
  Csr<double> g = check::random_graph(20, 0.3, 0, 7);
  REQUIRE(g.weights.size() > 3);
  g.weights[3] = std::nan("");
  CHECK_THROWS_WITH_AS(weight_ranks(g), doctest::Contains("entry 3"), invalid_input);
}

TEST_CASE("distinct values: sorted, unique, each entry's position, on one thread or several") {
  std::mt19937_64 rng(5);
  for (std::size_t size : {std::size_t(0), std::size_t(1), std::size_t(1000), std::size_t(200000)}) {
    CAPTURE(size);
    std::vector<double> v(size);
    for (std::size_t k = 0; k < size; ++k) {
      const std::uint64_t r = rng();
      v[k] = r % 5 == 0 ? (r % 2 ? -0.0 : 0.0) : double(std::int64_t(r % 3001) - 1500) / 7;  // ties, both zeros
    }
    const DistinctValues<double> one = distinct_values(v, 1), two = distinct_values(v, 2);
    CHECK(one.position == two.position);
    REQUIRE(one.values.size() == two.values.size());
    for (std::size_t i = 1; i < one.values.size(); ++i) CHECK(one.values[i - 1] < one.values[i]);
    REQUIRE(one.position.size() == size);
    bool all = true;
    for (std::size_t k = 0; k < size; ++k) all = all && one.values[one.position[k]] == v[k];
    CHECK(all);
  }
}
