// The ops' C interface on device arrays (include/matchblas/ops.h, the
// *_device entries over ops/gpu_device_entries.hpp): on the caller's
// cudaMalloc'd arrays, with 32- and 64-bit offsets and on a caller's
// non-blocking stream, argmax, assign and select_free give what the CPU ops
// give on the same matrix; the caller's current device is left as it was;
// a bad device id is MATCHBLAS_ERR_BAD_OPTION.
#include <doctest/doctest.h>

#ifdef MATCHBLAS_HAVE_CUDA
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "lib/csr.hpp"
#include "matchblas/ops.h"
#include "ops/argmax.hpp"
#include "ops/select.hpp"
#include "tests/check/check.hpp"
#include "tests/check/device_array.hpp"

using matchblas::Csr;
using matchblas::vertex_t;
using matchblas::check::DeviceArray;
using matchblas::check::from_device;

namespace {




template <class W>
void check(std::uint64_t seed, vertex_t m, vertex_t n, bool wide, cudaStream_t stream) {
  CAPTURE(seed);
  CAPTURE(wide);
  const Csr<W> a = matchblas::check::random_signed_matrix<W>(m, n, 0.1, seed);
  std::vector<std::int32_t> narrow(a.offsets.begin(), a.offsets.end());
  DeviceArray<std::int64_t> d_off64(a.offsets);
  DeviceArray<std::int32_t> d_off32(narrow);
  DeviceArray<vertex_t> d_cols(a.cols);
  DeviceArray<W> d_w(a.weights);
  const matchblas_device_csr d{m,  n,          std::int64_t(a.cols.size()), wide ? MATCHBLAS_INT64 : MATCHBLAS_INT32,
                               std::is_same_v<W, float> ? MATCHBLAS_FLOAT : MATCHBLAS_DOUBLE,
                               wide ? static_cast<const void*>(d_off64.p) : static_cast<const void*>(d_off32.p),
                               d_cols.p, d_w.p, 0};
  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> active(static_cast<std::size_t>(m));
  std::vector<W> fw(static_cast<std::size_t>(n));
  std::vector<vertex_t> fv(static_cast<std::size_t>(n));
  for (auto& x : active) x = rng() % 2;
  for (auto& x : fw) x = W(int(rng() % 7) - 3);
  for (auto& x : fv) x = vertex_t(rng() % std::uint64_t(m + 2)) - 1;
  DeviceArray<std::uint8_t> d_active(active);
  DeviceArray<W> d_fw(fw);
  DeviceArray<vertex_t> d_fv(fv);
  DeviceArray<vertex_t> d_best(std::vector<vertex_t>(static_cast<std::size_t>(m)));
  DeviceArray<W> d_best_w(std::vector<W>(static_cast<std::size_t>(m)));
  matchblas_ops_status st{};
  REQUIRE(matchblas_ops_argmax_device(&d, d_active.p, nullptr, d_fw.p, d_fv.p, d_best.p, d_best_w.p, stream, &st) ==
          MATCHBLAS_OK);
  matchblas::ops::ArgmaxMasks<W> masks;
  masks.active_rows = active;
  masks.floor_weight = fw;
  masks.floor_vertex = fv;
  std::vector<vertex_t> want(static_cast<std::size_t>(m));
  std::vector<W> want_w(static_cast<std::size_t>(m));
  matchblas::ops::argmax_rows(a, masks, std::span(want), std::span(want_w));
  CHECK(d_best.host() == want);
  CHECK(d_best_w.host() == want_w);

  // assign: best[i] = 7 where active.
  const vertex_t seven = 7;
  REQUIRE(matchblas_ops_assign_device(d_best.p, MATCHBLAS_OPS_INT32, m, d_active.p, nullptr, &seven, 0, stream, &st) ==
          MATCHBLAS_OK);
  for (std::size_t i = 0; i < want.size(); ++i)
    if (active[i]) want[i] = 7;
  CHECK(d_best.host() == want);

  if (m == n) {
    std::vector<vertex_t> mate(static_cast<std::size_t>(m));
    for (auto& x : mate) x = rng() % 3 == 0 ? vertex_t(rng() % std::uint64_t(m)) : -1;
    DeviceArray<vertex_t> d_mate(mate);
    matchblas_device_csr c{};
    REQUIRE(matchblas_ops_select_free_device(&d, d_mate.p, &c, stream, &st) == MATCHBLAS_OK);
    const Csr<W> f = matchblas::ops::select_free_entries(a, std::span<const vertex_t>(mate));
    CHECK(c.offset_type == MATCHBLAS_INT64);
    CHECK(c.entries == f.num_entries());
    CHECK(from_device(static_cast<const std::int64_t*>(c.offsets), std::size_t(m) + 1) == f.offsets);
    CHECK(from_device(c.columns, std::size_t(c.entries)) == f.cols);
    CHECK(from_device(static_cast<const W*>(c.values), std::size_t(c.entries)) == f.weights);
    matchblas_device_csr_free(&c);
    CHECK(c.offsets == nullptr);
  }
}

}  // namespace

TEST_CASE("ops on device arrays equal the CPU ops, on the legacy and on a caller's stream") {
  cudaStream_t stream = nullptr;
  REQUIRE(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess);
  for (cudaStream_t s : {static_cast<cudaStream_t>(nullptr), stream})
    for (bool wide : {false, true})
      for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        check<double>(seed, 300, 300, wide, s);
        check<float>(seed, 100, 2000, wide, s);
        check<double>(seed, 1, 1, wide, s);
        check<float>(seed, 0, 0, wide, s);
      }
  cudaStreamDestroy(stream);
}

TEST_CASE("ops on device arrays: the current device is kept; a bad device id is an option error") {
  int before = -1;
  REQUIRE(cudaGetDevice(&before) == cudaSuccess);
  DeviceArray<std::int64_t> d_off(std::vector<std::int64_t>{0});
  int count = 0;
  REQUIRE(cudaGetDeviceCount(&count) == cudaSuccess);
  matchblas_device_csr a{0, 0, 0, MATCHBLAS_INT64, MATCHBLAS_DOUBLE, d_off.p, nullptr, nullptr, count};
  matchblas_ops_status st{};
  CHECK(matchblas_ops_argmax_device(&a, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, &st) ==
        MATCHBLAS_ERR_BAD_OPTION);
  a.device = count - 1;
  CHECK(matchblas_ops_argmax_device(&a, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, &st) ==
        MATCHBLAS_OK);
  int after = -1;
  REQUIRE(cudaGetDevice(&after) == cudaSuccess);
  CHECK(after == before);
}

#endif  // MATCHBLAS_HAVE_CUDA
