// The gpu masked assign (ops/gpu_ops.hpp, ops/gpu/assign_gpu.cuh) against
// its CPU twin (the plain backend, itself checked against the executable
// specification in tests/ops/test_assign.cpp): seeded random inputs of
// sizes 0, 1, small and large, every entry type the GPU is compiled for,
// no mask / everything in / nothing in / random masks, values aliasing out,
// and several block sizes.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "ops/assign.hpp"
#include "ops/gpu_ops.hpp"

using namespace matchblas;

namespace {

constexpr int block_sizes[] = {32, 64, 96, 128, 256, 512, 1024};

// mode: 0 empty (no mask), 1 all in, 2 none in, 3 random (nonzero bytes other than 1 included).
std::vector<std::uint8_t> make_mask(std::size_t n, int mode, std::mt19937_64& rng) {
  if (mode == 0) return {};
  std::vector<std::uint8_t> m(n, mode == 1 ? 1 : 0);
  if (mode == 3)
    for (auto& x : m) x = rng() % 3 == 0 ? std::uint8_t(1 + rng() % 255) : 0;
  return m;
}

std::size_t random_size(std::uint64_t seed, std::mt19937_64& rng) {
  switch (seed % 5) {
    case 0: return 0;
    case 1: return 1;
    case 2: return std::uniform_int_distribution<std::size_t>(2, 100)(rng);
    case 3: return std::uniform_int_distribution<std::size_t>(100, 5000)(rng);
    default: return std::uniform_int_distribution<std::size_t>(40000, 300000)(rng);
  }
}

template <class T>
void check_seed(std::uint64_t seed) {
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  const std::size_t n = random_size(seed, rng);
  std::vector<T> out(n), values(n);
  for (std::size_t i = 0; i < n; ++i) {  // small values: many ties between out and values
    out[i] = T(std::uniform_int_distribution<int>(-1, 50)(rng));
    values[i] = T(std::uniform_int_distribution<int>(-1, 50)(rng));
  }
  const std::vector<std::uint8_t> mask = make_mask(n, int(seed / 5 % 4), rng);
  const T value = T(seed % 7) - T(1);
  const int threads_per_block = block_sizes[seed % std::size(block_sizes)];
  CAPTURE(threads_per_block);

  std::vector<T> want = out, got = out;
  ops::assign<T>(want, mask, value, ops::Backend::plain);
  ops::assign_gpu<T>(got, mask, value, threads_per_block);
  REQUIRE(got == want);

  want = out, got = out;
  ops::assign<T>(want, mask, values, ops::Backend::plain);
  ops::assign_gpu<T>(got, mask, values, threads_per_block);
  REQUIRE(got == want);
  got = out;
  ops::assign<T>(got, mask, values, ops::Backend::gpu);
  REQUIRE(got == want);

  got = out;  // values aliasing out: a no-op
  ops::assign_gpu<T>(got, mask, got, threads_per_block);
  REQUIRE(got == out);
}

}  // namespace

TEST_CASE("gpu assign equals the CPU twin on random inputs") {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) check_seed<std::int32_t>(seed);
  for (std::uint64_t seed = 201; seed <= 300; ++seed) check_seed<double>(seed);
  for (std::uint64_t seed = 301; seed <= 360; ++seed) check_seed<float>(seed);
  for (std::uint64_t seed = 361; seed <= 420; ++seed) check_seed<std::int64_t>(seed);
  for (std::uint64_t seed = 421; seed <= 480; ++seed) check_seed<std::uint8_t>(seed);
}

TEST_CASE("gpu assign: every block size gives the same result, repeated") {
  std::mt19937_64 rng(17);
  const std::size_t n = (std::size_t(1) << 20) + 3;
  std::vector<std::int32_t> out(n), values(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = std::int32_t(i), values[i] = -std::int32_t(i);
  const std::vector<std::uint8_t> mask = make_mask(n, 3, rng);
  std::vector<std::int32_t> want = out;
  ops::assign<std::int32_t>(want, mask, values, ops::Backend::plain);
  for (int rep = 0; rep < 3; ++rep)
    for (int threads_per_block : block_sizes) {
      CAPTURE(rep);
      CAPTURE(threads_per_block);
      std::vector<std::int32_t> got = out;
      ops::assign_gpu<std::int32_t>(got, mask, values, threads_per_block);
      REQUIRE(got == want);
    }
}

TEST_CASE("gpu assign: errors leave out untouched") {
  std::vector<std::int32_t> out(5, 3);
  const std::vector<std::uint8_t> mask4(4, 1), mask5(5, 1);
  const std::vector<std::int32_t> values4(4, 9), values5(5, 9);
  CHECK_THROWS_AS(ops::assign_gpu<std::int32_t>(out, mask4, -1), invalid_input);
  CHECK_THROWS_AS(ops::assign_gpu<std::int32_t>(out, mask4, values5), invalid_input);
  CHECK_THROWS_AS(ops::assign_gpu<std::int32_t>(out, mask5, values4), invalid_input);
  for (int threads_per_block : {0, 16, 33, 1056, 2048}) {
    CHECK_THROWS_AS(ops::assign_gpu<std::int32_t>(out, mask5, -1, threads_per_block), invalid_input);
    CHECK_THROWS_AS(ops::assign_gpu<std::int32_t>(out, mask5, values5, threads_per_block), invalid_input);
  }
  CHECK(out == std::vector<std::int32_t>(5, 3));
  ops::assign_gpu<std::int32_t>(out, {}, -1);
  CHECK(out == std::vector<std::int32_t>(5, -1));
}
