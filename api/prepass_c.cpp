// The C interface of the pre-pass (include/matchblas/prepass.h): checks the
// caller's arrays (each failure a named status and a message naming the
// entry), builds the row-oriented Csr of |A| (0-based, 32-bit ids), runs
// matchers/bipartite/prepass.hpp and copies the results out. Nothing
// escapes as an exception.
#include "matchblas/prepass.h"

#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <limits>
#include <new>
#include <string>
#include <vector>

#include "c_api_support.hpp"
#include "lib/error.hpp"
#include "matchers/bipartite/prepass.hpp"

namespace matchblas {
namespace {

using namespace capi;


// The row-oriented Csr of |A| (0-based); `mirror` adds (j, i) for every
// off-diagonal (i, j) (the symmetric mode's one triangle).
Csr<double> moduli_csr(const matchblas_sparse& a, bool mirror) {
  const bool csr = a.layout == MATCHBLAS_CSR;
  const std::int64_t outer = csr ? a.rows : a.cols;
  Csr<double> m;
  m.n_rows = static_cast<vertex_t>(a.rows);
  m.n_cols = static_cast<vertex_t>(a.cols);
  std::vector<offset_t> count(std::size_t(a.rows) + 1, 0);
  auto for_each = [&](auto&& f) {
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int64_t k = read_index(a, a.pointers, o) - a.base; k < read_index(a, a.pointers, o + 1) - a.base; ++k) {
        const std::int64_t inner = read_index(a, a.indices, k) - a.base;
        const vertex_t i = vertex_t(csr ? o : inner), j = vertex_t(csr ? inner : o);
        const double x = read_modulus(a, k);
        f(i, j, x);
        if (mirror && i != j) f(j, i, x);
      }
  };
  for_each([&](vertex_t i, vertex_t, double) { ++count[std::size_t(i) + 1]; });
  for (std::size_t i = 0; i < std::size_t(a.rows); ++i) count[i + 1] += count[i];
  m.offsets = count;
  m.cols.resize(std::size_t(count.back()));
  m.weights.resize(std::size_t(count.back()));
  for_each([&](vertex_t i, vertex_t j, double x) {
    const offset_t p = count[i]++;
    m.cols[p] = j;
    m.weights[p] = x;
  });
  // No entry twice (a marker per column, one row at a time).
  std::vector<vertex_t> seen(std::size_t(a.cols), -1);
  for (vertex_t i = 0; i < m.n_rows; ++i)
    for (offset_t k = m.offsets[i]; k < m.offsets[i + 1]; ++k) {
      if (seen[m.cols[k]] == i)
        fail(MATCHBLAS_ERR_DUPLICATE_ENTRY,
             "the entry (" + std::to_string(i + a.base) + ", " + std::to_string(m.cols[k] + a.base) + ") is given twice" +
                 (mirror ? " (in symmetric mode an off-diagonal entry stands for both triangles)" : ""));
      seen[m.cols[k]] = i;
    }
  return m;
}

}  // namespace
}  // namespace matchblas

using namespace matchblas;
using namespace matchblas::capi;

extern "C" void matchblas_prepass_default_options(matchblas_prepass_options* options) {
  if (!options) return;
  options->job = MATCHBLAS_JOB_AUTO;
  options->symmetric = 0;
}

extern "C" int matchblas_prepass(const matchblas_sparse* a, const matchblas_prepass_options* options, int64_t* perm,
                                 int64_t* row_mate, int64_t* col_mate, double* row_log_scale, double* col_log_scale,
                                 matchblas_inform* inform) {
  const auto start = std::chrono::steady_clock::now();
  if (inform) {
    *inform = matchblas_inform{};
    inform->job = -1;
  }
  return guarded(inform, [&] {
    const CallThreads threads(0);
    matchblas_prepass_options opt;
    matchblas_prepass_default_options(&opt);
    if (options) opt = *options;
    check_sparse(a);
    if (opt.job < MATCHBLAS_JOB_AUTO || opt.job > MATCHBLAS_JOB_MAX_PRODUCT)
      fail(MATCHBLAS_ERR_BAD_JOB, "job " + std::to_string(opt.job) + " is not one of -1 (auto) and 0-5");
    const int job = opt.job == MATCHBLAS_JOB_AUTO ? (a->value_type == MATCHBLAS_PATTERN && !opt.symmetric ? 1 : 5) : opt.job;
    if (opt.symmetric && job != 5)
      fail(MATCHBLAS_ERR_BAD_JOB, "the symmetric mode scales, so it needs job 5 (job " + std::to_string(job) + " given)");
    if (opt.symmetric && a->rows != a->cols)
      fail(MATCHBLAS_ERR_NOT_SYMMETRIC, "the symmetric mode needs a square matrix, this one is " +
                                            std::to_string(a->rows) + " x " + std::to_string(a->cols));
    if (perm && a->rows != a->cols)
      fail(MATCHBLAS_ERR_BAD_DIMENSION, "a permutation needs a square matrix (this one is " + std::to_string(a->rows) +
                                            " x " + std::to_string(a->cols) + "); pass perm = NULL and read row_mate");
    const Csr<double> m = moduli_csr(*a, opt.symmetric != 0);
    const PrepassResult r = prepass(m, {.job = job, .symmetric = opt.symmetric != 0});
    for (vertex_t i = 0; i < m.n_rows; ++i) {
      if (perm) perm[i] = r.perm[i];
      if (row_mate) row_mate[i] = r.mates.row_mate[i];
      if (row_log_scale && job == 5) row_log_scale[i] = r.row_log_scale[i];
    }
    for (vertex_t j = 0; j < m.n_cols; ++j) {
      if (col_mate) col_mate[j] = r.mates.col_mate[j];
      if (col_log_scale && job == 5) col_log_scale[j] = r.col_log_scale[j];
    }
    const int status = r.scaling_near_overflow ? MATCHBLAS_SCALING_NEAR_OVERFLOW
                       : r.singular            ? MATCHBLAS_STRUCTURALLY_SINGULAR
                                               : MATCHBLAS_OK;
    if (inform) {
      inform->job = job;
      inform->matched = r.mates.matched;
      inform->objective = r.objective;
      inform->min_matched_abs = r.min_matched_abs;
      inform->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    set_status(inform, status,
               status == MATCHBLAS_OK ? "ok"
               : status == MATCHBLAS_STRUCTURALLY_SINGULAR
                   ? "structurally singular: " + std::to_string(r.mates.matched) + " of " +
                         std::to_string(std::min(m.n_rows, m.n_cols)) + " matched"
                   : "the scalings exceed log(DBL_MAX)/2 somewhere and may overflow when applied");
    return status;
  });
}

extern "C" int matchblas_apply_scaling(const matchblas_sparse* a, const double* row_log_scale,
                                       const double* col_log_scale, void* scaled_values, matchblas_inform* inform) {
  if (inform) *inform = matchblas_inform{};
  return guarded(inform, [&] {
    check_sparse(a);
    if (a->value_type == MATCHBLAS_PATTERN) fail(MATCHBLAS_ERR_BAD_FORMAT, "a pattern has no values to scale");
    if (!row_log_scale || !col_log_scale || !scaled_values)
      fail(MATCHBLAS_ERR_NULL_ARGUMENT, "a scaling or the output values are NULL");
    const bool csr = a->layout == MATCHBLAS_CSR;
    const std::int64_t outer = csr ? a->rows : a->cols;
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int64_t k = read_index(*a, a->pointers, o) - a->base; k < read_index(*a, a->pointers, o + 1) - a->base; ++k) {
        const std::int64_t inner = read_index(*a, a->indices, k) - a->base;
        const double s = row_log_scale[csr ? o : inner] + col_log_scale[csr ? inner : o];
        const double x = read_modulus(*a, k);
        // The modulus exp(log|a_ij| + s) (never overflows on the way to a
        // bounded result), then a_ij's sign or phase.
        const double mag = x == 0 ? 0.0 : std::exp(std::log(x) + s);
        switch (a->value_type) {
          case MATCHBLAS_DOUBLE:
            static_cast<double*>(scaled_values)[k] = std::copysign(mag, static_cast<const double*>(a->values)[k]);
            break;
          case MATCHBLAS_FLOAT:
            static_cast<float*>(scaled_values)[k] = float(std::copysign(mag, static_cast<const float*>(a->values)[k]));
            break;
          case MATCHBLAS_COMPLEX_DOUBLE:
            for (int p = 0; p < 2; ++p)
              static_cast<double*>(scaled_values)[2 * k + p] =
                  x == 0 ? 0.0 : static_cast<const double*>(a->values)[2 * k + p] / x * mag;
            break;
          default:
            for (int p = 0; p < 2; ++p)
              static_cast<float*>(scaled_values)[2 * k + p] =
                  x == 0 ? 0.0f : float(static_cast<const float*>(a->values)[2 * k + p] / x * mag);
        }
      }
    set_status(inform, MATCHBLAS_OK, "ok");
    return MATCHBLAS_OK;
  });
}

