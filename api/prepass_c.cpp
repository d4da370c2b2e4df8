// The C interface of the pre-pass (include/matchblas/prepass.h): checks the
// caller's arrays (each failure a named status and a message naming the
// entry), builds the row-oriented Csr of |A| (0-based, 32-bit ids), runs
// matchers/bipartite/prepass.hpp and copies the results out. The device
// entry runs job 1, and jobs 4 and 5 of a square matrix, wholly on the
// device (matchers/bipartite/prepass_device.hpp); otherwise, or where that path
// declines, it copies the caller's device arrays to the host, runs the
// job's GPU registry entry and copies the results back where the caller
// wants them. Nothing escapes as an exception.
#include "matchblas/prepass.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <new>
#include <string>
#include <tuple>
#include <vector>

#include "c_api_support.hpp"
#include "lib/error.hpp"
#include "matchers/bipartite/prepass.hpp"
#include "matchers/bipartite/prepass_device.hpp"
#include "matchers/registry.hpp"
#include "ops/gpu/device.hpp"
#include "ops/gpu_device_entries.hpp"

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

void start_inform(matchblas_inform* inform) {
  if (!inform) return;
  *inform = matchblas_inform{};
  inform->job = -1;
}

matchblas_prepass_options options_or_default(const matchblas_prepass_options* options) {
  matchblas_prepass_options opt;
  matchblas_prepass_default_options(&opt);
  if (options) opt = *options;
  return opt;
}

// The job the options ask for (MATCHBLAS_JOB_AUTO resolved), checked
// against a (host arrays, checked already) and against a permutation being
// asked for.
int checked_job(const matchblas_sparse& a, const matchblas_prepass_options& opt, bool want_perm) {
  if (opt.job < MATCHBLAS_JOB_AUTO || opt.job > MATCHBLAS_JOB_MAX_PRODUCT)
    fail(MATCHBLAS_ERR_BAD_JOB, "job " + std::to_string(opt.job) + " is not one of -1 (auto) and 0-5");
  const int job = opt.job == MATCHBLAS_JOB_AUTO ? (a.value_type == MATCHBLAS_PATTERN && !opt.symmetric ? 1 : 5) : opt.job;
  if (opt.symmetric && job != 5)
    fail(MATCHBLAS_ERR_BAD_JOB, "the symmetric mode scales, so it needs job 5 (job " + std::to_string(job) + " given)");
  if (opt.symmetric && a.rows != a.cols)
    fail(MATCHBLAS_ERR_NOT_SYMMETRIC, "the symmetric mode needs a square matrix, this one is " +
                                          std::to_string(a.rows) + " x " + std::to_string(a.cols));
  if (want_perm && a.rows != a.cols)
    fail(MATCHBLAS_ERR_BAD_DIMENSION, "a permutation needs a square matrix (this one is " + std::to_string(a.rows) +
                                          " x " + std::to_string(a.cols) + "); pass perm = NULL and read row_mate");
  return job;
}

struct Outputs {
  int64_t* perm;
  int64_t* row_mate;
  int64_t* col_mate;
  double* row_log_scale;
  double* col_log_scale;
};

// r's results into the host arrays of out (NULL ones skipped; the scalings
// for job 5 only).
void write_results(const PrepassResult& r, const Outputs& out) {
  const bool scaled = r.job == 5;
  for (std::size_t i = 0; i < r.mates.row_mate.size(); ++i) {
    if (out.perm) out.perm[i] = r.perm[i];
    if (out.row_mate) out.row_mate[i] = r.mates.row_mate[i];
    if (out.row_log_scale && scaled) out.row_log_scale[i] = r.row_log_scale[i];
  }
  for (std::size_t j = 0; j < r.mates.col_mate.size(); ++j) {
    if (out.col_mate) out.col_mate[j] = r.mates.col_mate[j];
    if (out.col_log_scale && scaled) out.col_log_scale[j] = r.col_log_scale[j];
  }
}

// r's status, also left in *inform with the report (for `job`, as asked:
// job 3 runs job 2's algorithm) and a message (`ran`, what ran where,
// appended to every status's text).
int report(const PrepassResult& r, int job, std::int64_t rows, std::int64_t cols, matchblas_inform* inform,
           std::chrono::steady_clock::time_point start, const std::string& ran) {
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
             status == MATCHBLAS_OK ? "ok" + ran
             : status == MATCHBLAS_STRUCTURALLY_SINGULAR
                 ? "structurally singular: " + std::to_string(r.mates.matched) + " of " +
                       std::to_string(std::min(rows, cols)) + " matched" + ran
                 : "the scalings exceed log(DBL_MAX)/2 somewhere and may overflow when applied" + ran);
  return status;
}

// The caller's device arrays copied to the host, checked as
// matchblas_prepass checks host arrays; `matrix` describes the copies.
struct HostCopy {
  std::vector<std::byte> pointers, indices, values;
  matchblas_sparse matrix;

  HostCopy(const matchblas_sparse& a, const matchblas_device_options& dev) : matrix(a) {
    const bool csr = stored_int(a.layout) == MATCHBLAS_CSR;
    const std::size_t outer = std::size_t(csr ? a.rows : a.cols);
    const std::size_t index_bytes = stored_int(a.index_type) == MATCHBLAS_INT32 ? 4 : 8;
    const int type = stored_int(a.value_type);
    const std::size_t value_bytes = type == MATCHBLAS_DOUBLE           ? 8
                                    : type == MATCHBLAS_FLOAT          ? 4
                                    : type == MATCHBLAS_COMPLEX_DOUBLE ? 16
                                    : type == MATCHBLAS_COMPLEX_FLOAT  ? 8
                                                                       : 0;
    pointers.resize((outer + 1) * index_bytes);
    ops::copy_from_device(pointers.data(), a.pointers, pointers.size(), dev.device, dev.stream,
                          "the matrix's pointers");
    matrix.pointers = pointers.data();
    const std::int64_t nnz = check_sparse_shape(&matrix);  // pointers checked; indices and values only for NULL
    if (nnz > 0) {
      indices.resize(std::size_t(nnz) * index_bytes);
      ops::copy_from_device(indices.data(), a.indices, indices.size(), dev.device, dev.stream, "the matrix's indices");
      matrix.indices = indices.data();
      if (value_bytes > 0) {
        values.resize(std::size_t(nnz) * value_bytes);
        ops::copy_from_device(values.data(), a.values, values.size(), dev.device, dev.stream, "the matrix's values");
        matrix.values = values.data();
      }
    }
    check_sparse(&matrix);
  }
};

// a's description for prepass_on_device (fields checked already).
DeviceSparseArrays device_arrays(const matchblas_sparse& a) {
  using Values = DeviceSparseArrays::Values;
  const int type = stored_int(a.value_type);
  return {.rows = a.rows,
          .cols = a.cols,
          .csc = stored_int(a.layout) == MATCHBLAS_CSC,
          .base = a.base,
          .index64 = stored_int(a.index_type) == MATCHBLAS_INT64,
          .values = type == MATCHBLAS_DOUBLE           ? Values::real64
                    : type == MATCHBLAS_FLOAT          ? Values::real32
                    : type == MATCHBLAS_COMPLEX_DOUBLE ? Values::complex128
                    : type == MATCHBLAS_COMPLEX_FLOAT  ? Values::complex64
                                                       : Values::pattern,
          .pointers = a.pointers,
          .indices = a.indices,
          .data = a.values};
}

// The registry entry the device call runs for `job`: the job's GPU twin
// where it has one that takes the call's options; the host entry where it
// has none (jobs 2-3, the symmetric mode without a GPU version); nullptr
// for job 0.
const MatcherInfo* device_entry(int job, bool symmetric) {
  if (job == 0) return nullptr;
  const MatcherInfo* host = &find_prepass_job(job);
  const MatcherInfo* gpu_twin = nullptr;
  try {
    gpu_twin = &on_device(*host, Device::gpu);
  } catch (const invalid_input&) {
    return host;
  }
  if (symmetric) {
    bool takes = false;
    for (const OptionSpec& o : gpu_twin->options) takes = takes || o.name == "symmetric";
    if (!takes) return host;
  }
  return gpu_twin;
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
  start_inform(inform);
  return guarded(inform, [&] {
    const CallThreads threads(0);
    const matchblas_prepass_options opt = options_or_default(options);
    check_sparse(a);
    const int job = checked_job(*a, opt, perm != nullptr);
    const Csr<double> m = moduli_csr(*a, opt.symmetric != 0);
    const PrepassResult r = prepass(m, {.job = job, .symmetric = opt.symmetric != 0});
    write_results(r, {perm, row_mate, col_mate, row_log_scale, col_log_scale});
    return report(r, job, m.n_rows, m.n_cols, inform, start, "");
  });
}

extern "C" void matchblas_device_default_options(matchblas_device_options* device) {
  if (!device) return;
  device->device = 0;
  device->stream = nullptr;
  device->results_on_host = 0;
}

extern "C" int matchblas_prepass_device(const matchblas_sparse* a, const matchblas_prepass_options* options,
                                        const matchblas_device_options* device, int64_t* perm, int64_t* row_mate,
                                        int64_t* col_mate, double* row_log_scale, double* col_log_scale,
                                        matchblas_inform* inform) {
  const auto start = std::chrono::steady_clock::now();
  start_inform(inform);
  return guarded(inform, [&] {
    const CallThreads threads(0);
    const matchblas_prepass_options opt = options_or_default(options);
    matchblas_device_options dev;
    matchblas_device_default_options(&dev);
    if (device) dev = *device;
    if (dev.results_on_host != 0 && dev.results_on_host != 1)
      fail(MATCHBLAS_ERR_BAD_OPTION, "results_on_host is " + std::to_string(dev.results_on_host) + ", not 0 or 1");
    check_sparse_fields(a);
    const int gpus = gpu::device_count();
    if (gpus == 0)
      fail(MATCHBLAS_ERR_UNAVAILABLE, "the pre-pass on device arrays needs a CUDA GPU: " + gpu::unavailable_reason());
    if (dev.device < 0 || dev.device >= gpus)
      fail(MATCHBLAS_ERR_BAD_OPTION, "device " + std::to_string(dev.device) + " is not a GPU of this machine (it has " +
                                         std::to_string(gpus) + ")");
    // The job from the description alone; a fault in it is named after the
    // arrays' checks, as matchblas_prepass names it (the host-copy path).
    int job = -1;
    try {
      job = checked_job(*a, opt, perm != nullptr);
    } catch (const c_api_error&) {
    }
    // Outputs checked before any work: nothing written when one is wrong.
    if (!dev.results_on_host) {
      ops::expect_device_array(perm, dev.device, "perm");
      ops::expect_device_array(row_mate, dev.device, "row_mate");
      ops::expect_device_array(col_mate, dev.device, "col_mate");
      if (job == 5) {
        ops::expect_device_array(row_log_scale, dev.device, "row_log_scale");
        ops::expect_device_array(col_log_scale, dev.device, "col_log_scale");
      }
    }
    std::string declined;  // why the job did not run wholly on the device
    const bool square = a->rows == a->cols;
    if ((job == 1 || ((job == 4 || job == 5) && square)) && a->rows > 0 && a->cols > 0) {
      const PrepassOnDevice d = prepass_on_device(device_arrays(*a), job, opt.symmetric != 0, dev.device, dev.stream,
                                                  {perm, row_mate, col_mate, row_log_scale, col_log_scale,
                                                   dev.results_on_host != 0});
      if (d.declined.empty()) {
        PrepassResult r;
        r.job = job;
        r.mates.matched = vertex_t(d.matched);
        r.objective = d.objective;
        r.min_matched_abs = d.min_matched_abs;
        r.scaling_near_overflow = d.near_overflow;
        r.singular = d.matched < std::min(a->rows, a->cols);
        char steps[160];
        if (job == 1)
          std::snprintf(steps, sizeof steps, "read %.4f s, matching %.4f s, results %.4f s", d.arrays_s, d.matching_s,
                        d.results_s);
        else
          std::snprintf(steps, sizeof steps,
                        "read %.4f s, costs %.4f s, check and auction %.3f s, repair %.3f s, results %.4f s",
                        d.arrays_s, d.costs_s, d.report.device_s, d.report.repair_s, d.results_s);
        return report(r, job, a->rows, a->cols, inform, start,
                      " (" + device_entry(job, opt.symmetric != 0)->name + ", on the device arrays: " + steps + ")");
      }
      declined = ", through host copies: " + d.declined;
    }
    const HostCopy copy(*a, dev);
    const matchblas_sparse& h = copy.matrix;
    job = checked_job(h, opt, perm != nullptr);
    const Csr<double> m = moduli_csr(h, opt.symmetric != 0);
    const MatcherInfo* entry = device_entry(job, opt.symmetric != 0);
    PrepassResult r;
    if (entry) {
      RunOptions run;
      run.gpu = dev.device;
      std::map<std::string, std::string> given;
      if (opt.symmetric) given["symmetric"] = "";
      run.options = parse_options(*entry, given);
      r = run_prepass(*entry, m, run);
    } else {
      r = prepass(m, {.job = job});
    }
    // The results, on the host first, then where the caller wants them.
    const std::size_t rows = std::size_t(m.n_rows), cols = std::size_t(m.n_cols);
    std::vector<std::int64_t> h_perm(perm ? rows : 0), h_row_mate(row_mate ? rows : 0), h_col_mate(col_mate ? cols : 0);
    std::vector<double> h_row_scale(row_log_scale ? rows : 0), h_col_scale(col_log_scale ? cols : 0);
    write_results(r, {perm ? h_perm.data() : nullptr, row_mate ? h_row_mate.data() : nullptr,
                      col_mate ? h_col_mate.data() : nullptr, row_log_scale ? h_row_scale.data() : nullptr,
                      col_log_scale ? h_col_scale.data() : nullptr});
    const auto put = [&](void* out, const auto& values, const char* what) {
      if (!out || values.empty()) return;
      const std::size_t bytes = values.size() * sizeof(values[0]);
      if (dev.results_on_host) std::memcpy(out, values.data(), bytes);
      else ops::copy_to_device(out, values.data(), bytes, dev.device, dev.stream, what);
    };
    put(perm, h_perm, "perm");
    put(row_mate, h_row_mate, "row_mate");
    put(col_mate, h_col_mate, "col_mate");
    if (job == 5) {
      put(row_log_scale, h_row_scale, "row_log_scale");
      put(col_log_scale, h_col_scale, "col_log_scale");
    }
    return report(r, job, m.n_rows, m.n_cols, inform, start,
                  entry ? " (" + entry->name + declined + ")" : std::string(" (job 0 on the host)"));
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
    const auto number = [](double v) {
      char text[32];
      std::snprintf(text, sizeof text, "%.6g", v);
      return std::string(text);
    };
    for (const auto& [scale, count, name] : {std::tuple{row_log_scale, a->rows, "row_log_scale"},
                                              std::tuple{col_log_scale, a->cols, "col_log_scale"}})
      for (std::int64_t i = 0; i < count; ++i)
        if (!std::isfinite(scale[i]))
          fail(MATCHBLAS_ERR_BAD_VALUE, std::string(name) + "[" + std::to_string(i) + "] is " + number(scale[i]));
    const bool csr = a->layout == MATCHBLAS_CSR;
    const bool single = a->value_type == MATCHBLAS_FLOAT || a->value_type == MATCHBLAS_COMPLEX_FLOAT;
    const std::int64_t outer = csr ? a->rows : a->cols;
    // Each entry's scaled modulus exp(log|a_ij| + s) (never overflows on the
    // way to a bounded result), checked for every entry before any is
    // written: a result the output type cannot hold is refused, naming it.
    const auto for_entries = [&](auto&& f) {
      for (std::int64_t o = 0; o < outer; ++o)
        for (std::int64_t k = read_index(*a, a->pointers, o) - a->base; k < read_index(*a, a->pointers, o + 1) - a->base;
             ++k) {
          const std::int64_t inner = read_index(*a, a->indices, k) - a->base;
          const double x = read_modulus(*a, k);
          const double s = row_log_scale[csr ? o : inner] + col_log_scale[csr ? inner : o];
          const double mag = x == 0 ? 0.0 : std::exp(std::log(x) + s);
          f(k, csr ? o : inner, csr ? inner : o, x, mag);
        }
    };
    for_entries([&](std::int64_t, std::int64_t i, std::int64_t j, double, double mag) {
      if (!std::isfinite(mag) || (single && mag > double(std::numeric_limits<float>::max())))
        fail(MATCHBLAS_ERR_BAD_VALUE, "the scaled entry (" + std::to_string(i + a->base) + ", " +
                                          std::to_string(j + a->base) + ") overflows a " + (single ? "float" : "double") +
                                          " (log scale sum " + number(row_log_scale[i] + col_log_scale[j]) + ")");
    });
    for_entries([&](std::int64_t k, std::int64_t, std::int64_t, double x, double mag) {
      // a_ij's sign or phase on the scaled modulus.
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
    });
    set_status(inform, MATCHBLAS_OK, "ok");
    return MATCHBLAS_OK;
  });
}

