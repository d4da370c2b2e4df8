// Masked assign in GrB_assign style (w<mask> = value, w<mask> = u): write
// matches, clear candidates (docs/ARCHITECTURE.md "The ops (CPU backend)";
// the updates of the mate and candidate arrays in "Parallel graph
// matching", a course project on handshaking matching on GPUs, no author named).
//
//   assign(out, mask, value):  out[i] = value     for every i with mask[i] != 0
//   assign(out, mask, values): out[i] = values[i] for every i with mask[i] != 0
//   Entries of out where mask[i] == 0 are left as they are (no GrB_REPLACE).
//   An empty mask means "no mask": every entry is written (GrB_assign with a
//   null mask). The mask is valued (mask[i] != 0), not structural.
//
// Preconditions: mask is empty or as long as out, and values is as long as
// out (O(1) checks, invalid_input otherwise); values does not overlap out
// except as the same array (out[i] = values[i] is then a no-op) -- not
// checked.
// Backends (ops/backend.hpp): plain (the loops below), gpu
// (ops/gpu/assign_gpu.cu) and graphblas (ops/cpu/assign_graphblas.cpp:
// GrB_Vector_assign on copies of the arrays), the last two for T in {uint8,
// int32, int64, float, double} (invalid_input for other T). The length
// checks come first on every backend.
// Guarantee: exactly the loops above, for any thread count (each entry is
// written by one thread). Cost: O(n) work, entries in parallel (OpenMP,
// static schedule) from assign_parallel_min entries up, sequential below.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>

#include "lib/error.hpp"
#include "ops/backend.hpp"
#include "ops/gpu_ops.hpp"

namespace matchblas::ops {

namespace detail {
// Below this many entries the loop runs on the calling thread. dev (2 cores
// of an AMD EPYC, shared), masked int32 assign at 2 threads, best of 200:
// 16 us sequential / 9 us parallel at 16K entries, 28 / 18 us at 32K, and
// at 4K the parallel loop far slower (fork-join on a busy machine). Kept
// 32K, on the safe side.
inline constexpr std::size_t assign_parallel_min = std::size_t(1) << 15;

inline void expect_assign_lengths(std::size_t out, std::size_t mask, std::size_t values, bool have_values) {
  if (mask != 0 && mask != out)
    throw invalid_input("assign: mask has " + std::to_string(mask) + " entries, expected 0 or " +
                        std::to_string(out));
  if (have_values && values != out)
    throw invalid_input("assign: values has " + std::to_string(values) + " entries, expected " +
                        std::to_string(out));
}
// The graphblas backend (ops/cpu/assign_graphblas.cpp), T with gpu_assign_type<T>.
template <class T>
void assign_graphblas(std::span<T> out, std::span<const std::uint8_t> mask, std::span<const T> values);
template <class T>
void assign_graphblas(std::span<T> out, std::span<const std::uint8_t> mask, T value);

// The gpu or graphblas backend, for the entry types they are compiled for
// (the same five).
template <class T, class Source>
void assign_on_backend(std::span<T> out, std::span<const std::uint8_t> mask, Source source, Backend backend) {
  if constexpr (gpu_assign_type<T>) {
    if (backend == Backend::gpu) assign_gpu<T>(out, mask, source);
    else assign_graphblas<T>(out, mask, source);
  } else {
    throw invalid_input(std::string("assign: the ") + backend_name(backend) +
                        " backend takes uint8, int32, int64, float or double entries");
  }
}
}  // namespace detail

template <class T>
void assign(std::span<T> out, std::span<const std::uint8_t> mask, std::type_identity_t<T> value,
            Backend backend = Backend::automatic) {
  detail::expect_assign_lengths(out.size(), mask.size(), 0, false);
  if (backend == Backend::gpu || backend == Backend::graphblas)
    return detail::assign_on_backend<T, T>(out, mask, value, backend);
  const std::ptrdiff_t n = std::ptrdiff_t(out.size());
  T* const o = out.data();
  if (mask.empty()) {
#pragma omp parallel for schedule(static) if (out.size() >= detail::assign_parallel_min)
    for (std::ptrdiff_t i = 0; i < n; ++i) o[i] = value;
  } else {
    const std::uint8_t* const m = mask.data();
#pragma omp parallel for schedule(static) if (out.size() >= detail::assign_parallel_min)
    for (std::ptrdiff_t i = 0; i < n; ++i)
      if (m[i] != 0) o[i] = value;
  }
}

template <class T>
void assign(std::span<T> out, std::span<const std::uint8_t> mask, std::span<const std::type_identity_t<T>> values,
            Backend backend = Backend::automatic) {
  detail::expect_assign_lengths(out.size(), mask.size(), values.size(), true);
  if (backend == Backend::gpu || backend == Backend::graphblas)
    return detail::assign_on_backend<T, std::span<const T>>(out, mask, values, backend);
  const std::ptrdiff_t n = std::ptrdiff_t(out.size());
  T* const o = out.data();
  const T* const v = values.data();
  if (mask.empty()) {
#pragma omp parallel for schedule(static) if (out.size() >= detail::assign_parallel_min)
    for (std::ptrdiff_t i = 0; i < n; ++i) o[i] = v[i];
  } else {
    const std::uint8_t* const m = mask.data();
#pragma omp parallel for schedule(static) if (out.size() >= detail::assign_parallel_min)
    for (std::ptrdiff_t i = 0; i < n; ++i)
      if (m[i] != 0) o[i] = v[i];
  }
}

}  // namespace matchblas::ops
