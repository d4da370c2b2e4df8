// Masked assign (ops/assign.hpp), the plain and graphblas backends, against
// the executable specification below (STYLE 5), on seeded random inputs,
// the corner cases, and at several thread counts.
#include <doctest/doctest.h>
#include <omp.h>

#include <random>
#include <vector>

#include "ops/argmax.hpp"
#include "ops/assign.hpp"
#include "ops/gpu/device.hpp"

using namespace matchblas;

namespace {

// The specification: an empty mask writes everything; else write where the
// mask is nonzero.
template <class T>
std::vector<T> spec_assign(std::vector<T> out, const std::vector<std::uint8_t>& mask, const std::vector<T>& values) {
  for (std::size_t i = 0; i < out.size(); ++i)
    if (mask.empty() || mask[i] != 0) out[i] = values[i];
  return out;
}

// mode: 0 empty (no mask), 1 all in, 2 none in, 3 random.
std::vector<std::uint8_t> make_mask(std::size_t n, int mode, std::mt19937_64& rng) {
  if (mode == 0) return {};
  std::vector<std::uint8_t> m(n, mode == 1 ? 1 : 0);
  if (mode == 3)
    for (auto& x : m) x = std::uniform_int_distribution<int>(0, 2)(rng) == 0 ? 255 : 0;
  return m;
}

std::size_t random_size(std::uint64_t seed, std::mt19937_64& rng) {
  switch (seed % 5) {
    case 0: return 0;
    case 1: return 1;
    case 2: return std::uniform_int_distribution<std::size_t>(2, 100)(rng);
    case 3: return std::uniform_int_distribution<std::size_t>(100, 5000)(rng);
    default: return std::uniform_int_distribution<std::size_t>(40000, 200000)(rng);  // the parallel path
  }
}

template <class T>
void check_seed(std::uint64_t seed) {
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  const std::size_t n = random_size(seed, rng);
  std::vector<T> out(n), values(n);
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = T(std::uniform_int_distribution<int>(-1, 50)(rng));
    values[i] = T(std::uniform_int_distribution<int>(-1, 50)(rng));
  }
  const std::vector<std::uint8_t> mask = make_mask(n, int(seed / 5 % 4), rng);
  const T value = T(seed % 7) - T(1);

  std::vector<T> got = out;
  ops::assign<T>(got, mask, value);
  REQUIRE(got == spec_assign(out, mask, std::vector<T>(n, value)));

  got = out;
  ops::assign<T>(got, mask, values);
  REQUIRE(got == spec_assign(out, mask, values));

  got = out;  // values aliasing out: a no-op
  ops::assign<T>(got, mask, got);
  REQUIRE(got == out);

  if (!ops::have_graphblas()) return;
  got = out;
  ops::assign<T>(got, mask, value, ops::Backend::graphblas);
  REQUIRE(got == spec_assign(out, mask, std::vector<T>(n, value)));
  got = out;
  ops::assign<T>(got, mask, values, ops::Backend::graphblas);
  REQUIRE(got == spec_assign(out, mask, values));
  got = out;
  ops::assign<T>(got, mask, got, ops::Backend::graphblas);
  REQUIRE(got == out);
}

}  // namespace

TEST_CASE("assign equals the specification on random inputs") {
  if (!ops::have_graphblas()) MESSAGE("skipped the graphblas backend: this build has no SuiteSparse:GraphBLAS");
  for (std::uint64_t seed = 1; seed <= 300; ++seed) check_seed<std::int32_t>(seed);
  for (std::uint64_t seed = 301; seed <= 400; ++seed) check_seed<double>(seed);
  for (std::uint64_t seed = 401; seed <= 450; ++seed) check_seed<std::uint8_t>(seed);
  for (std::uint64_t seed = 451; seed <= 480; ++seed) check_seed<std::int64_t>(seed);
  for (std::uint64_t seed = 481; seed <= 510; ++seed) check_seed<float>(seed);
}

TEST_CASE("assign: identical results at 1, 2 and 8 threads, repeated, on both CPU backends") {
  std::mt19937_64 rng(17);
  const std::size_t n = 1 << 20;
  std::vector<std::int32_t> out(n), values(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = std::int32_t(i), values[i] = -std::int32_t(i);
  const std::vector<std::uint8_t> mask = make_mask(n, 3, rng);
  const std::vector<std::int32_t> want = spec_assign(out, mask, values);
  const int saved = omp_get_max_threads();
  for (int threads : {1, 2, 8})
    for (int rep = 0; rep < 10; ++rep) {
      CAPTURE(threads);
      CAPTURE(rep);
      omp_set_num_threads(threads);
      std::vector<std::int32_t> got = out;
      ops::assign<std::int32_t>(got, mask, values);
      REQUIRE(got == want);
      if (!ops::have_graphblas() || rep >= 3) continue;
      got = out;
      ops::assign<std::int32_t>(got, mask, values, ops::Backend::graphblas);
      REQUIRE(got == want);
    }
  omp_set_num_threads(saved);
}

TEST_CASE("assign: wrong lengths are errors and leave out untouched") {
  std::vector<std::int32_t> out(5, 3);
  const std::vector<std::uint8_t> mask4(4, 1), mask5(5, 1);
  const std::vector<std::int32_t> values4(4, 9), values5(5, 9);
  CHECK_THROWS_AS(ops::assign<std::int32_t>(out, mask4, -1), invalid_input);
  CHECK_THROWS_AS(ops::assign<std::int32_t>(out, mask4, values5), invalid_input);
  CHECK_THROWS_AS(ops::assign<std::int32_t>(out, mask5, values4), invalid_input);
  CHECK_THROWS_AS(ops::assign<std::int32_t>(out, {}, values4), invalid_input);
  CHECK(out == std::vector<std::int32_t>(5, 3));
  ops::assign<std::int32_t>(out, {}, -1);
  CHECK(out == std::vector<std::int32_t>(5, -1));
}

TEST_CASE("assign: backends") {
  std::vector<std::int32_t> out(5, 3);
  const std::vector<std::uint8_t> mask{1, 0, 1, 0, 0};
  const std::vector<std::int32_t> values(5, 9);
  ops::assign<std::int32_t>(out, mask, values, ops::Backend::automatic);
  CHECK(out == std::vector<std::int32_t>{9, 3, 9, 3, 3});
  const std::vector<std::uint8_t> mask4(4, 1);
  CHECK_THROWS_AS(ops::assign<std::int32_t>(out, mask4, 1, ops::Backend::gpu), invalid_input);  // lengths first
  CHECK_THROWS_AS(ops::assign<std::int32_t>(out, mask4, 1, ops::Backend::graphblas), invalid_input);
  std::vector<std::uint16_t> narrow(3, 0);
  CHECK_THROWS_AS(ops::assign<std::uint16_t>(narrow, {}, 1, ops::Backend::gpu), invalid_input);  // not compiled for the GPU
  CHECK_THROWS_AS(ops::assign<std::uint16_t>(narrow, {}, 1, ops::Backend::graphblas), invalid_input);  // nor for GraphBLAS
  if (ops::have_graphblas()) {
    std::vector<std::int32_t> copy = out;
    ops::assign<std::int32_t>(copy, mask, -4, ops::Backend::graphblas);
    CHECK(copy == std::vector<std::int32_t>{-4, 3, -4, 3, 3});
    std::vector<std::int32_t> empty;
    CHECK_NOTHROW(ops::assign<std::int32_t>(empty, {}, 1, ops::Backend::graphblas));
  } else {
    CHECK_THROWS_AS(ops::assign<std::int32_t>(out, mask, 1, ops::Backend::graphblas), error);
    CHECK_THROWS_AS(ops::assign<std::int32_t>(out, {}, values, ops::Backend::graphblas), error);
  }
  if (gpu::device_count() == 0) {
    CHECK_THROWS_AS(ops::assign<std::int32_t>(out, mask, 1, ops::Backend::gpu), error);
    std::vector<double> real(5, 0.0);
    CHECK_THROWS_AS(ops::assign<double>(real, {}, 1.5, ops::Backend::gpu), error);
  }
  CHECK(out == std::vector<std::int32_t>{9, 3, 9, 3, 3});
}
