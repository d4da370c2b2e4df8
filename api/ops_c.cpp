// The C interface of the ops (include/matchblas/ops.h): the caller's matrix
// checked once and copied into the library's Csr (matchblas_ops_matrix), the
// ops of ops/ on it (argmax, assign, select) and, on the GPU, on the
// caller's device arrays (ops/gpu_device_entries.hpp). Nothing escapes as an
// exception.
#include "matchblas/ops.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <variant>

#include "c_api_support.hpp"
#include "lib/csr.hpp"
#include "lib/error.hpp"
#include "ops/argmax.hpp"
#include "ops/assign.hpp"
#include "ops/gpu/device.hpp"
#include "ops/gpu_device_entries.hpp"
#include "ops/select.hpp"
#include "ops/transpose.hpp"

struct matchblas_ops_matrix {
  std::variant<matchblas::Csr<float>, matchblas::Csr<double>> csr;
};

namespace matchblas {
namespace {

using namespace capi;

void start(matchblas_ops_status* status) { set_status(status, MATCHBLAS_OK, "ok"); }

// The caller's checked CSR or CSC arrays as a Csr<W> of A (CSC: through the
// transpose, so each row's columns ascend).
template <class W>
Csr<W> csr_of(const matchblas_sparse& a, std::int64_t nnz) {
  const bool csr = stored_int(a.layout) == MATCHBLAS_CSR;
  Csr<W> c;
  c.n_rows = vertex_t(csr ? a.rows : a.cols);  // the stored orientation first
  c.n_cols = vertex_t(csr ? a.cols : a.rows);
  c.offsets.resize(std::size_t(c.n_rows) + 1);
  for (vertex_t o = 0; o <= c.n_rows; ++o) c.offsets[o] = read_index(a, a.pointers, o) - a.base;
  c.cols.resize(std::size_t(nnz));
  c.weights.resize(std::size_t(nnz));
  const W* values = static_cast<const W*>(a.values);
  for (std::int64_t k = 0; k < nnz; ++k) {
    c.cols[std::size_t(k)] = vertex_t(read_index(a, a.indices, k) - a.base);
    c.weights[std::size_t(k)] = values[k];
  }
  return csr ? c : ops::transpose(c);
}

template <class F>
decltype(auto) visit(const matchblas_ops_matrix* m, F&& f) {
  if (!m) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "the matrix is NULL");
  return std::visit(std::forward<F>(f), m->csr);
}

// By reference: a C caller may pass any int, and loading an out-of-range
// value as the C++ enum type is undefined (stored_int reads its bytes).
ops::Backend backend_of(const matchblas_ops_backend& backend) {
  switch (stored_int(backend)) {
    case MATCHBLAS_OPS_AUTO: return ops::Backend::automatic;
    case MATCHBLAS_OPS_PLAIN: return ops::Backend::plain;
    case MATCHBLAS_OPS_GRAPHBLAS:
      if (!ops::have_graphblas())
        fail(MATCHBLAS_ERR_UNAVAILABLE, "the graphblas backend needs SuiteSparse:GraphBLAS, which this build lacks");
      return ops::Backend::graphblas;
  }
  fail(MATCHBLAS_ERR_BAD_OPTION, "backend " + std::to_string(stored_int(backend)) + " is unknown");
}

// A span of n entries at p, or an empty one (no mask) for a null p.
template <class T>
std::span<const T> maybe(const void* p, std::int64_t n) {
  return p ? std::span<const T>(static_cast<const T*>(p), std::size_t(n)) : std::span<const T>();
}

// Runs f(T{}) for the C entry type.
template <class F>
void with_type(const matchblas_ops_type& type, F&& f) {
  switch (stored_int(type)) {
    case MATCHBLAS_OPS_UINT8: return f(std::uint8_t{});
    case MATCHBLAS_OPS_INT32: return f(std::int32_t{});
    case MATCHBLAS_OPS_INT64: return f(std::int64_t{});
    case MATCHBLAS_OPS_FLOAT: return f(float{});
    case MATCHBLAS_OPS_DOUBLE: return f(double{});
  }
  fail(MATCHBLAS_ERR_BAD_FORMAT, "entry type " + std::to_string(stored_int(type)) + " is unknown");
}

void expect_assign_args(const void* out, std::int64_t n, const void* values, const void* value) {
  if (n < 0) fail(MATCHBLAS_ERR_BAD_DIMENSION, "n is " + std::to_string(n));
  if (n > 0 && !out) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "out is NULL");
  // An empty array's data may be NULL (CuPy's, numpy's): nothing is read.
  if (n > 0 && !values && !value) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "both values and value are NULL");
}

matchblas_ops_matrix* wrap(auto&& csr) {
  auto* m = new matchblas_ops_matrix{std::move(csr)};
  return m;
}

// ---- device arrays ----------------------------------------------------------

void expect_gpu(int device) {
  const int devices = gpu::device_count();
  if (devices == 0) fail(MATCHBLAS_ERR_UNAVAILABLE, "no usable GPU: " + gpu::unavailable_reason());
  if (device < 0 || device >= devices)
    fail(MATCHBLAS_ERR_BAD_OPTION,
         "no GPU with id " + std::to_string(device) + " (this machine has " + std::to_string(devices) + ")");
}

// The caller's device CSR, its description checked (its arrays cannot be).
template <class W>
ops::DeviceCsrArrays<W> device_arrays(const matchblas_device_csr& a) {
  const std::int64_t id_limit = std::numeric_limits<vertex_t>::max() - 1;
  if (a.rows < 0 || a.cols < 0 || a.rows > id_limit || a.cols > id_limit || a.entries < 0)
    fail(MATCHBLAS_ERR_BAD_DIMENSION, "a " + std::to_string(a.rows) + " x " + std::to_string(a.cols) + " matrix of " +
                                          std::to_string(a.entries) + " entries is out of range");
  const int offset_type = stored_int(a.offset_type);
  if (offset_type != MATCHBLAS_INT32 && offset_type != MATCHBLAS_INT64)
    fail(MATCHBLAS_ERR_BAD_FORMAT, "offset type " + std::to_string(offset_type) + " is unknown");
  if (!a.offsets) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "the offsets are NULL");
  if (a.entries > 0 && (!a.columns || !a.values)) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "the columns or values are NULL");
  expect_gpu(a.device);
  ops::DeviceCsrArrays<W> d;
  d.n_rows = vertex_t(a.rows);
  d.n_cols = vertex_t(a.cols);
  d.n_entries = a.entries;
  if (offset_type == MATCHBLAS_INT32) d.offsets32 = static_cast<const std::int32_t*>(a.offsets);
  else d.offsets64 = static_cast<const offset_t*>(a.offsets);
  d.cols = a.columns;
  d.weights = static_cast<const W*>(a.values);
  return d;
}

// Runs f(W{}) for a's value type (float or double).
template <class F>
void with_weight(const matchblas_value_type& type, F&& f) {
  switch (stored_int(type)) {
    case MATCHBLAS_FLOAT: return f(float{});
    case MATCHBLAS_DOUBLE: return f(double{});
  }
  fail(MATCHBLAS_ERR_BAD_FORMAT, "the ops take MATCHBLAS_FLOAT or MATCHBLAS_DOUBLE values, not value type " +
                                     std::to_string(stored_int(type)));
}

}  // namespace
}  // namespace matchblas

using namespace matchblas;
using namespace matchblas::capi;

extern "C" int matchblas_ops_matrix_create(const matchblas_sparse* a, matchblas_ops_matrix** out,
                                           matchblas_ops_status* status) {
  start(status);
  return guarded(status, [&] {
    const CallThreads threads(0);
    if (!out) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "out is NULL");
    *out = nullptr;
    const std::int64_t nnz = check_sparse(a);
    with_weight(a->value_type, [&](auto w) { *out = wrap(csr_of<decltype(w)>(*a, nnz)); });
    return MATCHBLAS_OK;
  });
}

extern "C" void matchblas_ops_matrix_free(matchblas_ops_matrix* m) { delete m; }

extern "C" int matchblas_ops_matrix_view(const matchblas_ops_matrix* m, matchblas_ops_matrix_arrays* view) {
  if (!m || !view) return MATCHBLAS_ERR_NULL_ARGUMENT;
  std::visit(
      [&](const auto& c) {
        using W = typename std::decay_t<decltype(c)>::weight_type;
        *view = matchblas_ops_matrix_arrays{c.n_rows, c.n_cols, c.num_entries(),
                                            std::is_same_v<W, float> ? MATCHBLAS_FLOAT : MATCHBLAS_DOUBLE,
                                            c.offsets.data(), c.cols.data(), c.weights.data()};
      },
      m->csr);
  return MATCHBLAS_OK;
}

extern "C" int matchblas_ops_argmax(const matchblas_ops_matrix* a, const uint8_t* active_rows,
                                    const uint8_t* eligible_cols, const void* floor_weight,
                                    const int32_t* floor_vertex, int32_t* best, void* best_weight,
                                    matchblas_ops_backend backend, matchblas_ops_status* status) {
  start(status);
  return guarded(status, [&] {
    const CallThreads threads(0);
    visit(a, [&](const auto& c) {
      using W = typename std::decay_t<decltype(c)>::weight_type;
      if (c.n_rows > 0 && (!best || !best_weight)) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "best or best_weight is NULL");
      if (!floor_weight != !floor_vertex)
        fail(MATCHBLAS_ERR_NULL_ARGUMENT, "floor_weight and floor_vertex are given together, or neither");
      ops::ArgmaxMasks<W> masks;
      masks.active_rows = maybe<std::uint8_t>(active_rows, c.n_rows);
      masks.eligible_cols = maybe<std::uint8_t>(eligible_cols, c.n_cols);
      masks.floor_weight = maybe<W>(floor_weight, c.n_cols);
      masks.floor_vertex = maybe<vertex_t>(floor_vertex, c.n_cols);
      ops::argmax_rows(c, masks, std::span<vertex_t>(best, std::size_t(c.n_rows)),
                       std::span<W>(static_cast<W*>(best_weight), std::size_t(c.n_rows)), backend_of(backend));
    });
    return MATCHBLAS_OK;
  });
}

extern "C" int matchblas_ops_assign(void* out, matchblas_ops_type type, int64_t n, const uint8_t* mask,
                                    const void* values, const void* value, matchblas_ops_status* status) {
  start(status);
  return guarded(status, [&] {
    const CallThreads threads(0);
    expect_assign_args(out, n, values, value);
    with_type(type, [&](auto t) {
      using T = decltype(t);
      if (n == 0) return;
      const std::span<T> o(static_cast<T*>(out), std::size_t(n));
      if (values) ops::assign<T>(o, maybe<std::uint8_t>(mask, n), maybe<T>(values, n));
      else ops::assign<T>(o, maybe<std::uint8_t>(mask, n), *static_cast<const T*>(value));
    });
    return MATCHBLAS_OK;
  });
}

extern "C" int matchblas_ops_select(const matchblas_ops_matrix* a, const uint8_t* keep_rows, const uint8_t* keep_cols,
                                    matchblas_ops_matrix** out, matchblas_ops_status* status) {
  start(status);
  return guarded(status, [&] {
    const CallThreads threads(0);
    if (!out) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "out is NULL");
    *out = nullptr;
    visit(a, [&](const auto& c) {
      *out = wrap(ops::select_entries(c, [keep_rows, keep_cols](vertex_t u, vertex_t v) {
        return (!keep_rows || keep_rows[u] != 0) && (!keep_cols || keep_cols[v] != 0);
      }));
    });
    return MATCHBLAS_OK;
  });
}

extern "C" int matchblas_ops_select_free(const matchblas_ops_matrix* a, const int32_t* mate,
                                         matchblas_ops_matrix** out, matchblas_ops_status* status) {
  start(status);
  return guarded(status, [&] {
    const CallThreads threads(0);
    if (!out) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "out is NULL");
    *out = nullptr;
    visit(a, [&](const auto& c) {
      if (c.n_rows > 0 && !mate) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "mate is NULL");
      *out = wrap(ops::select_free_entries(c, std::span<const vertex_t>(mate, std::size_t(c.n_rows))));
    });
    return MATCHBLAS_OK;
  });
}

extern "C" int matchblas_ops_argmax_device(const matchblas_device_csr* a, const uint8_t* active_rows,
                                           const uint8_t* eligible_cols, const void* floor_weight,
                                           const int32_t* floor_vertex, int32_t* best, void* best_weight,
                                           void* stream, matchblas_ops_status* status) {
  start(status);
  return guarded(status, [&] {
    if (!a) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "the matrix is NULL");
    if (a->rows > 0 && (!best || !best_weight)) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "best or best_weight is NULL");
    if (!floor_weight != !floor_vertex)
      fail(MATCHBLAS_ERR_NULL_ARGUMENT, "floor_weight and floor_vertex are given together, or neither");
    with_weight(a->value_type, [&](auto w) {
      using W = decltype(w);
      ops::argmax_rows_on_device<W>(device_arrays<W>(*a), active_rows, eligible_cols,
                                    static_cast<const W*>(floor_weight), floor_vertex, best,
                                    static_cast<W*>(best_weight), a->device, stream);
    });
    return MATCHBLAS_OK;
  });
}

extern "C" int matchblas_ops_assign_device(void* out, matchblas_ops_type type, int64_t n, const uint8_t* mask,
                                           const void* values, const void* value, int device, void* stream,
                                           matchblas_ops_status* status) {
  start(status);
  return guarded(status, [&] {
    expect_assign_args(out, n, values, value);
    with_type(type, [&](auto t) {
      using T = decltype(t);
      expect_gpu(device);
      if (n == 0) return;
      ops::assign_on_device<T>(static_cast<T*>(out), std::size_t(n), mask, static_cast<const T*>(values),
                               values ? T{} : *static_cast<const T*>(value), device, stream);
    });
    return MATCHBLAS_OK;
  });
}

extern "C" int matchblas_ops_select_free_device(const matchblas_device_csr* a, const int32_t* mate,
                                                matchblas_device_csr* out, void* stream,
                                                matchblas_ops_status* status) {
  start(status);
  if (out) *out = matchblas_device_csr{};
  return guarded(status, [&] {
    if (!a) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "the matrix is NULL");
    if (!out) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "out is NULL");
    if (a->rows > 0 && !mate) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "mate is NULL");
    with_weight(a->value_type, [&](auto w) {
      using W = decltype(w);
      const ops::OwnedDeviceCsr<W> c = ops::select_free_on_device<W>(device_arrays<W>(*a), mate, a->device, stream);
      *out = matchblas_device_csr{a->rows,  a->cols,       c.n_entries, MATCHBLAS_INT64, a->value_type,
                                  c.offsets, c.cols, c.weights, a->device};
    });
    return MATCHBLAS_OK;
  });
}

extern "C" void matchblas_device_csr_free(matchblas_device_csr* m) {
  if (!m) return;
  ops::free_on_device(const_cast<void*>(m->offsets), m->device);
  ops::free_on_device(const_cast<int32_t*>(m->columns), m->device);
  ops::free_on_device(const_cast<void*>(m->values), m->device);
  *m = matchblas_device_csr{};
}
