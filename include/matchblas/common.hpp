// matchblas's C++ interface, what every header shares: header-only over the
// C interface (matchblas/common.h), whose ABI it keeps. A non-owning view of
// a sparse matrix in the caller's arrays (SparseView, csr(), csc()), the
// exception every call throws (api::error, carrying the C status), and the
// conversion of a view to the C description.
#pragma once

#include <complex>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "matchblas/common.h"

namespace matchblas::api {

enum class Layout : int { csr = MATCHBLAS_CSR, csc = MATCHBLAS_CSC };

// The value type of a matrix given by its pattern only.
struct Pattern {};

// A non-owning view of an m-by-n sparse matrix in the caller's arrays. CSR:
// `pointers` holds rows + 1 offsets and `indices` the column of each entry;
// CSC: cols + 1 offsets and the rows. Offsets and indices are `base`-based
// (0 or 1); `values` holds one value per entry (empty for Pattern).
template <class Index, class Value = double>
struct SparseView {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  Layout layout = Layout::csr;
  int base = 0;
  std::span<const Index> pointers;
  std::span<const Index> indices;
  std::span<const Value> values;
};

// Views of contiguous containers (std::vector, std::array, std::span, ...).
template <class P, class I, class V>
auto csr(std::int64_t rows, std::int64_t cols, const P& pointers, const I& indices, const V& values, int base = 0) {
  using Index = std::remove_const_t<typename decltype(std::span(pointers))::element_type>;
  using Value = std::remove_const_t<typename decltype(std::span(values))::element_type>;
  return SparseView<Index, Value>{rows, cols, Layout::csr, base, std::span<const Index>(pointers),
                                  std::span<const Index>(indices), std::span<const Value>(values)};
}
template <class P, class I, class V>
auto csc(std::int64_t rows, std::int64_t cols, const P& pointers, const I& indices, const V& values, int base = 0) {
  auto v = csr(rows, cols, pointers, indices, values, base);
  v.layout = Layout::csc;
  return v;
}

// A failed call: status() is the C interface's negative MATCHBLAS_ERR_*
// value; what() is its short name and the message naming what is wrong.
class error : public std::runtime_error {
 public:
  error(int status, const std::string& message)
      : std::runtime_error(std::string(matchblas_status_string(status)) + ": " + message), status_(status) {}
  int status() const noexcept { return status_; }

 private:
  int status_;
};

namespace detail {

template <class>
inline constexpr bool always_false = false;

template <class Index>
constexpr matchblas_index_type index_type() {
  static_assert(std::is_integral_v<Index> && std::is_signed_v<Index> && (sizeof(Index) == 4 || sizeof(Index) == 8),
                "matchblas: indices must be signed 32- or 64-bit integers");
  return sizeof(Index) == 4 ? MATCHBLAS_INT32 : MATCHBLAS_INT64;
}

template <class Value>
constexpr matchblas_value_type value_type() {
  if constexpr (std::is_same_v<Value, double>) return MATCHBLAS_DOUBLE;
  else if constexpr (std::is_same_v<Value, float>) return MATCHBLAS_FLOAT;
  else if constexpr (std::is_same_v<Value, std::complex<double>>) return MATCHBLAS_COMPLEX_DOUBLE;
  else if constexpr (std::is_same_v<Value, std::complex<float>>) return MATCHBLAS_COMPLEX_FLOAT;
  else if constexpr (std::is_same_v<Value, Pattern>) return MATCHBLAS_PATTERN;
  else static_assert(always_false<Value>, "matchblas: values must be float, double, std::complex of them, or Pattern");
}

// The C description of a, after the checks the C interface cannot make:
// the spans' lengths against the dimensions and (host arrays only: device
// arrays are not read here) the last offset.
template <class Index, class Value>
matchblas_sparse to_c(const SparseView<Index, Value>& a, bool host_arrays = true) {
  const matchblas_sparse s{a.rows,
                           a.cols,
                           static_cast<matchblas_layout>(a.layout),
                           a.base,
                           index_type<Index>(),
                           value_type<Value>(),
                           a.pointers.data(),
                           a.indices.data(),
                           std::is_same_v<Value, Pattern> ? nullptr : static_cast<const void*>(a.values.data())};
  const std::int64_t outer = a.layout == Layout::csr ? a.rows : a.cols;
  if (outer < 0) return s;  // the C interface names the bad dimension
  if (a.pointers.size() != static_cast<std::size_t>(outer) + 1)
    throw error(MATCHBLAS_ERR_BAD_POINTERS, "pointers hold " + std::to_string(a.pointers.size()) +
                                                " offsets, the dimensions need " + std::to_string(outer + 1));
  if (!host_arrays) return s;
  const std::int64_t nnz = static_cast<std::int64_t>(a.pointers[static_cast<std::size_t>(outer)]) - a.base;
  if (nnz > static_cast<std::int64_t>(a.indices.size()))
    throw error(MATCHBLAS_ERR_BAD_POINTERS, "the last offset gives " + std::to_string(nnz) +
                                                " entries, indices hold " + std::to_string(a.indices.size()));
  if (!std::is_same_v<Value, Pattern> && nnz > static_cast<std::int64_t>(a.values.size()))
    throw error(MATCHBLAS_ERR_BAD_POINTERS, "the last offset gives " + std::to_string(nnz) +
                                                " entries, values hold " + std::to_string(a.values.size()));
  return s;
}

// Dimensions the C interface accepts (32-bit ids); outputs are sized from
// them only then, so that a wrong dimension is its error, not a huge
// allocation.
inline bool plausible(std::int64_t rows, std::int64_t cols) {
  const std::int64_t limit = std::numeric_limits<std::int32_t>::max() - 1;
  return rows >= 0 && cols >= 0 && rows <= limit && cols <= limit;
}

}  // namespace detail

}  // namespace matchblas::api
