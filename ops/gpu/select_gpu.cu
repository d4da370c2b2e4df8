// The gpu backend of ops::select_free_entries for host arrays
// (ops/gpu_ops.hpp states the contract): the argument checks of
// ops/select.hpp, copies in, the device-level select of
// ops/gpu/select_gpu.cuh, copy out.
// Cost: the device op's plus the copies (A and mate in, C back).
#include <cuda_runtime.h>

#include <span>

#include "lib/csr.hpp"
#include "ops/gpu/device.hpp"
#include "ops/gpu/device_buffer.cuh"
#include "ops/gpu/launch.cuh"
#include "ops/gpu/select_gpu.cuh"
#include "ops/gpu_ops.hpp"
#include "ops/select.hpp"

namespace matchblas::ops {

template <class W>
Csr<W> select_free_entries_gpu(const Csr<W>& a, std::span<const vertex_t> mate, int threads_per_block) {
  detail::expect_free_entries_args(a, mate);
  gpu::expect_threads_per_block(threads_per_block, "select_free_entries_gpu");
  if (gpu::device_count() == 0)
    throw error("select_free_entries_gpu needs a CUDA GPU: " + gpu::unavailable_reason());
  cudaStream_t stream = nullptr;  // the legacy default stream: this entry point is synchronous
  const gpu::DeviceCsr<W> d(a, stream);
  const auto d_mate = gpu::DeviceBuffer<vertex_t>::from_host(mate, stream);
  return gpu::select_free_entries(d.view(), d_mate.data(), threads_per_block, stream).to_host(stream);
}

template Csr<float> select_free_entries_gpu(const Csr<float>&, std::span<const vertex_t>, int);
template Csr<double> select_free_entries_gpu(const Csr<double>&, std::span<const vertex_t>, int);

}  // namespace matchblas::ops
