// transpose on the GPU: the device-level transpose of
// ops/gpu/transpose_gpu.cuh (cuSPARSE csr2csc between two narrowing /
// widening kernels for the offsets), and the gpu backend of ops::transpose
// for host arrays (ops/gpu_ops.hpp states its contract: the checks of
// ops/transpose.hpp, copies in, the device op, copy out).
// Cost: O(rows + cols + entries) work, plus the copies for the host entry.
#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "lib/error.hpp"
#include "ops/gpu/cuda_check.hpp"
#include "ops/gpu/cusparse_check.hpp"
#include "ops/gpu/device.hpp"
#include "ops/gpu/device_buffer.cuh"
#include "ops/gpu/launch.cuh"
#include "ops/gpu/transpose_gpu.cuh"
#include "ops/gpu_ops.hpp"
#include "ops/transpose.hpp"

namespace matchblas::gpu {

namespace {

static_assert(std::is_same_v<vertex_t, int>, "cuSPARSE's csr2csc takes int indices");

// out[i] = in[i] for i < n, converted (the values fit: checked by the caller).
template <class From, class To>
__global__ void convert_offsets(const From* in, To* out, long long n) {
  for (long long i = grid_thread(); i < n; i += grid_threads()) out[i] = static_cast<To>(in[i]);
}

template <class From, class To>
void launch_convert(const From* in, To* out, long long n, int threads_per_block, cudaStream_t stream) {
  const unsigned blocks = grid_blocks(n, threads_per_block);
  if (blocks == 0) return;
  convert_offsets<From, To><<<blocks, threads_per_block, 0, stream>>>(in, out, n);
  MATCHBLAS_CUDA_CHECK_LAUNCH();
}

}  // namespace

template <class W>
DeviceCsr<W> transpose(const CsrView<W>& a, cusparseHandle_t handle, int threads_per_block, cudaStream_t stream) {
  expect_threads_per_block(threads_per_block, "gpu::transpose");
  constexpr offset_t max_entries = std::numeric_limits<int>::max();
  if (a.n_entries > max_entries)
    throw invalid_input("gpu::transpose: " + std::to_string(a.n_entries) +
                        " entries; cuSPARSE's csr2csc takes at most 2^31 - 1 = " + std::to_string(max_entries));
  const int nnz = static_cast<int>(a.n_entries);
  DeviceBuffer<offset_t> offsets(static_cast<std::size_t>(a.n_cols) + 1);
  DeviceBuffer<vertex_t> rows(static_cast<std::size_t>(nnz));
  DeviceBuffer<W> weights(static_cast<std::size_t>(nnz));
  if (nnz == 0) {
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(offsets.data(), 0, offsets.size() * sizeof(offset_t), stream));
    return DeviceCsr<W>(a.n_cols, a.n_rows, std::move(offsets), std::move(rows), std::move(weights));
  }

  DeviceBuffer<int> row_ptr(static_cast<std::size_t>(a.n_rows) + 1), col_ptr(static_cast<std::size_t>(a.n_cols) + 1);
  launch_convert(a.offsets, row_ptr.data(), a.n_rows + 1LL, threads_per_block, stream);
  constexpr cudaDataType value_type = std::is_same_v<W, float> ? CUDA_R_32F : CUDA_R_64F;
  MATCHBLAS_CUSPARSE_TRY(cusparseSetStream(handle, stream));
  std::size_t buffer_bytes = 0;
  MATCHBLAS_CUSPARSE_TRY(cusparseCsr2cscEx2_bufferSize(
      handle, a.n_rows, a.n_cols, nnz, a.weights, row_ptr.data(), a.cols, weights.data(), col_ptr.data(), rows.data(),
      value_type, CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, &buffer_bytes));
  DeviceBuffer<std::uint8_t> buffer(std::max<std::size_t>(buffer_bytes, 1));
  MATCHBLAS_CUSPARSE_TRY(cusparseCsr2cscEx2(handle, a.n_rows, a.n_cols, nnz, a.weights, row_ptr.data(), a.cols,
                                            weights.data(), col_ptr.data(), rows.data(), value_type,
                                            CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1,
                                            buffer.data()));
  launch_convert(col_ptr.data(), offsets.data(), a.n_cols + 1LL, threads_per_block, stream);
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(stream));  // before row_ptr, col_ptr and buffer are freed
  return DeviceCsr<W>(a.n_cols, a.n_rows, std::move(offsets), std::move(rows), std::move(weights));
}

template DeviceCsr<float> transpose(const CsrView<float>&, cusparseHandle_t, int, cudaStream_t);
template DeviceCsr<double> transpose(const CsrView<double>&, cusparseHandle_t, int, cudaStream_t);

}  // namespace matchblas::gpu

namespace matchblas::ops {

template <class W>
Csr<W> transpose_gpu(const Csr<W>& a, int threads_per_block) {
  detail::expect_transposable(a);
  gpu::expect_threads_per_block(threads_per_block, "transpose_gpu");
  if (gpu::device_count() == 0) throw error("transpose_gpu needs a CUDA GPU: " + gpu::unavailable_reason());
  cudaStream_t stream = nullptr;  // the legacy default stream: this entry point is synchronous
  const gpu::SparseHandle handle;
  const gpu::DeviceCsr<W> d(a, stream);
  return gpu::transpose(d.view(), handle.get(), threads_per_block, stream).to_host(stream);
}

template Csr<float> transpose_gpu(const Csr<float>&, int);
template Csr<double> transpose_gpu(const Csr<double>&, int);

}  // namespace matchblas::ops
