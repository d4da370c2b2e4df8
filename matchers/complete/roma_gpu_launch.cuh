// The launch shape of roma-gpu (matchers/complete/roma_gpu.cu): how many blocks of a
// thread-block cluster share a matched pair's two rows, and the slice of
// columns each holds, for n, the storage type and the options (the device
// queries here; the arithmetic and the rule in roma_gpu_policy.hpp, which a
// CPU test checks); and the options' checks. .cu files only.
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
#include "matchers/complete/roma_gpu_policy.hpp"
#include "ops/gpu/gpu_session.cuh"

namespace matchblas::roma_gpu_detail {

using Shape = roma_gpu_policy::ClusterShape;

// The shape for n on `device`, where the kernel's static shared memory is
// static_smem bytes a block and active_clusters(shape) says how many
// clusters of that shape fit the GPU at once. The arithmetic and the rule
// are roma_gpu_policy's (matchers/complete/roma_gpu_policy.hpp); here the
// device's shared memory sizes and, for each size whose rows fit the budget
// tried, the occupancy query (only those, in the order of the sizes).
template <class W, class S, class ActiveClusters>
Shape choose_shape(vertex_t n, const RomaGpuOptions& gopt, int device, std::size_t static_smem,
                   ActiveClusters active_clusters) {
  int per_sm = 0, per_block_optin = 0;
  MATCHBLAS_CUDA_TRY(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
  MATCHBLAS_CUDA_TRY(cudaDeviceGetAttribute(&per_block_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  const roma_gpu_policy::SmemLimits limits =
      roma_gpu_policy::smem_limits(std::size_t(per_sm), std::size_t(per_block_optin), gopt.blocks_per_sm, static_smem);
  const std::size_t budget = limits.all;
  constexpr int per = 16 / sizeof(S);  // slices start on 16-byte boundaries of the stored rows
  auto shape_for = [&](int c) { return roma_gpu_policy::cluster_shape(n, c, per, sizeof(W)); };
  if (gopt.cluster > 0) {
    const Shape s = shape_for(gopt.cluster);
    if (s.smem > budget)
      throw invalid_input("roma-gpu: a cluster of " + std::to_string(gopt.cluster) + " blocks needs " +
                          std::to_string(s.smem) + " bytes of shared memory per block for n = " + std::to_string(n) +
                          ", more than the " + std::to_string(budget) + " available at " +
                          std::to_string(gopt.blocks_per_sm) + " block(s) per SM");
    return s;
  }
  // First within the preferred share of an SM's shared memory, then within
  // all of it (roma_gpu_policy::pick_cluster_size says which size wins).
  constexpr auto& sizes = roma_gpu_policy::cluster_sizes;
  for (const std::size_t limit : {limits.preferred, limits.all}) {
    long long resident[std::size(sizes)] = {};  // blocks resident at once, 0 where the rows do not fit
    for (std::size_t i = 0; i < std::size(sizes); ++i) {
      const Shape s = shape_for(sizes[i]);
      if (s.smem <= limit) resident[i] = static_cast<long long>(active_clusters(s)) * sizes[i];
    }
    const int picked = roma_gpu_policy::pick_cluster_size(resident);
    if (picked >= 0) return shape_for(sizes[picked]);
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
