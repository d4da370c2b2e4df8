// The pre-pass's device entry (matchblas_prepass_device, prepass.h, and the
// C++ prepass_device of prepass.hpp): on the caller's cudaMalloc'd arrays
// (CSR and CSC, 0- and 1-based, int32 and int64) every job gives the host
// call's status, matched count and objective (1e-9 relative), a matching of
// entries, job 5's scaling bounds, with the results left on the device or on
// the host; bad arguments and bad arrays are the host call's statuses, and a
// host array passed as a device one is named. Jobs 4-5 of square,
// structurally nonsingular matrices run wholly on the device (the message
// says so) in every storage and value type, rows out of order included,
// with the host call's objective and (where the optimum is unique) its
// scalings; a fault there still gets the host call's status.
#include <doctest/doctest.h>

#ifdef MATCHBLAS_HAVE_CUDA
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
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

// matchblas_prepass_device on s with every output a device array (perm
// only when `square`), the outputs copied back.
Outputs call_with_device_outputs(const matchblas_sparse& s, const matchblas_prepass_options& opt,
                                 const matchblas_device_options& dev, bool square) {
  const std::size_t m = std::size_t(s.rows), n = std::size_t(s.cols);
  DeviceArray<std::int64_t> perm(square ? m : 0), row_mate(m), col_mate(n);
  DeviceArray<double> row_scale(m), col_scale(n);
  Outputs got;
  got.status = matchblas_prepass_device(&s, &opt, &dev, square ? perm.p : nullptr, row_mate.p, col_mate.p,
                                        row_scale.p, col_scale.p, &got.inform);
  got.perm = perm.host();
  got.row_mate = row_mate.host();
  got.col_mate = col_mate.host();
  got.row_scale = row_scale.host();
  got.col_scale = col_scale.host();
  return got;
}

// Job 5's scalings: every scaled |a_ij| at most 1, the matched ones 1
// (relative tolerance tol).
void check_scaling_bounds(const Csr<double>& a, const Outputs& got, double tol) {
  for (vertex_t i = 0; i < a.n_rows; ++i)
    for (auto k = a.offsets[i]; k < a.offsets[i + 1]; ++k) {
      const double x = std::abs(a.weights[k]);
      if (x == 0) continue;
      const double b = x * std::exp(got.row_scale[std::size_t(i)] + got.col_scale[std::size_t(a.cols[k])]);
      CHECK(b <= 1 + tol);
      if (got.row_mate[std::size_t(i)] == a.cols[k]) CHECK(b == doctest::Approx(1).epsilon(tol));
    }
}

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
    got = call_with_device_outputs(ds, opt, dev, square);
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
  // A square matrix's permutation: the matching, its unmatched rows taking
  // the free columns in increasing order (prepass_result's rule).
  if (square) {
    std::vector<std::int64_t> free_cols;
    for (std::size_t j = 0; j < n; ++j)
      if (got.col_mate[j] < 0) free_cols.push_back(std::int64_t(j));
    std::size_t next = 0;
    for (std::size_t i = 0; i < m; ++i) {
      const std::int64_t expected = got.row_mate[i] >= 0 ? got.row_mate[i] : free_cols.at(next++);
      CHECK(got.perm[i] == expected);
    }
  }
  // Job 1 of any shape, and jobs 4-5 of a square, structurally nonsingular
  // matrix, run wholly on the device.
  const std::string message = got.inform.message;
  if (job == 1 || ((job == 4 || job == 5) && square && host.inform.matched == std::int64_t(m)))
    CHECK(message.find("on the device arrays") != std::string::npos);
  if (got.inform.job == 5 && got.status == MATCHBLAS_OK) check_scaling_bounds(a, got, 1e-9);
}

// A square n x n matrix the device path takes: a full diagonal (so
// structurally nonsingular) and about density * n more entries a row;
// moduli exp(N(0, sigma)) clamped to e^+-700 (distinct a.s.), or (tied) from
// three values; signs random; explicit zeros off the diagonal when asked.
Csr<double> nonsingular_matrix(vertex_t n, double density, bool tied, bool zeros, std::uint64_t seed,
                               double sigma = 4) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  std::normal_distribution<double> normal(0, sigma);
  Csr<double> a;
  a.n_rows = a.n_cols = n;
  for (vertex_t i = 0; i < n; ++i) {
    for (vertex_t j = 0; j < n; ++j) {
      if (j != i && unit(rng) >= density) continue;
      double x = tied ? std::ldexp(1.0, int(rng() % 3)) : std::exp(std::clamp(normal(rng), -700.0, 700.0));
      if (zeros && j != i && unit(rng) < 0.05) x = 0;
      a.cols.push_back(j);
      a.weights.push_back(rng() % 2 ? -x : x);
    }
    a.offsets.push_back(matchblas::offset_t(a.cols.size()));
  }
  return a;
}

struct Storage {
  bool csc = false;
  int base = 0;
  bool reversed = false;  // each row's (column's) entries in decreasing index order
  int value_type = MATCHBLAS_DOUBLE;
  bool stream_and_host_outputs = false;  // a caller's stream, the results in host arrays
};

// x's bytes as the value type stores them: double, float, complex (0.6 x,
// 0.8 x: modulus |x|) in either precision, or none for a pattern.
std::vector<unsigned char> stored_values(const std::vector<double>& x, int type) {
  std::vector<unsigned char> out;
  const auto put = [&](auto v) {
    const auto* b = reinterpret_cast<const unsigned char*>(&v);
    out.insert(out.end(), b, b + sizeof v);
  };
  for (double v : x) switch (type) {
      case MATCHBLAS_DOUBLE: put(v); break;
      case MATCHBLAS_FLOAT: put(float(v)); break;
      case MATCHBLAS_COMPLEX_DOUBLE: put(0.6 * v), put(0.8 * v); break;
      case MATCHBLAS_COMPLEX_FLOAT: put(float(0.6 * v)), put(float(0.8 * v)); break;
      default: break;
    }
  return out;
}

// The host call and the device call on a's arrays stored as `st` (the host
// call reads the same arrays from host memory).
template <class Index>
void compare_paths(const Csr<double>& a, int job, const Storage& st, bool must_run_on_device, bool unique_optimum) {
  CAPTURE(job);
  CAPTURE(st.csc);
  CAPTURE(st.base);
  CAPTURE(st.reversed);
  CAPTURE(st.value_type);
  CAPTURE(st.stream_and_host_outputs);
  CAPTURE(sizeof(Index));
  Arrays<Index> h(a, st.csc, st.base);
  if (st.reversed)
    for (std::size_t o = 0; o + 1 < h.pointers.size(); ++o) {
      const auto b = std::size_t(h.pointers[o] - Index(st.base)), e = std::size_t(h.pointers[o + 1] - Index(st.base));
      std::reverse(h.indices.begin() + std::ptrdiff_t(b), h.indices.begin() + std::ptrdiff_t(e));
      std::reverse(h.values.begin() + std::ptrdiff_t(b), h.values.begin() + std::ptrdiff_t(e));
    }
  const std::vector<unsigned char> values = stored_values(h.values, st.value_type);
  const bool pattern = st.value_type == MATCHBLAS_PATTERN;
  Csr<double> seen = a;  // the moduli the calls see (a pattern's are 1)
  if (pattern) std::fill(seen.weights.begin(), seen.weights.end(), 1.0);
  const std::size_t n = std::size_t(a.n_rows);
  matchblas_prepass_options opt;
  matchblas_prepass_default_options(&opt);
  opt.job = job;
  matchblas_sparse hs = describe(a, st.csc, st.base, h.pointers.data(), h.indices.data(), h.values.data());
  hs.value_type = static_cast<decltype(hs.value_type)>(st.value_type);
  hs.values = pattern ? nullptr : values.data();
  Outputs host;
  host.perm.resize(n);
  host.row_mate.resize(n);
  host.col_mate.resize(n);
  host.row_scale.resize(n);
  host.col_scale.resize(n);
  host.status = matchblas_prepass(&hs, &opt, host.perm.data(), host.row_mate.data(), host.col_mate.data(),
                                  host.row_scale.data(), host.col_scale.data(), &host.inform);
  REQUIRE(host.status >= 0);

  DeviceArray<Index> d_pointers(h.pointers), d_indices(h.indices);
  DeviceArray<unsigned char> d_values(values);
  matchblas_sparse ds = hs;
  ds.pointers = d_pointers.p;
  ds.indices = d_indices.p;
  ds.values = pattern ? nullptr : d_values.p;
  matchblas_device_options dev;
  matchblas_device_default_options(&dev);
  Outputs got;
  if (st.stream_and_host_outputs) {
    cudaStream_t stream = nullptr;
    REQUIRE(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess);
    dev.stream = stream;
    dev.results_on_host = 1;
    got = host;
    got.status = matchblas_prepass_device(&ds, &opt, &dev, got.perm.data(), got.row_mate.data(),
                                          got.col_mate.data(), got.row_scale.data(), got.col_scale.data(),
                                          &got.inform);
    cudaStreamDestroy(stream);
  } else {
    got = call_with_device_outputs(ds, opt, dev, true);
  }
  INFO(got.inform.message);
  INFO(host.inform.message);
  const std::string message = got.inform.message;
  const bool on_device = message.find("on the device arrays") != std::string::npos;
  if (must_run_on_device) CHECK(on_device);
  else if (!on_device) MESSAGE("through host copies: " << message);
  CHECK(got.status == host.status);
  CHECK(got.inform.matched == std::int64_t(n));
  if (std::isinf(host.inform.objective)) CHECK(got.inform.objective == host.inform.objective);
  else CHECK(got.inform.objective == doctest::Approx(host.inform.objective).epsilon(1e-9));
  double smallest = INFINITY;  // over the matching returned (optima may differ where values tie)
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t j = got.row_mate[i];
    REQUIRE(j >= 0);
    REQUIRE(j < std::int64_t(n));
    CHECK(got.col_mate[std::size_t(j)] == std::int64_t(i));
    CHECK(got.perm[i] == j);
    REQUIRE(modulus(seen, vertex_t(i), vertex_t(j)) >= 0);
    smallest = std::min(smallest, modulus(seen, vertex_t(i), vertex_t(j)));
  }
  CHECK(got.inform.min_matched_abs == doctest::Approx(smallest).epsilon(1e-6));
  if (unique_optimum && job != 1)  // job 1: any maximum matching
    CHECK(got.inform.min_matched_abs == doctest::Approx(host.inform.min_matched_abs).epsilon(1e-6));
  if (job != 5 || got.status != MATCHBLAS_OK) return;
  check_scaling_bounds(seen, got, 1e-6);  // float values: a's doubles rounded
  if (!unique_optimum) return;
  // The canonical duals of the one optimum: the host call's, to rounding.
  CHECK(got.row_mate == host.row_mate);
  for (std::size_t i = 0; i < n; ++i) {
    CHECK(got.row_scale[i] == doctest::Approx(host.row_scale[i]).epsilon(1e-7));
    CHECK(got.col_scale[i] == doctest::Approx(host.col_scale[i]).epsilon(1e-7));
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
    matrices.push_back(matchblas::check::random_signed_matrix<double>(70, 40, 0.1, seed + 20));  // tall
  }
  // Square with three empty rows and three empty columns at other places:
  // the permutation's free columns in order, several of them.
  Csr<double> holes = nonsingular_matrix(60, 0.08, false, false, 9);
  {
    Csr<double> kept;
    kept.n_rows = kept.n_cols = 60;
    for (vertex_t i = 0; i < 60; ++i) {
      if (i != 5 && i != 20 && i != 41)
        for (auto k = holes.offsets[i]; k < holes.offsets[i + 1]; ++k)
          if (holes.cols[k] != 7 && holes.cols[k] != 33 && holes.cols[k] != 50) {
            kept.cols.push_back(holes.cols[k]);
            kept.weights.push_back(holes.weights[k]);
          }
      kept.offsets.push_back(matchblas::offset_t(kept.cols.size()));
    }
    matrices.push_back(kept);
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

TEST_CASE("prepass on device arrays: jobs 4-5 of a square matrix wholly on the device, every storage") {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    for (vertex_t n : {1, 2, 50, 400}) {
      CAPTURE(n);
      CAPTURE(seed);
      const double density = n > 100 ? 0.01 : 0.1;
      const Csr<double> distinct = nonsingular_matrix(n, density, false, false, seed);
      const Csr<double> tied = nonsingular_matrix(n, density, true, false, seed + 100);
      const Csr<double> zeros = nonsingular_matrix(n, density, false, true, seed + 200);
      const Csr<double> wide = nonsingular_matrix(n, density, false, false, seed + 300, 150);  // e^+-700
      for (int job : {1, 4, 5}) {
        compare_paths<std::int32_t>(wide, job, {}, true, true);
        compare_paths<std::int32_t>(distinct, job, {.value_type = MATCHBLAS_PATTERN}, true, false);
        compare_paths<std::int64_t>(distinct, job, {.value_type = MATCHBLAS_COMPLEX_FLOAT}, true, false);
        compare_paths<std::int32_t>(distinct, job, {.csc = true, .stream_and_host_outputs = true}, true, true);
        compare_paths<std::int32_t>(distinct, job, {}, true, true);
        compare_paths<std::int64_t>(distinct, job, {.csc = true, .base = 1}, true, true);
        compare_paths<std::int64_t>(distinct, job, {.base = 1, .reversed = true}, true, true);
        compare_paths<std::int32_t>(distinct, job, {.csc = true, .reversed = true}, true, true);
        compare_paths<std::int32_t>(distinct, job, {.value_type = MATCHBLAS_FLOAT}, true, false);
        compare_paths<std::int32_t>(distinct, job, {.csc = true, .value_type = MATCHBLAS_COMPLEX_DOUBLE}, true, false);
        compare_paths<std::int32_t>(tied, job, {}, true, false);
        compare_paths<std::int64_t>(tied, job, {.csc = true}, true, false);
        compare_paths<std::int32_t>(zeros, job, {}, false, false);
        compare_paths<std::int32_t>(zeros, job, {.csc = true, .base = 1, .reversed = true}, false, false);
      }
    }
  }
}

TEST_CASE("prepass on device arrays: faults the device path finds get the host call's status") {
  const Csr<double> a = nonsingular_matrix(30, 0.2, false, false, 4);
  const Arrays<std::int64_t> h(a, false, 0);
  DeviceArray<std::int64_t> d_pointers(h.pointers);
  DeviceArray<std::int64_t> row_mate(30);
  matchblas_inform inform{};
  const auto run = [&](const std::vector<std::int64_t>& indices, const std::vector<double>& values, bool csc) {
    const Arrays<std::int64_t> stored(a, csc, 0);
    DeviceArray<std::int64_t> p(csc ? stored.pointers : h.pointers), i(indices);
    DeviceArray<double> v(values);
    const matchblas_sparse s = describe(a, csc, 0, p.p, i.p, v.p);
    return matchblas_prepass_device(&s, nullptr, nullptr, nullptr, row_mate.p, nullptr, nullptr, nullptr, &inform);
  };
  REQUIRE(run(h.indices, h.values, false) == MATCHBLAS_OK);
  CHECK(std::string(inform.message).find("on the device arrays") != std::string::npos);
  // An entry given twice: row 0's second column made its first.
  REQUIRE(h.pointers[1] - h.pointers[0] >= 2);
  std::vector<std::int64_t> twice = h.indices;
  twice[1] = twice[0];
  CHECK(run(twice, h.values, false) == MATCHBLAS_ERR_DUPLICATE_ENTRY);
  const Arrays<std::int64_t> c(a, true, 0);
  REQUIRE(c.pointers[1] - c.pointers[0] >= 2);
  std::vector<std::int64_t> twice_csc = c.indices;
  twice_csc[1] = twice_csc[0];
  CHECK(run(twice_csc, c.values, true) == MATCHBLAS_ERR_DUPLICATE_ENTRY);
  // A value not finite.
  std::vector<double> nan = h.values;
  nan[5] = std::nan("");
  CHECK(run(h.indices, nan, false) == MATCHBLAS_ERR_BAD_VALUE);
  std::vector<double> inf = h.values;
  inf[7] = -INFINITY;
  CHECK(run(h.indices, inf, false) == MATCHBLAS_ERR_BAD_VALUE);
  // A negative index.
  std::vector<std::int64_t> negative = h.indices;
  negative[3] = -1;
  CHECK(run(negative, h.values, false) == MATCHBLAS_ERR_INDEX_OUT_OF_RANGE);
  // Pointers that decrease, with a last pointer far beyond the arrays:
  // named before any entry is read; then the device is still usable.
  const auto run_pointers = [&](const std::vector<std::int64_t>& pointers, const std::vector<std::int64_t>& indices) {
    DeviceArray<std::int64_t> p(pointers), i(indices);
    DeviceArray<double> v(std::vector<double>(indices.size(), 1.0));
    matchblas_sparse s = describe(Csr<double>{}, false, 0, p.p, i.p, v.p);
    s.rows = s.cols = std::int64_t(pointers.size()) - 1;
    return matchblas_prepass_device(&s, nullptr, nullptr, nullptr, row_mate.p, nullptr, nullptr, nullptr, &inform);
  };
  CHECK(run_pointers({0, 2, 1, std::int64_t(1) << 40}, {0, 1, 2}) == MATCHBLAS_ERR_BAD_POINTERS);
  CHECK(run_pointers({0, 2, 1, std::int64_t(1) << 27}, {0, 1, 2}) == MATCHBLAS_ERR_BAD_POINTERS);
  CHECK(run_pointers({1, 2, 3, 4}, {0, 1, 2}) == MATCHBLAS_ERR_BAD_POINTERS);  // pointers[0] is not the base
  // Non-decreasing pointers whose last one reaches past the indices: named.
  CHECK(run_pointers({0, 1, 2, std::int64_t(1) << 27}, {0, 1, 2}) == MATCHBLAS_ERR_BAD_INPUT);
  CHECK(std::string(inform.message).find("indices") != std::string::npos);
  // A duplicate that is not next to its twin in an unsorted row.
  CHECK(run_pointers({0, 3, 4, 5}, {0, 1, 0, 1, 2}) == MATCHBLAS_ERR_DUPLICATE_ENTRY);
  REQUIRE(run(h.indices, h.values, false) == MATCHBLAS_OK);
  CHECK(std::string(inform.message).find("on the device arrays") != std::string::npos);
  // Structurally singular (an empty row): the host's status and matched count.
  Csr<double> singular = a;
  const auto drop = singular.offsets[3] - singular.offsets[2];
  singular.cols.erase(singular.cols.begin() + singular.offsets[2], singular.cols.begin() + singular.offsets[3]);
  singular.weights.erase(singular.weights.begin() + singular.offsets[2],
                         singular.weights.begin() + singular.offsets[3]);
  for (std::size_t i = 3; i < singular.offsets.size(); ++i) singular.offsets[i] -= drop;
  const Arrays<std::int64_t> sh(singular, false, 0);
  DeviceArray<std::int64_t> sp(sh.pointers), si(sh.indices);
  DeviceArray<double> sv(sh.values);
  const matchblas_sparse ss = describe(singular, false, 0, sp.p, si.p, sv.p);
  CHECK(matchblas_prepass_device(&ss, nullptr, nullptr, nullptr, row_mate.p, nullptr, nullptr, nullptr, &inform) ==
        MATCHBLAS_STRUCTURALLY_SINGULAR);
  CHECK(std::string(inform.message).find("structurally singular") != std::string::npos);
  CHECK(inform.matched == 29);
  // A failed call writes nothing.
  DeviceArray<std::int64_t> untouched(std::vector<std::int64_t>(30, -7));
  std::vector<double> bad_value = h.values;
  bad_value[0] = INFINITY;
  DeviceArray<double> d_bad(bad_value);
  DeviceArray<std::int64_t> d_idx(h.indices);
  const matchblas_sparse sb = describe(a, false, 0, d_pointers.p, d_idx.p, d_bad.p);
  CHECK(matchblas_prepass_device(&sb, nullptr, nullptr, nullptr, untouched.p, nullptr, nullptr, nullptr, &inform) ==
        MATCHBLAS_ERR_BAD_VALUE);
  CHECK(untouched.host() == std::vector<std::int64_t>(30, -7));
}

TEST_CASE("prepass on device arrays: job 5 whose optimum needs an explicit zero goes through host copies") {
  // Row 0 holds only (0, 0), an explicit zero: every perfect matching has it.
  Csr<double> a = nonsingular_matrix(40, 0.1, false, false, 8);
  REQUIRE(a.cols[0] == 0);
  const auto drop = a.offsets[1] - 1;  // row 0's entries after its first, (0, 0)
  a.cols.erase(a.cols.begin() + 1, a.cols.begin() + 1 + drop);
  a.weights.erase(a.weights.begin() + 1, a.weights.begin() + 1 + drop);
  for (auto& o : a.offsets) o = o == 0 ? 0 : o - drop;
  a.weights[0] = 0;
  compare_paths<std::int32_t>(a, 4, {}, true, false);
  compare_paths<std::int32_t>(a, 5, {}, false, false);
  const Arrays<std::int32_t> h(a, false, 0);
  DeviceArray<std::int32_t> p(h.pointers), i(h.indices);
  DeviceArray<double> v(h.values);
  const matchblas_sparse s = describe(a, false, 0, p.p, i.p, v.p);
  DeviceArray<std::int64_t> row_mate(40);
  matchblas_inform inform{};
  CHECK(matchblas_prepass_device(&s, nullptr, nullptr, nullptr, row_mate.p, nullptr, nullptr, nullptr, &inform) ==
        MATCHBLAS_OK);
  CHECK(std::string(inform.message).find("through host copies: an explicit zero") != std::string::npos);
  CHECK(std::isinf(inform.objective));
}

namespace {

// One triangle of a's symmetric pattern with the diagonal: each
// off-diagonal (i, j), i > j, of a kept as (i, j) or, when `mixed` and a
// coin says so, as (j, i): the symmetric mode's input, in which no pair is
// given twice.
Csr<double> one_triangle(const Csr<double>& a, bool mixed, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<std::pair<vertex_t, double>>> rows(std::size_t(a.n_rows));
  for (vertex_t i = 0; i < a.n_rows; ++i)
    for (auto k = a.offsets[i]; k < a.offsets[i + 1]; ++k) {
      const vertex_t j = a.cols[k];
      if (j > i) continue;
      if (mixed && j < i && rng() % 2) rows[std::size_t(j)].push_back({i, a.weights[k]});
      else rows[std::size_t(i)].push_back({j, a.weights[k]});
    }
  Csr<double> t;
  t.n_rows = t.n_cols = a.n_rows;
  for (auto& row : rows) {
    std::sort(row.begin(), row.end());
    for (const auto& [j, w] : row) {
      t.cols.push_back(j);
      t.weights.push_back(w);
    }
    t.offsets.push_back(matchblas::offset_t(t.cols.size()));
  }
  return t;
}

}  // namespace

TEST_CASE("prepass on device arrays: job 5's symmetric mode wholly on the device, the host call's scaling") {
  for (std::uint64_t seed = 1; seed <= 3; ++seed)
    for (vertex_t n : {1, 2, 50, 300}) {
      CAPTURE(seed);
      CAPTURE(n);
      const Csr<double> full = nonsingular_matrix(n, n > 100 ? 0.02 : 0.1, false, false, seed);
      for (int variant = 0; variant < 3; ++variant) {
        // The lower triangle by rows; by columns; each pair in a random
        // triangle, rows in decreasing column order.
        const bool csc = variant == 1;
        CAPTURE(variant);
        const Csr<double> l = one_triangle(full, variant == 2, seed);
        Arrays<std::int32_t> h(l, csc, csc ? 1 : 0);
        if (variant == 2)
          for (std::size_t o = 0; o + 1 < h.pointers.size(); ++o) {
            const auto b = std::ptrdiff_t(h.pointers[o]), e = std::ptrdiff_t(h.pointers[o + 1]);
            std::reverse(h.indices.begin() + b, h.indices.begin() + e);
            std::reverse(h.values.begin() + b, h.values.begin() + e);
          }
        matchblas_prepass_options opt;
        matchblas_prepass_default_options(&opt);
        opt.job = 5;
        opt.symmetric = 1;
        matchblas_sparse hs = describe(l, csc, csc ? 1 : 0, h.pointers.data(), h.indices.data(), h.values.data());
        Outputs host;
        host.perm.resize(std::size_t(n));
        host.row_mate.resize(std::size_t(n));
        host.col_mate.resize(std::size_t(n));
        host.row_scale.resize(std::size_t(n));
        host.col_scale.resize(std::size_t(n));
        host.status = matchblas_prepass(&hs, &opt, host.perm.data(), host.row_mate.data(), host.col_mate.data(),
                                        host.row_scale.data(), host.col_scale.data(), &host.inform);
        REQUIRE(host.status >= 0);
        DeviceArray<std::int32_t> p(h.pointers), i(h.indices);
        DeviceArray<double> v(h.values);
        matchblas_sparse ds = hs;
        ds.pointers = p.p;
        ds.indices = i.p;
        ds.values = v.p;
        matchblas_device_options dev;
        matchblas_device_default_options(&dev);
        const Outputs got = call_with_device_outputs(ds, opt, dev, true);
        INFO(got.inform.message);
        CHECK(std::string(got.inform.message).find("on the device arrays") != std::string::npos);
        CHECK(got.status == host.status);
        CHECK(got.inform.matched == host.inform.matched);
        CHECK(got.inform.objective == doctest::Approx(host.inform.objective).epsilon(1e-9));
        CHECK(got.row_scale == got.col_scale);
        for (std::size_t k = 0; k < std::size_t(n); ++k)
          CHECK(got.row_scale[k] == doctest::Approx(host.row_scale[k]).epsilon(1e-7));
      }
    }
  // An off-diagonal entry given in both triangles: the host call's status.
  std::vector<std::int64_t> ptr{0, 2, 4}, idx{0, 1, 0, 1};
  std::vector<double> val{2, 1, 1, 3};
  DeviceArray<std::int64_t> p(ptr), i(idx);
  DeviceArray<double> v(val);
  matchblas_sparse s{};
  s.rows = s.cols = 2;
  s.layout = MATCHBLAS_CSR;
  s.index_type = MATCHBLAS_INT64;
  s.value_type = MATCHBLAS_DOUBLE;
  s.pointers = p.p;
  s.indices = i.p;
  s.values = v.p;
  matchblas_prepass_options opt;
  matchblas_prepass_default_options(&opt);
  opt.job = 5;
  opt.symmetric = 1;
  matchblas_device_options dev;
  matchblas_device_default_options(&dev);
  const Outputs got = call_with_device_outputs(s, opt, dev, true);
  CHECK(got.status == MATCHBLAS_ERR_DUPLICATE_ENTRY);
  CHECK(std::string(got.inform.message).find("both triangles") != std::string::npos);
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
  CHECK(got.inform.message.find("on the device arrays") != std::string::npos);
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
