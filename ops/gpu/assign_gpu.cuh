// Masked assign on the device, in GrB_assign style: the device-level twin of
// ops/assign.hpp for GPU matchers (write matches, clear candidates: the
// updates of the match arrays in "Parallel graph matching", a course project
// on handshaking matching on GPUs, no author named); ops/gpu/assign_gpu.cu
// wraps it for host arrays.
//
//   assign(out, mask, values, n, ...): out[i] = values[i] for every i < n
//                                      with mask == nullptr or mask[i] != 0
//   assign(out, mask, value, n, ...):  out[i] = value, the same mask rule
//   A null mask is "no mask" (every entry written), as an empty mask on the
//   host; entries outside the mask keep their value.
//
// All pointers are device pointers to n entries; values may equal out (a
// no-op) but not overlap it otherwise (not checked).
// Guarantee: exactly the loops above, for any threads_per_block (each entry
// written by one thread). invalid_input when threads_per_block is not a
// multiple of 32 from 32 to 1024.
// Cost: O(n) work, one grid-stride kernel launched on `stream` and not
// waited for; n = 0 launches nothing. .cu files only.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "ops/gpu/cuda_check.hpp"
#include "ops/gpu/launch.cuh"

namespace matchblas::gpu {

namespace detail {

// values == nullptr: write `value`.
template <class T, bool Masked, bool Scalar>
__global__ void assign_kernel(T* out, const std::uint8_t* mask, const T* values, T value, long long n) {
  for (long long i = grid_thread(); i < n; i += grid_threads()) {
    if constexpr (Masked) {
      if (mask[i] == 0) continue;
    }
    if constexpr (Scalar) out[i] = value;
    else out[i] = values[i];
  }
}

template <class T, bool Scalar>
void launch_assign(T* out, const std::uint8_t* mask, const T* values, T value, std::size_t n, int threads_per_block,
                   cudaStream_t stream) {
  expect_threads_per_block(threads_per_block, "gpu::assign");
  const unsigned blocks = grid_blocks(static_cast<long long>(n), threads_per_block);
  if (blocks == 0) return;
  if (mask)
    assign_kernel<T, true, Scalar>
        <<<blocks, threads_per_block, 0, stream>>>(out, mask, values, value, static_cast<long long>(n));
  else
    assign_kernel<T, false, Scalar>
        <<<blocks, threads_per_block, 0, stream>>>(out, mask, values, value, static_cast<long long>(n));
  MATCHBLAS_CUDA_CHECK_LAUNCH();
}

}  // namespace detail

template <class T>
void assign(T* out, const std::uint8_t* mask, const T* values, std::size_t n, int threads_per_block,
            cudaStream_t stream) {
  detail::launch_assign<T, false>(out, mask, values, T{}, n, threads_per_block, stream);
}

template <class T>
void assign(T* out, const std::uint8_t* mask, std::type_identity_t<T> value, std::size_t n, int threads_per_block,
            cudaStream_t stream) {
  detail::launch_assign<T, true>(out, mask, nullptr, value, n, threads_per_block, stream);
}

}  // namespace matchblas::gpu
