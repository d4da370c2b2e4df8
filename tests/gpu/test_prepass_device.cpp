// The pre-pass's device entry (matchblas_prepass_device, prepass.h, and the
// C++ prepass_device of prepass.hpp): on the caller's cudaMalloc'd arrays
// (CSR and CSC, 0- and 1-based, int32 and int64) every job gives the host
// call's status, matched count and objective (1e-9 relative), a matching of
// entries, job 5's scaling bounds, with the results left on the device or on
// the host; bad arguments and bad arrays are the host call's statuses, and a
// host array passed as a device one is named.
#include <doctest/doctest.h>

#ifdef MATCHBLAS_HAVE_CUDA
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "lib/csr.hpp"
#include "matchblas/prepass.h"
#include "matchblas/prepass.hpp"
#include "tests/check/check.hpp"
#include "tests/check/device_array.hpp"
#include "tests/check/shared_collection.hpp"

using matchblas::Csr;
using matchblas::vertex_t;
using matchblas::check::DeviceArray;

namespace {


// a's arrays in the caller's form: CSR or CSC (of the same matrix), base
// 0 or 1, Index-typed pointers and indices.
template <class Index>
struct Arrays {
  std::vector<Index> pointers, indices;
  std::vector<double> values;
  Arrays(const Csr<double>& a, bool csc, int base) {
    const vertex_t outer = csc ? a.n_cols : a.n_rows;
    std::vector<std::int64_t> count(std::size_t(outer) + 1, 0);
    for (vertex_t i = 0; i < a.n_rows; ++i)
      for (auto k = a.offsets[i]; k < a.offsets[i + 1]; ++k) ++count[std::size_t(csc ? a.cols[k] : i) + 1];
    for (std::size_t o = 0; o < std::size_t(outer); ++o) count[o + 1] += count[o];
    pointers.assign(count.begin(), count.end());
    indices.resize(std::size_t(count.back()));
    values.resize(std::size_t(count.back()));
    for (vertex_t i = 0; i < a.n_rows; ++i)
      for (auto k = a.offsets[i]; k < a.offsets[i + 1]; ++k) {
        const std::size_t o = std::size_t(csc ? a.cols[k] : i);
        const auto p = count[o]++;
        indices[std::size_t(p)] = Index(csc ? i : a.cols[k]) + Index(base);
        values[std::size_t(p)] = a.weights[k];
      }
    for (Index& p : pointers) p += Index(base);
  }
};

template <class Index>
matchblas_sparse describe(const Csr<double>& a, bool csc, int base, const Index* pointers, const Index* indices,
                          const double* values) {
  matchblas_sparse s{};
  s.rows = a.n_rows;
  s.cols = a.n_cols;
  s.layout = csc ? MATCHBLAS_CSC : MATCHBLAS_CSR;
  s.base = base;
  s.index_type = sizeof(Index) == 4 ? MATCHBLAS_INT32 : MATCHBLAS_INT64;
  s.value_type = MATCHBLAS_DOUBLE;
  s.pointers = pointers;
  s.indices = indices;
  s.values = values;
  return s;
}

// |a_ij| of a's entry (i, j), -1 when absent.
double modulus(const Csr<double>& a, vertex_t i, vertex_t j) {
  for (auto k = a.offsets[i]; k < a.offsets[i + 1]; ++k)
    if (a.cols[k] == j) return std::abs(a.weights[k]);
  return -1;
}

struct Outputs {
  std::vector<std::int64_t> perm, row_mate, col_mate;
  std::vector<double> row_scale, col_scale;
  matchblas_inform inform{};
  int status = 0;
};

template <class Index>
void check_job(const Csr<double>& a, int job, bool csc, int base, bool results_on_host, cudaStream_t stream) {
  CAPTURE(job);
  CAPTURE(csc);
  CAPTURE(base);
  CAPTURE(sizeof(Index));
  CAPTURE(results_on_host);
  const Arrays<Index> h(a, csc, base);
  const bool square = a.n_rows == a.n_cols;
  const std::size_t m = std::size_t(a.n_rows), n = std::size_t(a.n_cols);
  matchblas_prepass_options opt;
  matchblas_prepass_default_options(&opt);
  opt.job = job;

  Outputs host;
  host.perm.resize(square ? m : 0);
  host.row_mate.resize(m);
  host.col_mate.resize(n);
  host.row_scale.resize(m);
  host.col_scale.resize(n);
  const matchblas_sparse hs = describe(a, csc, base, h.pointers.data(), h.indices.data(), h.values.data());
  host.status = matchblas_prepass(&hs, &opt, square ? host.perm.data() : nullptr, host.row_mate.data(),
                                  host.col_mate.data(), host.row_scale.data(), host.col_scale.data(), &host.inform);
  REQUIRE(host.status >= 0);

  DeviceArray<Index> d_pointers(h.pointers), d_indices(h.indices);
  DeviceArray<double> d_values(h.values);
  const matchblas_sparse ds = describe(a, csc, base, d_pointers.p, d_indices.p, d_values.p);
  matchblas_device_options dev;
  matchblas_device_default_options(&dev);
  dev.stream = stream;
  dev.results_on_host = results_on_host ? 1 : 0;
  Outputs got;
  if (results_on_host) {
    got.perm.resize(square ? m : 0);
    got.row_mate.resize(m);
    got.col_mate.resize(n);
    got.row_scale.resize(m);
    got.col_scale.resize(n);
    got.status = matchblas_prepass_device(&ds, &opt, &dev, square ? got.perm.data() : nullptr, got.row_mate.data(),
                                          got.col_mate.data(), got.row_scale.data(), got.col_scale.data(),
                                          &got.inform);
  } else {
    DeviceArray<std::int64_t> perm(square ? m : 0), row_mate(m), col_mate(n);
    DeviceArray<double> row_scale(m), col_scale(n);
    got.status = matchblas_prepass_device(&ds, &opt, &dev, square ? perm.p : nullptr, row_mate.p, col_mate.p,
                                          row_scale.p, col_scale.p, &got.inform);
    got.perm = perm.host();
    got.row_mate = row_mate.host();
    got.col_mate = col_mate.host();
    got.row_scale = row_scale.host();
    got.col_scale = col_scale.host();
  }
  INFO(got.inform.message);
  // Job 5's duals are not unique: where an explicit zero must be matched, the
  // GPU entry's scalings may pass the near-overflow mark where the host's do
  // not (or the other way round); every other status must agree.
  const auto near = [](int status) { return status == MATCHBLAS_OK || status == MATCHBLAS_SCALING_NEAR_OVERFLOW; };
  if (job == 5 && near(got.status) && near(host.status)) {
    if (got.status != host.status) MESSAGE("near overflow: device call " << got.status << ", host call " << host.status);
  } else {
    CHECK(got.status == host.status);
  }
  CHECK(got.inform.job == host.inform.job);
  CHECK(got.inform.matched == host.inform.matched);
  // Job 5 matching an explicit zero has objective -inf on both sides.
  if (std::isinf(host.inform.objective)) CHECK(got.inform.objective == host.inform.objective);
  else CHECK(got.inform.objective == doctest::Approx(host.inform.objective).epsilon(1e-9));
  // A matching of entries, the two mate arrays agreeing, the count reported.
  std::int64_t matched = 0;
  for (std::size_t i = 0; i < m; ++i) {
    const std::int64_t j = got.row_mate[i];
    if (j < 0) continue;
    ++matched;
    REQUIRE(j < std::int64_t(n));
    CHECK(got.col_mate[std::size_t(j)] == std::int64_t(i));
    CHECK(modulus(a, vertex_t(i), vertex_t(j)) >= 0);
    if (square) CHECK(got.perm[i] == j);
  }
  CHECK(matched == got.inform.matched);
  if (got.inform.job == 5 && got.status == MATCHBLAS_OK) {
    for (vertex_t i = 0; i < a.n_rows; ++i)
      for (auto k = a.offsets[i]; k < a.offsets[i + 1]; ++k) {
        const double x = std::abs(a.weights[k]);
        if (x == 0) continue;
        const double b = x * std::exp(got.row_scale[std::size_t(i)] + got.col_scale[std::size_t(a.cols[k])]);
        CHECK(b <= 1 + 1e-9);
        if (got.row_mate[std::size_t(i)] == a.cols[k]) CHECK(b == doctest::Approx(1).epsilon(1e-9));
      }
  }
}

}  // namespace

TEST_CASE("prepass on device arrays: every job equals the host call, any storage, results on either side") {
  cudaStream_t stream = nullptr;
  REQUIRE(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess);
  std::vector<Csr<double>> matrices;
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    matrices.push_back(matchblas::check::random_signed_matrix<double>(60, 60, 0.08, seed));  // ties, empty rows
    matrices.push_back(matchblas::check::random_signed_matrix<double>(40, 70, 0.1, seed + 10));
  }
  for (const Csr<double>& a : matrices)
    for (int job : {0, 1, 2, 3, 4, 5}) {
      check_job<std::int32_t>(a, job, false, 0, false, stream);
      check_job<std::int64_t>(a, job, true, 1, true, nullptr);
    }
  const std::vector<matchblas::check::SharedMatrix> shared = matchblas::check::shared_prepass_matrices();
  if (shared.empty()) MESSAGE("the shared collection is absent: random matrices only");
  for (const matchblas::check::SharedMatrix& s : shared) {
    CAPTURE(s.file);
    for (int job : {1, 4, 5}) check_job<std::int64_t>(s.a, job, true, 0, false, stream);
  }
  cudaStreamDestroy(stream);
}

TEST_CASE("prepass on device arrays: the C++ wrapper and the symmetric mode") {
  // A symmetric |A| given by its lower triangle.
  const Csr<double> full = matchblas::check::random_signed_matrix<double>(30, 30, 0.2, 5);
  std::vector<std::int64_t> ptr{0}, idx;
  std::vector<double> val;
  for (vertex_t i = 0; i < 30; ++i) {
    for (auto k = full.offsets[i]; k < full.offsets[i + 1]; ++k)
      if (full.cols[k] < i) {
        idx.push_back(full.cols[k]);
        val.push_back(full.weights[k]);
      }
    idx.push_back(i);  // a full diagonal: structurally nonsingular
    val.push_back(0.5);
    ptr.push_back(std::int64_t(idx.size()));
  }
  namespace mb = matchblas::api;
  const mb::Result host = mb::prepass(mb::csr(30, 30, ptr, idx, val), {.job = mb::Job::max_product, .symmetric = true});
  DeviceArray<std::int64_t> d_ptr(ptr), d_idx(idx);
  DeviceArray<double> d_val(val);
  const auto view = mb::csr(30, 30, std::span<const std::int64_t>(d_ptr.p, ptr.size()),
                            std::span<const std::int64_t>(d_idx.p, idx.size()),
                            std::span<const double>(d_val.p, val.size()));
  const mb::Result got = mb::prepass_device(view, {.job = mb::Job::max_product, .symmetric = true});
  CHECK(got.inform.matched == host.inform.matched);
  CHECK(got.inform.objective == doctest::Approx(host.inform.objective).epsilon(1e-9));
  CHECK(got.row_log_scale == got.col_log_scale);
  const mb::Result card = mb::prepass_device(view, {.job = mb::Job::cardinality});
  CHECK(card.inform.matched == 30);
  CHECK(card.inform.message.find("cardinality-gpu") != std::string::npos);
}

TEST_CASE("prepass on device arrays: bad arguments and bad arrays are named statuses") {
  const Csr<double> a = matchblas::check::random_signed_matrix<double>(20, 20, 0.2, 9);
  const Arrays<std::int64_t> h(a, false, 0);
  DeviceArray<std::int64_t> d_pointers(h.pointers), d_indices(h.indices);
  DeviceArray<double> d_values(h.values);
  DeviceArray<std::int64_t> row_mate(20);
  matchblas_sparse ds = describe(a, false, 0, d_pointers.p, d_indices.p, d_values.p);
  matchblas_device_options dev;
  matchblas_device_default_options(&dev);
  matchblas_inform inform{};
  const auto run = [&](const matchblas_sparse* s, const matchblas_prepass_options* opt) {
    return matchblas_prepass_device(s, opt, &dev, nullptr, row_mate.p, nullptr, nullptr, nullptr, &inform);
  };
  CHECK(run(&ds, nullptr) == MATCHBLAS_OK);
  CHECK(run(nullptr, nullptr) == MATCHBLAS_ERR_NULL_ARGUMENT);
  // A host array where a device one belongs: named, nothing read.
  matchblas_sparse host_pointers = ds;
  host_pointers.pointers = h.pointers.data();
  CHECK(run(&host_pointers, nullptr) == MATCHBLAS_ERR_BAD_INPUT);
  CHECK(std::string(inform.message).find("pointers") != std::string::npos);
  matchblas_sparse host_values = ds;
  host_values.values = h.values.data();
  CHECK(run(&host_values, nullptr) == MATCHBLAS_ERR_BAD_INPUT);
  CHECK(std::string(inform.message).find("values") != std::string::npos);
  // Bad arrays on the device: the host call's checks, on the copies.
  std::vector<std::int64_t> bad = h.pointers;
  std::swap(bad[3], bad[4]);
  if (bad[3] != bad[4]) {
    DeviceArray<std::int64_t> d_bad(bad);
    matchblas_sparse s = ds;
    s.pointers = d_bad.p;
    CHECK(run(&s, nullptr) == MATCHBLAS_ERR_BAD_POINTERS);
  }
  std::vector<std::int64_t> far = h.indices;
  far[0] = 20;
  DeviceArray<std::int64_t> d_far(far);
  matchblas_sparse s = ds;
  s.indices = d_far.p;
  CHECK(run(&s, nullptr) == MATCHBLAS_ERR_INDEX_OUT_OF_RANGE);
  matchblas_prepass_options opt;
  matchblas_prepass_default_options(&opt);
  opt.job = 7;
  CHECK(run(&ds, &opt) == MATCHBLAS_ERR_BAD_JOB);
  int count = 0;
  REQUIRE(cudaGetDeviceCount(&count) == cudaSuccess);
  dev.device = count;
  CHECK(run(&ds, nullptr) == MATCHBLAS_ERR_BAD_OPTION);
  dev.device = 0;
  dev.results_on_host = 2;
  CHECK(run(&ds, nullptr) == MATCHBLAS_ERR_BAD_OPTION);
  dev.results_on_host = 0;
  // Outputs in host memory while results_on_host is 0: named.
  std::vector<std::int64_t> host_out(20);
  CHECK(matchblas_prepass_device(&ds, nullptr, &dev, nullptr, host_out.data(), nullptr, nullptr, nullptr, &inform) ==
        MATCHBLAS_ERR_BAD_INPUT);
  CHECK(std::string(inform.message).find("row_mate") != std::string::npos);
}

#endif  // MATCHBLAS_HAVE_CUDA
