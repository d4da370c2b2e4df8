// The shared checks of the C interface (api/c_api_support.hpp), the status
// names and the version.
#include "c_api_support.hpp"

#include <omp.h>

#include <atomic>
#include <cmath>
#include <limits>

#include "lib/interrupt.hpp"
#include "lib/types.hpp"

namespace matchblas::capi {

double read_modulus(const matchblas_sparse& a, std::int64_t k) {
  switch (a.value_type) {
    case MATCHBLAS_DOUBLE: return std::fabs(static_cast<const double*>(a.values)[k]);
    case MATCHBLAS_FLOAT: return std::fabs(double(static_cast<const float*>(a.values)[k]));
    case MATCHBLAS_COMPLEX_DOUBLE: {
      const double* z = static_cast<const double*>(a.values) + 2 * k;
      return std::hypot(z[0], z[1]);
    }
    case MATCHBLAS_COMPLEX_FLOAT: {
      const float* z = static_cast<const float*>(a.values) + 2 * k;
      return std::hypot(double(z[0]), double(z[1]));
    }
    default: return 1.0;
  }
}

std::string entry_name(const matchblas_sparse& a, std::int64_t outer, std::int64_t inner) {
  const bool csr = a.layout == MATCHBLAS_CSR;
  std::string name = "(";
  name += std::to_string((csr ? outer : inner) + a.base);
  name += ", ";
  name += std::to_string((csr ? inner : outer) + a.base);
  return name += ")";
}

void check_sparse_fields(const matchblas_sparse* a) {
  if (!a) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "the matrix is NULL");
  if (a->rows < 0 || a->cols < 0)
    fail(MATCHBLAS_ERR_BAD_DIMENSION, "negative dimension " + std::to_string(a->rows) + " x " + std::to_string(a->cols));
  const std::int64_t id_limit = std::numeric_limits<vertex_t>::max() - 1;
  if (a->rows > id_limit || a->cols > id_limit)
    fail(MATCHBLAS_ERR_BAD_DIMENSION, "dimension " + std::to_string(a->rows) + " x " + std::to_string(a->cols) +
                                          " exceeds the 32-bit vertex ids (at most " + std::to_string(id_limit) + ")");
  const int layout = stored_int(a->layout), index_type = stored_int(a->index_type),
            value_type = stored_int(a->value_type);
  if (layout != MATCHBLAS_CSR && layout != MATCHBLAS_CSC)
    fail(MATCHBLAS_ERR_BAD_FORMAT, "layout " + std::to_string(layout) + " is neither MATCHBLAS_CSR nor MATCHBLAS_CSC");
  if (a->base != 0 && a->base != 1) fail(MATCHBLAS_ERR_BAD_FORMAT, "base " + std::to_string(a->base) + " is neither 0 nor 1");
  if (index_type != MATCHBLAS_INT32 && index_type != MATCHBLAS_INT64)
    fail(MATCHBLAS_ERR_BAD_FORMAT, "index type " + std::to_string(index_type) + " is unknown");
  if (value_type < MATCHBLAS_DOUBLE || value_type > MATCHBLAS_PATTERN)
    fail(MATCHBLAS_ERR_BAD_FORMAT, "value type " + std::to_string(value_type) + " is unknown");
  if (!a->pointers) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "the matrix's pointers are NULL");
}

std::int64_t check_sparse_shape(const matchblas_sparse* a) {
  check_sparse_fields(a);
  const std::int64_t outer = a->layout == MATCHBLAS_CSR ? a->rows : a->cols;
  const char* outer_name = a->layout == MATCHBLAS_CSR ? "row" : "column";
  if (read_index(*a, a->pointers, 0) != a->base)
    fail(MATCHBLAS_ERR_BAD_POINTERS, "pointers[0] is " + std::to_string(read_index(*a, a->pointers, 0)) +
                                         ", not the base " + std::to_string(a->base));
  for (std::int64_t k = 0; k < outer; ++k)
    if (read_index(*a, a->pointers, k + 1) < read_index(*a, a->pointers, k))
      fail(MATCHBLAS_ERR_BAD_POINTERS, std::string("pointers decrease at ") + outer_name + " " + std::to_string(k + a->base));
  const std::int64_t nnz = read_index(*a, a->pointers, outer) - a->base;
  if (nnz > 0 && !a->indices) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "the matrix's indices are NULL");
  if (nnz > 0 && !a->values && a->value_type != MATCHBLAS_PATTERN)
    fail(MATCHBLAS_ERR_NULL_ARGUMENT, "the matrix's values are NULL (use MATCHBLAS_PATTERN for a pattern)");
  return nnz;
}

std::int64_t check_sparse(const matchblas_sparse* a) {
  const std::int64_t nnz = check_sparse_shape(a);
  const std::int64_t outer = a->layout == MATCHBLAS_CSR ? a->rows : a->cols;
  const std::int64_t inner_dim = a->layout == MATCHBLAS_CSR ? a->cols : a->rows;
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t k = read_index(*a, a->pointers, o) - a->base; k < read_index(*a, a->pointers, o + 1) - a->base; ++k) {
      const std::int64_t i = read_index(*a, a->indices, k) - a->base;
      if (i < 0 || i >= inner_dim)
        fail(MATCHBLAS_ERR_INDEX_OUT_OF_RANGE, "entry " + std::to_string(k + a->base) + " has index " +
                                                   std::to_string(i + a->base) + ", outside " + std::to_string(a->base) +
                                                   ".." + std::to_string(inner_dim - 1 + a->base));
      if (!std::isfinite(read_modulus(*a, k)))
        fail(MATCHBLAS_ERR_BAD_VALUE, "the entry " + entry_name(*a, o, i) + " is not finite");
    }
  return nnz;
}

CallThreads::CallThreads(int threads) : scope_(threads) {
  // The largest count started so far: a call needing no more skips the test
  // start (it creates and joins that many threads, which a stream of small
  // ops calls would otherwise pay every time). Failures are not remembered.
  static std::atomic<int> started{1};
  const int wanted = omp_get_max_threads();
  if (wanted <= started.load(std::memory_order_relaxed)) return;
  try {
    require_threads(wanted);
  } catch (const error& e) {
    fail(MATCHBLAS_ERR_OUT_OF_MEMORY, e.what());
  }
  for (int seen = started.load(); seen < wanted && !started.compare_exchange_weak(seen, wanted);) {
  }
}

int status_of(const error& e) {
  if (dynamic_cast<const parse_error*>(&e)) return MATCHBLAS_ERR_BAD_FILE;
  if (dynamic_cast<const shape_error*>(&e)) return MATCHBLAS_ERR_BAD_DIMENSION;
  if (dynamic_cast<const cuda_error*>(&e)) return MATCHBLAS_ERR_DEVICE;
  if (dynamic_cast<const out_of_memory*>(&e)) return MATCHBLAS_ERR_OUT_OF_MEMORY;
  if (dynamic_cast<const interrupted*>(&e)) return MATCHBLAS_ERR_INTERRUPTED;
  return MATCHBLAS_ERR_BAD_INPUT;
}

}  // namespace matchblas::capi

extern "C" const char* matchblas_status_string(int status) {
  switch (status) {
    case MATCHBLAS_OK: return "ok";
    case MATCHBLAS_STRUCTURALLY_SINGULAR: return "structurally singular";
    case MATCHBLAS_SCALING_NEAR_OVERFLOW: return "scaling near overflow";
    case MATCHBLAS_ERR_NULL_ARGUMENT: return "null argument";
    case MATCHBLAS_ERR_BAD_JOB: return "bad job";
    case MATCHBLAS_ERR_BAD_DIMENSION: return "bad dimension";
    case MATCHBLAS_ERR_BAD_FORMAT: return "bad format";
    case MATCHBLAS_ERR_BAD_POINTERS: return "bad pointers";
    case MATCHBLAS_ERR_INDEX_OUT_OF_RANGE: return "index out of range";
    case MATCHBLAS_ERR_DUPLICATE_ENTRY: return "duplicate entry";
    case MATCHBLAS_ERR_BAD_VALUE: return "bad value";
    case MATCHBLAS_ERR_NOT_SYMMETRIC: return "not symmetric";
    case MATCHBLAS_ERR_OUT_OF_MEMORY: return "out of memory";
    case MATCHBLAS_ERR_INTERNAL: return "internal error";
    case MATCHBLAS_ERR_UNKNOWN_ALGORITHM: return "unknown algorithm";
    case MATCHBLAS_ERR_BAD_OPTION: return "bad option";
    case MATCHBLAS_ERR_UNAVAILABLE: return "unavailable";
    case MATCHBLAS_ERR_BAD_FILE: return "bad file";
    case MATCHBLAS_ERR_DEVICE: return "device error";
    case MATCHBLAS_ERR_BAD_INPUT: return "bad input";
    case MATCHBLAS_ERR_INTERRUPTED: return "interrupted";
    default: return "unknown status";
  }
}

#ifndef MATCHBLAS_GIT_REVISION
#define MATCHBLAS_GIT_REVISION "unknown"
#endif

extern "C" const char* matchblas_version(void) { return MATCHBLAS_VERSION_STRING; }
extern "C" const char* matchblas_git_revision(void) { return MATCHBLAS_GIT_REVISION; }
