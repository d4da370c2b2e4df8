// The GPU ops called from host code on host arrays: the `gpu` backend of
// ops/select.hpp, ops/assign.hpp and ops/transpose.hpp, and what the GPU
// tests compare with the CPU twins. Plain header: no CUDA includes (the
// kernels live in ops/gpu/*_gpu.cu; builds without CUDA link
// ops/gpu/*_gpu_no_cuda.cpp instead, which throw).
//
//   select_free_entries_gpu(A, mate)      = ops::select_free_entries(A, mate)
//   assign_gpu(out, mask, values | value) = ops::assign(out, mask, values | value)
//   transpose_gpu(A)                      = ops::transpose(A)
//
// Each copies its inputs to the device, runs the device-level op
// (ops/gpu/select_gpu.cuh, assign_gpu.cuh, transpose_gpu.cuh) on the legacy
// default stream and copies the result back before returning: for tests and
// one-off calls; GPU matchers keep their data on the device and call the
// device-level ops.
//
// Guarantee: exactly the CPU twin's result, for every input and every
// threads_per_block. Errors, in this order: the twin's argument errors
// (same types and messages); invalid_input when threads_per_block is not a
// multiple of 32 from 32 to 1024; transpose_gpu: invalid_input beyond
// 2^31 - 1 entries (cuSPARSE's csr2csc takes 32-bit indices); error when
// the build has no CUDA or no usable GPU; cuda_error / out_of_memory from
// the device.
// Cost: the device op's, plus copying the inputs in and the result out.
#pragma once
#include <cstdint>
#include <span>
#include <type_traits>

#include "lib/csr.hpp"
#include "lib/types.hpp"

namespace matchblas::ops {

// The block size the host entries use unless told otherwise. Not tuned (no
// GPU run has swept it): the kernels are memory-bound grid-stride loops,
// where 256 is CUB's common default.
inline constexpr int gpu_threads_per_block = 256;

// The entry types assign_gpu is compiled for.
template <class T>
inline constexpr bool gpu_assign_type =
    std::is_same_v<T, std::uint8_t> || std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int64_t> ||
    std::is_same_v<T, float> || std::is_same_v<T, double>;

// W in {float, double}.
template <class W>
Csr<W> select_free_entries_gpu(const Csr<W>& a, std::span<const vertex_t> mate,
                               int threads_per_block = gpu_threads_per_block);

// T with gpu_assign_type<T>.
template <class T>
void assign_gpu(std::span<T> out, std::span<const std::uint8_t> mask, std::span<const std::type_identity_t<T>> values,
                int threads_per_block = gpu_threads_per_block);
template <class T>
void assign_gpu(std::span<T> out, std::span<const std::uint8_t> mask, std::type_identity_t<T> value,
                int threads_per_block = gpu_threads_per_block);

// W in {float, double}.
template <class W>
Csr<W> transpose_gpu(const Csr<W>& a, int threads_per_block = gpu_threads_per_block);

}  // namespace matchblas::ops
