// Row argmax on the GPU (the `gpu` backend of ops/argmax.hpp; same contract
// and tie rule as the CPU backends). One warp per row, rows in a grid-stride
// loop: each lane scans every 32nd entry of the row keeping its best
// qualifying (weight, column) under neighbour_beats, then a shuffle
// reduction with the same comparison; lane 0 writes. This first version
// copies the CSR and masks in and the result out on every call (a host-side
// entry point for tests and the dispatcher); degree-binned sub-warp groups
// and device-resident graphs come with the GPU matchers (issue 4).
// Cost: O(entries of active rows) work; a row of degree d takes d/32 steps.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "lib/greedy_order.hpp"
#include "ops/argmax.hpp"
#include "ops/gpu/cuda_check.hpp"
#include "ops/gpu/device.hpp"
#include "ops/gpu/device_buffer.cuh"

namespace matchblas::ops::detail {

namespace {

constexpr int block_threads = 256;

template <class W, bool Active, bool Eligible, bool Floor>
__global__ void argmax_warp_per_row(gpu::CsrView<W> a, const std::uint8_t* active, const std::uint8_t* eligible,
                                    const W* floor_w, const vertex_t* floor_v, vertex_t* out_v, W* out_w) {
  const int lane = threadIdx.x & 31;
  const long long warps = (static_cast<long long>(gridDim.x) * blockDim.x) >> 5;
  for (long long u = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; u < a.n_rows;
       u += warps) {
    W bw = -std::numeric_limits<W>::infinity();
    vertex_t bc = no_vertex;
    if (!Active || active[u] != 0) {
      const offset_t end = a.offsets[u + 1];
      for (offset_t k = a.offsets[u] + lane; k < end; k += 32) {
        const vertex_t v = a.cols[k];
        const W w = a.weights[k];
        if constexpr (Eligible) {
          if (eligible[v] == 0) continue;
        }
        if constexpr (Floor) {
          const W f = floor_w[v];
          if (w < f || (w == f && !neighbour_beats(w, static_cast<vertex_t>(u), f, floor_v[v]))) continue;
        }
        if (neighbour_beats(w, v, bw, bc)) {
          bw = w;
          bc = v;
        }
      }
    }
    // (-inf, -1) loses to every real candidate and ties with itself.
    for (int offset = 16; offset > 0; offset >>= 1) {
      const W ow = __shfl_down_sync(0xffffffffu, bw, offset);
      const vertex_t oc = __shfl_down_sync(0xffffffffu, bc, offset);
      if (neighbour_beats(ow, oc, bw, bc)) {
        bw = ow;
        bc = oc;
      }
    }
    if (lane == 0) {
      out_v[u] = bc;
      out_w[u] = bc == no_vertex ? W(0) : bw;
    }
  }
}

template <class W, bool Active, bool Eligible, bool Floor>
void launch(const gpu::CsrView<W>& a, const std::uint8_t* active, const std::uint8_t* eligible, const W* floor_w,
            const vertex_t* floor_v, vertex_t* out_v, W* out_w, int sms, cudaStream_t stream) {
  const long long warps_needed = std::max<long long>(a.n_rows, 1);
  const long long blocks = std::min<long long>((warps_needed * 32 + block_threads - 1) / block_threads, 32LL * sms);
  argmax_warp_per_row<W, Active, Eligible, Floor>
      <<<static_cast<unsigned>(blocks), block_threads, 0, stream>>>(a, active, eligible, floor_w, floor_v, out_v, out_w);
  MATCHBLAS_CUDA_CHECK_LAUNCH();
}

}  // namespace

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
  const bool has_active = !masks.active_rows.empty(), has_eligible = !masks.eligible_cols.empty(),
             has_floor = !masks.floor_weight.empty();
  const auto go = [&]<bool A, bool E, bool F>() {
    launch<W, A, E, F>(d.view(), active.data(), eligible.data(), floor_w.data(), floor_v.data(), out_v.data(),
                       out_w.data(), sms, stream);
  };
  if (has_active && has_eligible && has_floor) go.template operator()<true, true, true>();
  else if (has_active && has_eligible) go.template operator()<true, true, false>();
  else if (has_active && has_floor) go.template operator()<true, false, true>();
  else if (has_active) go.template operator()<true, false, false>();
  else if (has_eligible && has_floor) go.template operator()<false, true, true>();
  else if (has_eligible) go.template operator()<false, true, false>();
  else if (has_floor) go.template operator()<false, false, true>();
  else go.template operator()<false, false, false>();
  out_v.to_host(best, stream);
  out_w.to_host(best_weight, stream);
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(stream));
}

template void argmax_rows_gpu(const Csr<float>&, const ArgmaxMasks<float>&, std::span<vertex_t>, std::span<float>);
template void argmax_rows_gpu(const Csr<double>&, const ArgmaxMasks<double>&, std::span<vertex_t>,
                              std::span<double>);

}  // namespace matchblas::ops::detail
