// The gpu backend of ops::assign for host arrays (ops/gpu_ops.hpp states
// the contract): the length checks of ops/assign.hpp, copies in, the
// device-level assign of ops/gpu/assign_gpu.cuh, copy out.
// Cost: O(n) work plus the copies (out, mask, values in; out back).
#include <cuda_runtime.h>

#include <cstdint>
#include <span>

#include "ops/assign.hpp"
#include "ops/gpu/assign_gpu.cuh"
#include "ops/gpu/cuda_check.hpp"
#include "ops/gpu/device.hpp"
#include "ops/gpu/device_buffer.cuh"
#include "ops/gpu/launch.cuh"
#include "ops/gpu_ops.hpp"

namespace matchblas::ops {

namespace {

// Runs write(out, mask) on device copies of out and mask, then copies out back.
template <class T, class Write>
void assign_on_device(std::span<T> out, std::span<const std::uint8_t> mask, int threads_per_block, Write write) {
  gpu::expect_threads_per_block(threads_per_block, "assign_gpu");
  if (gpu::device_count() == 0) throw error("assign_gpu needs a CUDA GPU: " + gpu::unavailable_reason());
  cudaStream_t stream = nullptr;  // the legacy default stream: this entry point is synchronous
  auto d_out = gpu::DeviceBuffer<T>::from_host(std::span<const T>(out), stream);
  const auto d_mask = gpu::DeviceBuffer<std::uint8_t>::from_host(mask, stream);
  write(d_out.data(), d_mask.data(), stream);  // d_mask.data() is null for an empty mask: no mask
  d_out.to_host(out, stream);
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(stream));
}

}  // namespace

template <class T>
void assign_gpu(std::span<T> out, std::span<const std::uint8_t> mask, std::span<const std::type_identity_t<T>> values,
                int threads_per_block) {
  detail::expect_assign_lengths(out.size(), mask.size(), values.size(), true);
  assign_on_device(out, mask, threads_per_block, [&](T* d_out, const std::uint8_t* d_mask, cudaStream_t stream) {
    const auto d_values = gpu::DeviceBuffer<T>::from_host(values, stream);
    gpu::assign<T>(d_out, d_mask, d_values.data(), out.size(), threads_per_block, stream);
    MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(stream));  // before d_values is freed
  });
}

template <class T>
void assign_gpu(std::span<T> out, std::span<const std::uint8_t> mask, std::type_identity_t<T> value,
                int threads_per_block) {
  detail::expect_assign_lengths(out.size(), mask.size(), 0, false);
  assign_on_device(out, mask, threads_per_block, [&](T* d_out, const std::uint8_t* d_mask, cudaStream_t stream) {
    gpu::assign<T>(d_out, d_mask, value, out.size(), threads_per_block, stream);
  });
}

#define MATCHBLAS_ASSIGN_GPU(T)                                                                              \
  template void assign_gpu<T>(std::span<T>, std::span<const std::uint8_t>, std::span<const T>, int);         \
  template void assign_gpu<T>(std::span<T>, std::span<const std::uint8_t>, T, int);
MATCHBLAS_ASSIGN_GPU(std::uint8_t)
MATCHBLAS_ASSIGN_GPU(std::int32_t)
MATCHBLAS_ASSIGN_GPU(std::int64_t)
MATCHBLAS_ASSIGN_GPU(float)
MATCHBLAS_ASSIGN_GPU(double)
#undef MATCHBLAS_ASSIGN_GPU

}  // namespace matchblas::ops
