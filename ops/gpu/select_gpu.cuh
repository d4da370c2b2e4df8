// select + compaction on the device: the device-level twin of
// ops/select.hpp's select_free_entries, for GPU matchers
// (ops/gpu/select_gpu.cu wraps it for host arrays).
//
//   C = select_free_entries(A, mate): A's shape, and exactly the entries
//   (u, v, w) of A with mate[u] == -1 && mate[v] == -1, in A's order.
//
// Source: "Parallel graph matching", a course project on handshaking
// matching on GPUs (no author named): "Edges Filtering" (the keep-edges
// flags), "Get New Edge Indices" (their exclusive prefix sum) and the
// compaction newSrc[edgeMap[x]] = oldSrc[x];
// in STYLE 6's phases, for A with m entries:
//   count  flag[k] = 1 when entry k is kept, a warp per row (rows in a
//          grid-stride loop, lanes over the row's entries); flag[m] = 0
//   scan   pos = the exclusive prefix sum of flag over m + 1 items
//          (cub::DeviceScan, 64-bit sums): pos[k] is kept entry k's place
//          in C, pos[m] C's entry count
//   fill   C.cols[pos[k]] = A.cols[k] and C.weights[pos[k]] = A.weights[k]
//          for kept k; C.offsets[u] = pos[A.offsets[u]] (the exclusive scan
//          of the rows' kept counts is the entry scan read at the row
//          starts, so one scan gives both)
// Guarantee: exactly the CPU twin's C, for any threads_per_block: every
// flag and every output is written by one thread, from an exact integer
// scan.
// Cost: O(rows + entries) work; depth O(max degree / 32 + log entries).
// Temporary device memory: 9 bytes per entry (flag, pos) plus CUB's scan
// storage. Synchronous: waits for `stream` to read C's entry count (to
// allocate C) and once more before freeing the temporaries.
// Preconditions: O(1) checks, shape_error unless A is square; invalid_input
// for a bad threads_per_block (a multiple of 32 from 32 to 1024). Not
// checked (device data): a is a consistent CSR whose columns are in range,
// and mate holds a.n_rows device entries. .cu files only.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#include <string>

#include "lib/error.hpp"
#include "lib/types.hpp"
#include "ops/gpu/cuda_check.hpp"
#include "ops/gpu/device_buffer.cuh"
#include "ops/gpu/launch.cuh"

namespace matchblas::gpu {

namespace detail {

template <class W>
__global__ void flag_free_entries(CsrView<W> a, const vertex_t* mate, std::uint8_t* flag) {
  const int lane = threadIdx.x & 31;
  const long long warps = grid_threads() >> 5;
  for (long long u = grid_thread() >> 5; u < a.n_rows; u += warps) {
    const bool row_free = mate[u] == no_vertex;
    const offset_t end = a.offsets[u + 1];
    for (offset_t k = a.offsets[u] + lane; k < end; k += 32) flag[k] = row_free && mate[a.cols[k]] == no_vertex;
  }
}

template <class W>
__global__ void compact_entries(CsrView<W> a, const std::uint8_t* flag, const offset_t* pos, vertex_t* cols,
                                W* weights) {
  for (long long k = grid_thread(); k < a.n_entries; k += grid_threads())
    if (flag[k] != 0) {
      cols[pos[k]] = a.cols[k];
      weights[pos[k]] = a.weights[k];
    }
}

template <class W>
__global__ void gather_row_starts(CsrView<W> a, const offset_t* pos, offset_t* offsets) {
  for (long long u = grid_thread(); u <= a.n_rows; u += grid_threads()) offsets[u] = pos[a.offsets[u]];
}

}  // namespace detail

template <class W>
DeviceCsr<W> select_free_entries(const CsrView<W>& a, const vertex_t* mate, int threads_per_block,
                                 cudaStream_t stream) {
  if (a.n_rows != a.n_cols)
    throw shape_error("gpu::select_free_entries: needs a square matrix; got " + std::to_string(a.n_rows) + " x " +
                      std::to_string(a.n_cols));
  expect_threads_per_block(threads_per_block, "gpu::select_free_entries");
  const offset_t m = a.n_entries;

  // Count.
  DeviceBuffer<std::uint8_t> flag(static_cast<std::size_t>(m) + 1, stream);  // scratch: stream-ordered
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(flag.data() + m, 0, 1, stream));
  if (const unsigned blocks = grid_blocks(32LL * a.n_rows, threads_per_block); blocks > 0) {
    detail::flag_free_entries<W><<<blocks, threads_per_block, 0, stream>>>(a, mate, flag.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
  }

  // Scan. A null temporary pointer makes CUB report the size instead of
  // scanning, so the storage is never null (one byte when CUB asks for 0).
  DeviceBuffer<offset_t> pos(static_cast<std::size_t>(m) + 1, stream);
  std::size_t temp_bytes = 0;
  MATCHBLAS_CUDA_TRY(cub::DeviceScan::ExclusiveScan(nullptr, temp_bytes, flag.data(), pos.data(),
                                                    cuda::std::plus<offset_t>{}, offset_t{0}, m + 1, stream));
  DeviceBuffer<std::uint8_t> temp(std::max<std::size_t>(temp_bytes, 1), stream);
  MATCHBLAS_CUDA_TRY(cub::DeviceScan::ExclusiveScan(temp.data(), temp_bytes, flag.data(), pos.data(),
                                                    cuda::std::plus<offset_t>{}, offset_t{0}, m + 1, stream));
  offset_t kept = 0;
  MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(&kept, pos.data() + m, sizeof kept, cudaMemcpyDeviceToHost, stream));
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(stream));

  // Fill.
  DeviceBuffer<offset_t> offsets(static_cast<std::size_t>(a.n_rows) + 1);
  DeviceBuffer<vertex_t> cols(static_cast<std::size_t>(kept));
  DeviceBuffer<W> weights(static_cast<std::size_t>(kept));
  if (const unsigned blocks = grid_blocks(m, threads_per_block); blocks > 0 && kept > 0) {
    detail::compact_entries<W><<<blocks, threads_per_block, 0, stream>>>(a, flag.data(), pos.data(), cols.data(),
                                                                         weights.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
  }
  detail::gather_row_starts<W><<<grid_blocks(a.n_rows + 1LL, threads_per_block), threads_per_block, 0, stream>>>(
      a, pos.data(), offsets.data());
  MATCHBLAS_CUDA_CHECK_LAUNCH();
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(stream));  // before flag, pos and temp are freed
  return DeviceCsr<W>(a.n_rows, a.n_cols, std::move(offsets), std::move(cols), std::move(weights));
}

}  // namespace matchblas::gpu
