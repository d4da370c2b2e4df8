// The launch shape of roma-gpu (matchers/complete/roma_gpu.cu): how many blocks of a
// thread-block cluster share a matched pair's two rows, and the slice of
// columns each holds, for n, the storage type and the options; and the
// options' checks. .cu files only.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <iterator>
#include <cstddef>
#include <string>
#include <type_traits>

#include "lib/error.hpp"
#include "lib/types.hpp"
#include "matchers/complete/roma.hpp"
#include "matchers/gpu_session.cuh"

namespace matchblas::roma_gpu_detail {

// The launch shape: cluster size and slice length for n and the options.
struct Shape {
  int cluster;
  vertex_t slice;
  std::size_t smem;  // dynamic shared memory per block
};

// The shape for n on `device`, where the kernel's static shared memory is
// static_smem bytes a block and active_clusters(shape) says how many
// clusters of that shape fit the GPU at once.
template <class W, class S, class ActiveClusters>
Shape choose_shape(vertex_t n, const RomaGpuOptions& gopt, int device, std::size_t static_smem,
                   ActiveClusters active_clusters) {
  int per_sm = 0, per_block_optin = 0;
  MATCHBLAS_CUDA_TRY(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
  MATCHBLAS_CUDA_TRY(cudaDeviceGetAttribute(&per_block_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  // Each resident block also costs 1 KB of the SM's shared memory.
  auto budget_of = [&](std::size_t per_sm_bytes) -> std::size_t {
    const std::size_t share = std::min<std::size_t>(per_block_optin, per_sm_bytes / gopt.blocks_per_sm - 1024);
    return share > static_smem ? share - static_smem : 0;
  };
  const std::size_t budget = budget_of(std::size_t(per_sm));
  constexpr int per = 16 / sizeof(S);  // slices start on 16-byte boundaries of the stored rows
  auto shape_for = [&](int c) {
    const vertex_t slice = vertex_t(((n + c - 1) / c + per - 1) / per * per);
    return Shape{c, slice, 2 * std::size_t(slice) * sizeof(W)};
  };
  if (gopt.cluster > 0) {
    const Shape s = shape_for(gopt.cluster);
    if (s.smem > budget)
      throw invalid_input("roma-gpu: a cluster of " + std::to_string(gopt.cluster) + " blocks needs " +
                          std::to_string(s.smem) + " bytes of shared memory per block for n = " + std::to_string(n) +
                          ", more than the " + std::to_string(budget) + " available at " +
                          std::to_string(gopt.blocks_per_sm) + " block(s) per SM");
    return s;
  }
  // Among the cluster sizes 1-8 and 16 (the non-portable 9-15 are never
  // chosen) whose rows fit `limit` bytes a block: the fewest blocks a cluster
  // (the most pairs in flight, the fewest remote loads) whose clusters keep
  // at least 95% as many blocks resident as the best size does. The GPCs'
  // sizes leave slots idle for every size: on the H100 the occupancy query
  // gives 237 / 248 / 235 / 234 / 240 of 264 slots for 3 / 4 / 5 / 6 / 8
  // blocks (n = 32768-90112), so a bound on the share of all 264 slots
  // picked 4 and 8 where 3 and 6 ran 8-12% faster (bench/RESULTS.md). First
  // within 196 KB of shared memory an SM, then within all of it: clusters
  // whose blocks take more (n = 65536 in 5 blocks of 105 KB, 90112 in 7 of
  // 103 KB) ran 4-17% slower than the next size up.
  constexpr int sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 16};
  constexpr std::size_t preferred_per_sm = 196 * 1024;
  for (const std::size_t limit : {budget_of(std::min<std::size_t>(preferred_per_sm, per_sm)), budget}) {
    long long resident[std::size(sizes)] = {};  // blocks resident at once, 0 where the rows do not fit
    long long most = 0;
    for (std::size_t i = 0; i < std::size(sizes); ++i) {
      const Shape s = shape_for(sizes[i]);
      if (s.smem <= limit) resident[i] = static_cast<long long>(active_clusters(s)) * sizes[i];
      most = std::max(most, resident[i]);
    }
    for (std::size_t i = 0; most > 0 && i < std::size(sizes); ++i)
      if (20 * resident[i] >= 19 * most) return shape_for(sizes[i]);
  }
  throw invalid_input("roma-gpu: n = " + std::to_string(n) +
                      " is too large: two rows do not fit the shared memory of a cluster of 16 blocks");
}

template <class W>
void check_roma_gpu_options(const RomaGpuOptions& g) {
  if (g.bf16 && !std::is_same_v<W, float>) throw invalid_input("roma-gpu: bf16 storage is for float weights");
  if (g.cluster < 0 || g.cluster > 16)
    throw invalid_input("roma-gpu: cluster must be 0 (automatic) or 1-16, got " + std::to_string(g.cluster));
  if (g.blocks_per_sm != 1 && g.blocks_per_sm != 2)
    throw invalid_input("roma-gpu: blocks per SM must be 1 or 2, got " + std::to_string(g.blocks_per_sm));
}

}  // namespace matchblas::roma_gpu_detail
