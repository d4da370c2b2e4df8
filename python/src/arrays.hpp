// What the bindings share about arrays: the caller's numpy (or DLPack)
// arrays read in place (their dtype mapped to the C interface's types,
// their layout checked, never converted: the Python side makes them fit
// first, and only where it must), and results handed to numpy without a
// copy (library-allocated or new arrays owned by a capsule).
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "matchblas/matchblas.h"

namespace matchblas::python {

namespace nb = nanobind;

// Any 1-D or 2-D array in host memory, read-only, any dtype: imported as it
// is (nanobind converts nothing without a dtype or order to reach).
using HostArray = nb::ndarray<nb::ro, nb::device::cpu>;
// The same, written to (an output or assign's target).
using HostOut = nb::ndarray<nb::device::cpu>;
// An array in CUDA device memory (CuPy's, through DLPack).
using DeviceArray = nb::ndarray<nb::device::cuda>;

template <class T>
bool is(const nb::dlpack::dtype& d) {
  return d == nb::dtype<T>();
}

inline std::string describe(const nb::dlpack::dtype& d) {
  const char* kinds[] = {"int", "uint", "float", "opaque", "bfloat", "complex", "bool"};
  const std::string kind = d.code < 7 ? kinds[d.code] : "code " + std::to_string(d.code);
  return kind + std::to_string(d.bits);
}

// A 1-D array of n contiguous entries (any n when n < 0): else TypeError
// naming `what`, since the Python side should have made it so.
template <class Array>
void expect_vector(const Array& a, std::int64_t n, const char* what) {
  if (a.ndim() != 1) throw nb::type_error((std::string(what) + " must be 1-D").c_str());
  if (n >= 0 && std::int64_t(a.shape(0)) != n)
    throw nb::value_error((std::string(what) + " has " + std::to_string(a.shape(0)) + " entries, expected " +
                           std::to_string(n))
                              .c_str());
  if (a.shape(0) > 1 && a.stride(0) != 1)
    throw nb::type_error((std::string(what) + " must be contiguous").c_str());
}

inline matchblas_index_type index_type_of(const nb::dlpack::dtype& d, const char* what) {
  if (is<std::int32_t>(d)) return MATCHBLAS_INT32;
  if (is<std::int64_t>(d)) return MATCHBLAS_INT64;
  throw nb::type_error((std::string(what) + " must be int32 or int64, not " + describe(d)).c_str());
}

// The C description of a compressed matrix has no entry count: its last
// index pointer must lie within the indices given, or the library would
// read past them. pointers: int32 or int64 (index_type_of checked it).
inline void expect_pointers_within(const HostArray& pointers, const HostArray& indices) {
  if (pointers.shape(0) == 0) return;
  const std::size_t k = pointers.shape(0) - 1;
  const std::int64_t last = is<std::int32_t>(pointers.dtype()) ? static_cast<const std::int32_t*>(pointers.data())[k]
                                                                : static_cast<const std::int64_t*>(pointers.data())[k];
  if (last < 0 || last > std::int64_t(indices.shape(0)))
    throw nb::value_error(("the last index pointer is " + std::to_string(last) + ", outside 0.." +
                           std::to_string(indices.shape(0)) + " (the indices given)")
                              .c_str());
}

// A C message as a Python str: UTF-8, any other byte (a file name in
// another encoding, say) shown as \xNN rather than failing the call.
inline nb::str message_of(const char* message) {
  return nb::steal<nb::str>(PyUnicode_DecodeUTF8(message, Py_ssize_t(std::strlen(message)), "backslashreplace"));
}

inline matchblas_value_type value_type_of(const nb::dlpack::dtype& d, const char* what) {
  if (is<double>(d)) return MATCHBLAS_DOUBLE;
  if (is<float>(d)) return MATCHBLAS_FLOAT;
  if (d.code == std::uint8_t(nb::dlpack::dtype_code::Complex) && d.bits == 128) return MATCHBLAS_COMPLEX_DOUBLE;
  if (d.code == std::uint8_t(nb::dlpack::dtype_code::Complex) && d.bits == 64) return MATCHBLAS_COMPLEX_FLOAT;
  throw nb::type_error((std::string(what) + " must be float32 or float64 (or complex), not " + describe(d)).c_str());
}

// The addresses of the input arrays the last call on this thread passed to
// the C interface (matching, pre-pass, ops on device arrays): the zero-copy
// tests' evidence that the caller's buffers went through as they are.
inline thread_local std::vector<std::uintptr_t> last_addresses;

// A numpy array over n entries the library allocated with malloc, freed
// when the array goes.
template <class T>
nb::ndarray<nb::numpy, T, nb::ndim<1>> adopt(T* data, std::int64_t n) {
  std::unique_ptr<T, decltype(&std::free)> held(data, &std::free);
  nb::capsule owner(data, [](void* p) noexcept { std::free(p); });
  held.release();
  return nb::ndarray<nb::numpy, T, nb::ndim<1>>(data, {std::size_t(n)}, owner);
}

// A new numpy array of n entries (uninitialised), for a C call to fill.
template <class T>
nb::ndarray<nb::numpy, T, nb::ndim<1>> new_array(std::int64_t n) {
  std::unique_ptr<T[]> held(new T[std::size_t(n > 0 ? n : 1)]);
  T* data = held.get();
  nb::capsule owner(data, [](void* p) noexcept { delete[] static_cast<T*>(p); });
  held.release();
  return nb::ndarray<nb::numpy, T, nb::ndim<1>>(data, {std::size_t(n)}, owner);
}

}  // namespace matchblas::python
