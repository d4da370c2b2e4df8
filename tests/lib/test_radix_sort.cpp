// The radix sort with indices (lib/radix_sort.hpp) against std::stable_sort
// on keys with many duplicates, keys that share some bytes and keys that
// differ only in the top byte, on 1-3 threads; order_key against double
// comparison on signed values, zeros of both signs, subnormals and
// infinities, and from_order_key as its inverse.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "lib/radix_sort.hpp"

using namespace matchblas;

TEST_CASE("radix sort with indices: stable, equal to std::stable_sort, on 1-3 threads") {
  std::mt19937_64 rng(11);
  const auto draws = [&](std::size_t size, int kind) {
    std::vector<std::uint64_t> keys(size);
    for (std::uint64_t& k : keys) {
      const std::uint64_t r = rng();
      k = kind == 0 ? r % 97                                    // many duplicates, low byte only
          : kind == 1 ? (r & 0x00ffff00ff00ff00ull) | 0x3f00000000000000ull  // constant bytes between varying ones
          : kind == 2 ? (r % 3) << 56                           // the top byte only
                      : r;                                      // every byte
    }
    return keys;
  };
  for (std::size_t size : {std::size_t(0), std::size_t(1), std::size_t(1000), std::size_t(150000)})
    for (int kind = 0; kind < 4; ++kind)
      for (int threads : {1, 2, 3}) {
        CAPTURE(size);
        CAPTURE(kind);
        CAPTURE(threads);
        std::vector<std::uint64_t> keys = draws(size, kind);
        std::vector<std::uint32_t> index(size);
        std::iota(index.begin(), index.end(), 0u);
        std::vector<std::uint32_t> expected = index;
        std::stable_sort(expected.begin(), expected.end(), [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
        const std::vector<std::uint64_t> before = keys;
        radix_sort_with_index(keys, index, threads);
        CHECK(index == expected);
        bool keys_follow = true;
        for (std::size_t i = 0; i < size; ++i) keys_follow = keys_follow && keys[i] == before[index[i]];
        CHECK(keys_follow);
      }
}

TEST_CASE("radix sort with indices refuses arrays of different lengths") {
  std::vector<std::uint64_t> keys(3);
  std::vector<std::uint32_t> index(2);
  CHECK_THROWS(radix_sort_with_index(keys, index, 1));
}

TEST_CASE("order keys order doubles as < does, -0 and +0 one key, and map back") {
  const double inf = std::numeric_limits<double>::infinity(), tiny = std::numeric_limits<double>::denorm_min();
  std::vector<double> values = {-inf, -1e300, -2.5, -1.0, -tiny, -0.0, 0.0, tiny, 1e-310, 1.0, 2.5, 1e300, inf};
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1e6, 1e6);
  for (int i = 0; i < 200; ++i) values.push_back(u(rng));
  for (double a : values) {
    CHECK(from_order_key(order_key(a)) == a);
    CHECK(!std::signbit(from_order_key(order_key(a))) == (a >= 0));  // -0 comes back +0, the rest as they were
    for (double b : values) {
      CAPTURE(a);
      CAPTURE(b);
      CHECK((order_key(a) < order_key(b)) == (a < b));
      CHECK((order_key(a) == order_key(b)) == (a == b));
    }
  }
}
