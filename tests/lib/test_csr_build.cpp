// Building a Csr from triples (lib/csr_build.hpp) against a brute-force map.
#include <doctest/doctest.h>
#include <omp.h>

#include <map>
#include <random>

#include "lib/csr_build.hpp"
#include "tests/check/check.hpp"

using namespace matchblas;

TEST_CASE("csr_from_triples sorts, combines duplicates and drops zeros") {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    CAPTURE(seed);
    std::mt19937_64 rng(seed);
    const vertex_t rows = std::uniform_int_distribution<vertex_t>(0, 30)(rng);
    const vertex_t cols = std::uniform_int_distribution<vertex_t>(1, 30)(rng);
    const int entries = rows == 0 ? 0 : std::uniform_int_distribution<int>(0, 300)(rng);
    Triples<double> t;
    for (int k = 0; k < entries; ++k)
      t.push_back(std::uniform_int_distribution<vertex_t>(0, rows - 1)(rng),
                  std::uniform_int_distribution<vertex_t>(0, cols - 1)(rng),
                  std::uniform_int_distribution<int>(-2, 2)(rng));
    for (Duplicates dup : {Duplicates::sum, Duplicates::max})
      for (bool drop : {false, true}) {
        std::map<std::pair<vertex_t, vertex_t>, double> spec;
        for (std::size_t k = 0; k < t.size(); ++k) {
          auto [it, fresh] = spec.try_emplace({t.row[k], t.col[k]}, t.val[k]);
          if (!fresh) it->second = dup == Duplicates::sum ? it->second + t.val[k] : std::max(it->second, t.val[k]);
        }
        std::erase_if(spec, [&](const auto& e) { return drop && e.second == 0; });
        const Csr<double> a = csr_from_triples(rows, cols, t, dup, drop);
        REQUIRE(a.num_entries() == static_cast<offset_t>(spec.size()));
        auto it = spec.begin();
        for (vertex_t r = 0; r < rows; ++r)
          for (offset_t k = a.offsets[r]; k < a.offsets[r + 1]; ++k, ++it) {
            CHECK(it->first == std::pair{r, a.cols[k]});
            CHECK(it->second == a.weights[k]);
          }
      }
  }
}

TEST_CASE("csr_from_triples does not depend on the thread count") {
  std::mt19937_64 rng(7);
  Triples<float> t;
  for (int k = 0; k < 200000; ++k)
    t.push_back(rng() % 5000, rng() % 5000, float(rng() % 7));
  omp_set_num_threads(1);
  const Csr<float> one = csr_from_triples(5000, 5000, t, Duplicates::max, true);
  omp_set_num_threads(8);
  const Csr<float> eight = csr_from_triples(5000, 5000, t, Duplicates::max, true);
  omp_set_num_threads(omp_get_num_procs());
  CHECK(one.offsets == eight.offsets);
  CHECK(one.cols == eight.cols);
  CHECK(one.weights == eight.weights);
}

TEST_CASE("csr_from_triples refuses an index outside the matrix") {
  Triples<double> t;
  t.push_back(0, 0, 1);
  t.push_back(2, 5, 1);
  CHECK_THROWS_WITH_AS(csr_from_triples(3, 5, t, Duplicates::sum, true), doctest::Contains("entry 1 at (2, 5)"),
                       invalid_input);
}
