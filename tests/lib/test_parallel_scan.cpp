// indices_where and ordered_sum (lib/parallel_scan.hpp): the same result at
// any thread count, over several blocks.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "lib/counter_rng.hpp"
#include "lib/parallel_scan.hpp"

using namespace matchblas;

TEST_CASE("indices_where: the kept indices in increasing order at 1-4 threads") {
  for (vertex_t n : {0, 1, 1000, scan_block, scan_block + 1, 5 * scan_block + 123}) {
    for (double density : {0.0, 0.001, 0.5, 1.0}) {
      std::vector<char> flags(static_cast<std::size_t>(n));
      const rng::Stream stream(7, std::uint64_t(n));
      for (vertex_t i = 0; i < n; ++i) flags[std::size_t(i)] = stream.uniform01(std::uint64_t(i)) < density;
      std::vector<vertex_t> expected;
      for (vertex_t i = 0; i < n; ++i)
        if (flags[std::size_t(i)]) expected.push_back(i);
      for (int threads : {1, 2, 3, 4}) {
        CAPTURE(n);
        CAPTURE(density);
        CAPTURE(threads);
        std::vector<vertex_t> out = {42, 43};  // replaced
        indices_where(n, out, [&](vertex_t v) { return flags[std::size_t(v)] != 0; }, threads);
        CHECK(out == expected);
      }
    }
  }
}

TEST_CASE("ordered_sum: one value at any thread count above one, within rounding of the serial sum") {
  for (vertex_t n : {0, 10, scan_block - 1, 3 * scan_block + 5}) {
    const rng::Stream stream(11, std::uint64_t(n));
    std::vector<double> terms(static_cast<std::size_t>(n));
    double serial = 0;
    for (vertex_t i = 0; i < n; ++i) {
      terms[std::size_t(i)] = 1e6 * stream.uniform01(std::uint64_t(i)) - 3e5;
      serial += terms[std::size_t(i)];
    }
    const auto term = [&](vertex_t i) { return terms[std::size_t(i)]; };
    const double one = ordered_sum(n, term, 1);
    for (int threads : {2, 3, 4}) CHECK(ordered_sum(n, term, threads) == one);
    CHECK(one == doctest::Approx(serial).epsilon(1e-12));
  }
}

TEST_CASE("the scans' blocks near the largest vertex count: no overflow") {
  const vertex_t largest = std::numeric_limits<vertex_t>::max();
  CHECK(scan_blocks(0) == 0);
  CHECK(scan_blocks(scan_block) == 1);
  CHECK(scan_blocks(scan_block + 1) == 2);
  CHECK(scan_blocks(largest) == largest / scan_block + 1);
  CHECK(block_last(scan_blocks(largest) - 1, largest) == largest);
  CHECK(block_first(scan_blocks(largest) - 1) == largest - largest % scan_block);
  const vertex_t n = largest - 100;  // about 2^31 terms of 1: exact in double
  CHECK(ordered_sum(n, [](vertex_t) { return 1.0; }, 2) == double(n));
}
