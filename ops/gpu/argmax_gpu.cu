// Row argmax on the GPU: the `gpu` backend of ops/argmax.hpp (host arrays,
// copied in and out per call) and the device-level gpu::argmax_rows of
// ops/gpu/argmax_gpu.cuh that the GPU matchers call on resident data. Same
// contract and tie rule as the CPU backends.
//
// Rows are taken in their own order by groups of 4 lanes (8 rows per warp):
// neighbouring groups read neighbouring rows, so a warp's loads are
// contiguous and no row list is read; that kernel also writes (-1, 0) for
// inactive and empty rows and lists the rows it leaves to others:
//   degree <= 128    the group of 4 lanes (up to 32 entries per lane)
//   degree <= 4096   a warp per row (listed)
//   longer           a block of 256 threads per row (listed)
// A group's lanes scan every width-th entry of the row, four loads at a time
// (ops/gpu/row_scan.cuh), each keeping its best qualifying (weight, column)
// under neighbour_beats (the mask tests run only for an entry that would beat
// the lane's best), then a butterfly of shuffles (and, for a block, a pass
// through shared memory) reduces with the same comparison. Loops are uniform
// per warp, so every shuffle has all 32 lanes. On the H100, Erdos-Renyi
// scale 23 (268M entries, degrees about 32): 0.94 ms, against 1.69 ms when
// every row went through degree bins first (bins of 4 and 8 lanes read rows
// in the bins' scattered order); R-MAT scale 23: 1.24 ms against 1.50.
// Cost: O(rows + entries of active rows) work; a row of degree d takes
// d / width steps for its group's width; 3 launches per call.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "lib/greedy_order.hpp"
#include "ops/argmax.hpp"
#include "ops/gpu/argmax_gpu.cuh"
#include "ops/gpu/cuda_check.hpp"
#include "ops/gpu/device.hpp"
#include "ops/gpu/device_buffer.cuh"
#include "ops/gpu/row_scan.cuh"
#include "ops/gpu/warp_append.cuh"

namespace matchblas::gpu {

namespace {

constexpr unsigned full_warp = 0xffffffffu;
constexpr int group_width = 4, group_degree = 128;  // rows up to 128 entries: 4 lanes each, in row order
constexpr int warp_degree = 4096;                   // up to 4096: a warp each
constexpr int block_width = 256;                    // longer rows: a block each

template <class W>
struct Best {
  W w = -std::numeric_limits<W>::infinity();
  vertex_t v = no_vertex;  // (-inf, -1) loses to every candidate and ties with itself
  __device__ void offer(W ow, vertex_t ov) {
    if (neighbour_beats(ow, ov, w, v)) {
      w = ow;
      v = ov;
    }
  }
};

template <class W>
__device__ bool qualifies(const DeviceArgmaxMasks<W>& m, vertex_t u, vertex_t v, W w) {
  if (m.eligible_cols && m.eligible_cols[v] == 0) return false;
  return !m.floor_weight || neighbour_beats(w, u, m.floor_weight[v], m.floor_vertex[v]);
}

// This lane's best over entries first, first + width, ... of row u.
template <class W>
__device__ Best<W> scan_row(const CsrView<W>& a, const DeviceArgmaxMasks<W>& m, vertex_t u, int first, int width) {
  Best<W> b;
  for_strided_entries(a, u, first, width, [&](vertex_t v, W w) {
    if (neighbour_beats(w, v, b.w, b.v) && qualifies(m, u, v, w)) {
      b.w = w;
      b.v = v;
    }
  });
  return b;
}

// Butterfly over groups of `width` consecutive lanes (width a power of two
// <= 32); all 32 lanes must call it.
template <class W>
__device__ Best<W> reduce_lanes(Best<W> b, int width) {
  for (int offset = width / 2; offset > 0; offset >>= 1)
    b.offer(__shfl_xor_sync(full_warp, b.w, offset), __shfl_xor_sync(full_warp, b.v, offset));
  return b;
}

template <class W>
__device__ void write(vertex_t* best, W* best_weight, vertex_t u, const Best<W>& b) {
  best[u] = b.v;
  best_weight[u] = b.v == no_vertex ? W(0) : b.w;
}

// Rows in their own order, a group of Width lanes each: rows of 1 ..
// group_degree entries are reduced here, empty and inactive rows get
// (-1, 0), longer rows are listed for the warps (rows[0, 1, ...), counts[0])
// and the blocks (rows[n-1, n-2, ...), counts[1]).
template <class W, int Width>
__global__ void argmax_rows_in_order(CsrView<W> a, DeviceArgmaxMasks<W> m, vertex_t* rows, int* counts, vertex_t* best,
                                     W* best_weight) {
  const int lane = threadIdx.x & 31, member = lane % Width;
  constexpr int groups_per_warp = 32 / Width;
  const long long warp = (blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x) >> 5;
  const long long warps = (static_cast<long long>(gridDim.x) * blockDim.x) >> 5;
  const long long n = a.n_rows;
  for (long long base = warp * groups_per_warp; base < n; base += warps * groups_per_warp) {
    const long long u = base + lane / Width;
    Best<W> b;
    bool mine = false;
    if (u < n) {
      const offset_t degree = a.offsets[u + 1] - a.offsets[u];
      if (degree == 0 || (m.active_rows && m.active_rows[u] == 0)) {
        if (member == 0) write(best, best_weight, vertex_t(u), Best<W>{});
      } else if (degree <= group_degree) {
        mine = true;
        b = scan_row(a, m, vertex_t(u), member, Width);
      } else if (member == 0) {
        if (degree <= warp_degree) append_by_warp(rows, counts, vertex_t(u));
        else rows[n - 1 - claim_by_warp(counts + 1)] = vertex_t(u);
      }
    }
    b = reduce_lanes(b, Width);
    if (mine && member == 0) write(best, best_weight, vertex_t(u), b);
  }
}

// A warp per listed row (rows[0 .. *count - 1]).
template <class W>
__global__ void argmax_warps(CsrView<W> a, DeviceArgmaxMasks<W> m, const vertex_t* rows, const int* count,
                             vertex_t* best, W* best_weight) {
  const int lane = threadIdx.x & 31;
  const long long warp = (blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x) >> 5;
  const long long warps = (static_cast<long long>(gridDim.x) * blockDim.x) >> 5;
  const int rows_in_bin = *count;
  for (long long i = warp; i < rows_in_bin; i += warps) {
    const vertex_t u = rows[i];
    const Best<W> b = reduce_lanes(scan_row(a, m, u, lane, 32), 32);
    if (lane == 0) write(best, best_weight, u, b);
  }
}

// A block of block_width threads per row, long rows stored from rows[-1] down.
template <class W>
__global__ void argmax_blocks(CsrView<W> a, DeviceArgmaxMasks<W> m, const vertex_t* rows_end, const int* count,
                              vertex_t* best, W* best_weight) {
  __shared__ W warp_w[block_width / 32];
  __shared__ vertex_t warp_v[block_width / 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int rows_in_bin = *count;
  for (int i = blockIdx.x; i < rows_in_bin; i += gridDim.x) {
    const vertex_t u = rows_end[-1 - i];
    Best<W> b = reduce_lanes(scan_row(a, m, u, threadIdx.x, block_width), 32);
    if (lane == 0) {
      warp_w[warp] = b.w;
      warp_v[warp] = b.v;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      for (int k = 1; k < block_width / 32; ++k) b.offer(warp_w[k], warp_v[k]);
      write(best, best_weight, u, b);
    }
    __syncthreads();  // warp_w is rewritten for the next row
  }
}

}  // namespace

template <class W>
void argmax_rows(const CsrView<W>& a, const DeviceArgmaxMasks<W>& masks, vertex_t* best, W* best_weight,
                 ArgmaxScratch& scratch, int sms, cudaStream_t stream) {
  MATCHBLAS_EXPECTS(scratch.capacity() >= a.n_rows, "gpu::argmax_rows: the scratch is smaller than the matrix");
  if (a.n_rows == 0) return;
  const long long n = a.n_rows;
  const unsigned grid = static_cast<unsigned>(std::clamp<long long>((n + 255) / 256, 1, 32LL * sms));
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(scratch.counts(), 0, 2 * sizeof(int), stream));
  argmax_rows_in_order<W, group_width>
      <<<grid, 256, 0, stream>>>(a, masks, scratch.rows(), scratch.counts(), best, best_weight);
  MATCHBLAS_CUDA_CHECK_LAUNCH();
  argmax_warps<W><<<static_cast<unsigned>(32LL * sms), 256, 0, stream>>>(a, masks, scratch.rows(), scratch.counts(), best,
                                                                          best_weight);
  MATCHBLAS_CUDA_CHECK_LAUNCH();
  argmax_blocks<W><<<static_cast<unsigned>(8LL * sms), block_width, 0, stream>>>(a, masks, scratch.rows() + n,
                                                                                scratch.counts() + 1, best, best_weight);
  MATCHBLAS_CUDA_CHECK_LAUNCH();
}

template void argmax_rows(const CsrView<float>&, const DeviceArgmaxMasks<float>&, vertex_t*, float*, ArgmaxScratch&, int,
                          cudaStream_t);
template void argmax_rows(const CsrView<double>&, const DeviceArgmaxMasks<double>&, vertex_t*, double*, ArgmaxScratch&,
                          int, cudaStream_t);

}  // namespace matchblas::gpu

namespace matchblas::ops::detail {

// The host entry point: copy in, gpu::argmax_rows, copy out (synchronous).
template <class W>
void argmax_rows_gpu(const Csr<W>& a, const ArgmaxMasks<W>& masks, std::span<vertex_t> best,
                     std::span<W> best_weight) {
  if (gpu::device_count() == 0)
    throw error("the gpu backend of argmax_rows needs a CUDA GPU: " + gpu::unavailable_reason());
  if (a.n_rows == 0) return;
  cudaStream_t stream = nullptr;  // the legacy default stream: this entry point is synchronous
  int device = 0, sms = 0;
  MATCHBLAS_CUDA_TRY(cudaGetDevice(&device));
  MATCHBLAS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const gpu::DeviceCsr<W> d(a, stream);
  const auto active = gpu::DeviceBuffer<std::uint8_t>::from_host(masks.active_rows, stream);
  const auto eligible = gpu::DeviceBuffer<std::uint8_t>::from_host(masks.eligible_cols, stream);
  const auto floor_w = gpu::DeviceBuffer<W>::from_host(masks.floor_weight, stream);
  const auto floor_v = gpu::DeviceBuffer<vertex_t>::from_host(masks.floor_vertex, stream);
  gpu::DeviceBuffer<vertex_t> out_v(best.size());
  gpu::DeviceBuffer<W> out_w(best_weight.size());
  gpu::ArgmaxScratch scratch(a.n_rows);
  // DeviceBuffer of an empty span holds nullptr: an empty mask stays "no mask".
  gpu::argmax_rows(d.view(), gpu::DeviceArgmaxMasks<W>{active.data(), eligible.data(), floor_w.data(), floor_v.data()},
                   out_v.data(), out_w.data(), scratch, sms, stream);
  out_v.to_host(best, stream);
  out_w.to_host(best_weight, stream);
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(stream));
}

template void argmax_rows_gpu(const Csr<float>&, const ArgmaxMasks<float>&, std::span<vertex_t>, std::span<float>);
template void argmax_rows_gpu(const Csr<double>&, const ArgmaxMasks<double>&, std::span<vertex_t>,
                              std::span<double>);

}  // namespace matchblas::ops::detail
