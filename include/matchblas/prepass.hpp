// matchblas's diagonal pre-pass for C++ callers: header-only, typed wrappers
// over the C interface (matchblas/prepass.h), whose ABI they keep. The jobs
// and every output mean what prepass.h says; in short, for an m-by-n A:
//   perm[i]      (square A only) the column matched to row i, completed into
//                a permutation. Row i of A is row perm[i] of P A, and column
//                perm[j] of A is column j of A Q: both P A and A Q carry the
//                matched entries on their diagonal. This is SuperLU's perm_r
//                and MC64's CPERM (0-based).
//   row_mate[i], col_mate[j]   the matched column / row, -1 when unmatched.
//   row_log_scale r, col_log_scale c   (job 5 only; empty otherwise)
//                |a_ij| exp(r_i + c_j) = 1 on the matching and <= 1 elsewhere.
// Invalid input (a negative status) throws api::error (prepass_error) carrying the
// status and the C interface's message; +1 (structurally singular: a maximum
// partial matching) and +2 (scalings near overflow) are not errors: they are
// reported in Result::inform.
//
//   std::vector<int> ptr = ..., idx = ...; std::vector<double> val = ...;
//   namespace mb = matchblas::api;
//   mb::Result r = mb::prepass(mb::csc(n, n, ptr, idx, val), {.job = mb::Job::max_product});
//   std::vector<double> scaled = mb::scaled_values(mb::csc(n, n, ptr, idx, val), r);
//
// Index: any signed 32- or 64-bit integer; Value: float, double,
// std::complex<float>, std::complex<double> (the modulus counts) or
// api::Pattern (no values: every entry is 1). The Eigen adapter is eigen.hpp.
#pragma once

#include <complex>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "matchblas/common.hpp"
#include "matchblas/prepass.h"

namespace matchblas::api {

enum class Job : int {
  automatic = MATCHBLAS_JOB_AUTO,  // max_product with values, cardinality for a pattern
  none = MATCHBLAS_JOB_NONE,
  cardinality = MATCHBLAS_JOB_CARDINALITY,
  bottleneck = MATCHBLAS_JOB_BOTTLENECK,
  bottleneck_threshold = MATCHBLAS_JOB_BOTTLENECK_THRESHOLD,
  max_sum = MATCHBLAS_JOB_MAX_SUM,
  max_product = MATCHBLAS_JOB_MAX_PRODUCT
};

struct Options {
  Job job = Job::automatic;
  // Job 5 on a square matrix given by ONE triangle (each off-diagonal entry
  // stands for (i, j) and (j, i)): one scaling vector, returned as both
  // row_log_scale and col_log_scale (MC64's symmetric variant).
  bool symmetric = false;
};

struct Inform {
  int status = MATCHBLAS_OK;   // 0, +1 structurally singular, +2 scalings near overflow
  Job job = Job::automatic;    // the job run (automatic resolved)
  std::int64_t matched = 0;    // matched pairs (the structural rank for jobs 1-5)
  double objective = 0;        // as matchblas_inform's
  double min_matched_abs = 0;  // smallest matched |a_ij|
  double seconds = 0;          // the whole call
  std::string message;         // "ok", or what was found
};

struct Result {
  std::vector<std::int64_t> perm;       // rows entries for a square A; empty otherwise
  std::vector<std::int64_t> row_mate;   // rows entries
  std::vector<std::int64_t> col_mate;   // cols entries
  std::vector<double> row_log_scale;    // job 5: rows entries; empty otherwise
  std::vector<double> col_log_scale;    // job 5: cols entries; empty otherwise
  Inform inform;

  bool structurally_singular() const noexcept { return inform.status == MATCHBLAS_STRUCTURALLY_SINGULAR; }
  bool scaling_near_overflow() const noexcept { return inform.status == MATCHBLAS_SCALING_NEAR_OVERFLOW; }
};

// Invalid input (a negative status): api::error (common.hpp), of which
// this is the older name.
using prepass_error = error;

// Where prepass_device finds a's arrays: GPU `device`, the copies queued on
// `stream` (a cudaStream_t; nullptr: the default stream).
struct DeviceOptions {
  int device = 0;
  void* stream = nullptr;
};

namespace detail {

// The Result of run(s, opt, perm, row_mate, col_mate, row_log_scale,
// col_log_scale, inform), one of the C entries, on a's description (arrays
// in host memory or not: to_c).
template <class Index, class Value, class Run>
Result run_prepass(const SparseView<Index, Value>& a, const Options& options, bool host_arrays, Run&& run) {
  const matchblas_sparse s = to_c(a, host_arrays);
  matchblas_prepass_options opt;
  matchblas_prepass_default_options(&opt);
  opt.job = static_cast<int>(options.job);
  opt.symmetric = options.symmetric ? 1 : 0;
  Result r;
  const bool sized = plausible(a.rows, a.cols);
  const bool scales = options.job == Job::automatic || options.job == Job::max_product;
  if (sized) {
    if (a.rows == a.cols) r.perm.resize(static_cast<std::size_t>(a.rows));
    r.row_mate.resize(static_cast<std::size_t>(a.rows));
    r.col_mate.resize(static_cast<std::size_t>(a.cols));
    if (scales) {
      r.row_log_scale.resize(static_cast<std::size_t>(a.rows));
      r.col_log_scale.resize(static_cast<std::size_t>(a.cols));
    }
  }
  matchblas_inform inform{};
  const int status = run(&s, &opt, sized && a.rows == a.cols ? r.perm.data() : nullptr,
                         sized ? r.row_mate.data() : nullptr, sized ? r.col_mate.data() : nullptr,
                         sized && scales ? r.row_log_scale.data() : nullptr,
                         sized && scales ? r.col_log_scale.data() : nullptr, &inform);
  if (status < 0) throw prepass_error(status, inform.message);
  if (inform.job != MATCHBLAS_JOB_MAX_PRODUCT) {
    r.row_log_scale.clear();
    r.col_log_scale.clear();
  }
  r.inform = {status,          static_cast<Job>(inform.job), inform.matched, inform.objective,
              inform.min_matched_abs, inform.seconds,        inform.message};
  return r;
}

}  // namespace detail

// Runs the pre-pass. Throws prepass_error on invalid input (and for an
// allocation failure, MATCHBLAS_ERR_OUT_OF_MEMORY).
template <class Index, class Value>
Result prepass(const SparseView<Index, Value>& a, const Options& options = {}) {
  return detail::run_prepass(a, options, true, matchblas_prepass);
}

// The pre-pass on a matrix whose pointers, indices and values are arrays in
// the memory of GPU device.device (a CuPy or cuDSS matrix's, say; see
// matchblas_prepass_device for what runs where); the results come back to
// the host. For results left on the device, call matchblas_prepass_device.
// Throws as prepass(), and MATCHBLAS_ERR_UNAVAILABLE without a GPU.
template <class Index, class Value>
Result prepass_device(const SparseView<Index, Value>& a, const Options& options = {},
                      const DeviceOptions& device = {}) {
  matchblas_device_options d;
  matchblas_device_default_options(&d);
  d.device = device.device;
  d.stream = device.stream;
  d.results_on_host = 1;
  return detail::run_prepass(a, options, false,
                             [&](const matchblas_sparse* s, const matchblas_prepass_options* opt, std::int64_t* perm,
                                 std::int64_t* row_mate, std::int64_t* col_mate, double* row_log_scale,
                                 double* col_log_scale, matchblas_inform* inform) {
                               return matchblas_prepass_device(s, opt, &d, perm, row_mate, col_mate, row_log_scale,
                                                               col_log_scale, inform);
                             });
}

// b_ij = a_ij exp(r_i + c_j) for every entry of a, in a's storage order
// (computed without overflow on the way to a bounded result; explicit zeros
// stay zero). col_log_scale may be row_log_scale (symmetric mode).
template <class Index, class Value>
std::vector<Value> scaled_values(const SparseView<Index, Value>& a, std::span<const double> row_log_scale,
                                 std::span<const double> col_log_scale) {
  static_assert(!std::is_same_v<Value, Pattern>, "matchblas: a pattern has no values to scale");
  const matchblas_sparse s = detail::to_c(a);
  if (!detail::plausible(a.rows, a.cols) || row_log_scale.size() != static_cast<std::size_t>(a.rows) ||
      col_log_scale.size() != static_cast<std::size_t>(a.cols))
    throw prepass_error(MATCHBLAS_ERR_BAD_DIMENSION,
                        "scalings of " + std::to_string(row_log_scale.size()) + " and " +
                            std::to_string(col_log_scale.size()) + " entries for a " + std::to_string(a.rows) +
                            " x " + std::to_string(a.cols) + " matrix");
  const std::int64_t outer = a.layout == Layout::csr ? a.rows : a.cols;
  // (A last offset below the base is bad pointers: the C interface says so
  // before it writes anything.)
  const std::int64_t nnz = static_cast<std::int64_t>(a.pointers[static_cast<std::size_t>(outer)]) - a.base;
  std::vector<Value> out(static_cast<std::size_t>(nnz > 0 ? nnz : 0));
  // The C interface takes NULL for a missing array, also an empty one: an
  // empty matrix's arrays point here instead.
  static const double no_scale = 0;
  Value no_value{};
  matchblas_inform inform{};
  const int status = matchblas_apply_scaling(&s, row_log_scale.empty() ? &no_scale : row_log_scale.data(),
                                             col_log_scale.empty() ? &no_scale : col_log_scale.data(),
                                             out.empty() ? &no_value : out.data(), &inform);
  if (status < 0) throw prepass_error(status, inform.message);
  return out;
}

// The scalings of a job-5 result applied to a (throws MATCHBLAS_ERR_BAD_JOB
// for a result of another job: it has no scalings).
template <class Index, class Value>
std::vector<Value> scaled_values(const SparseView<Index, Value>& a, const Result& r) {
  if (r.inform.job != Job::max_product)
    throw prepass_error(MATCHBLAS_ERR_BAD_JOB, "only job 5 computes scalings (this result is job " +
                                                   std::to_string(static_cast<int>(r.inform.job)) + ")");
  return scaled_values(a, std::span<const double>(r.row_log_scale), std::span<const double>(r.col_log_scale));
}

}  // namespace matchblas::api
