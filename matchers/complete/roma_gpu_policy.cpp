// roma-gpu's host-side policy (matchers/complete/roma_gpu_policy.hpp): the
// kernel of each phase and the arithmetic of the cluster phase's shape.
// Built in every configuration, with or without CUDA.
#include "matchers/complete/roma_gpu_policy.hpp"

#include <algorithm>

namespace matchblas::roma_gpu_policy {

bool rows_fit_l2(long long pairs_in_flight, vertex_t n, std::size_t stored_bytes, long long l2_bytes) {
  return double(pairs_in_flight) * 2 * double(n) * stored_bytes <= rows_in_l2 * double(l2_bytes);
}

RomaGpuKernel choose_kernel(RomaGpuKernel requested, int phase, unsigned long long previous_past_bound,
                            unsigned long long previous_pairs, vertex_t n, bool rows_fit_l2, bool queue_ok) {
  if (requested != RomaGpuKernel::automatic) return requested;
  if (phase == 0) return RomaGpuKernel::cluster;  // it records the row maxima
  const double passed = double(previous_past_bound) / (double(n) * double(std::max(1ULL, previous_pairs)));
  if (!rows_fit_l2 && passed > gathers_much) return RomaGpuKernel::cluster;
  if (!queue_ok || (phase >= 2 && passed > gathers_everywhere)) return RomaGpuKernel::stream;
  return RomaGpuKernel::queued;
}

RomaGpuKernel without_clusters(RomaGpuKernel chosen, bool clusters, bool queue_ok) {
  if (clusters || chosen != RomaGpuKernel::cluster) return chosen;
  return queue_ok ? RomaGpuKernel::queued : RomaGpuKernel::stream;
}

ClusterShape cluster_shape(vertex_t n, int cluster, int per_load, std::size_t weight_bytes) {
  const int c = cluster, per = per_load;
  const vertex_t slice = vertex_t(((n + c - 1) / c + per - 1) / per * per);
  return ClusterShape{c, slice, 2 * std::size_t(slice) * weight_bytes};
}

std::size_t smem_budget(std::size_t per_sm_bytes, std::size_t per_block_optin, int blocks_per_sm,
                        std::size_t static_smem) {
  const std::size_t share = std::min<std::size_t>(per_block_optin, per_sm_bytes / blocks_per_sm - 1024);
  return share > static_smem ? share - static_smem : 0;
}

SmemLimits smem_limits(std::size_t per_sm_bytes, std::size_t per_block_optin, int blocks_per_sm,
                       std::size_t static_smem) {
  return {smem_budget(std::min(preferred_smem_per_sm, per_sm_bytes), per_block_optin, blocks_per_sm, static_smem),
          smem_budget(per_sm_bytes, per_block_optin, blocks_per_sm, static_smem)};
}

int pick_cluster_size(std::span<const long long> resident) {
  long long most = 0;
  for (const long long r : resident) most = std::max(most, r);
  for (std::size_t i = 0; most > 0 && i < resident.size(); ++i)
    if (20 * resident[i] >= 19 * most) return static_cast<int>(i);
  return -1;
}

}  // namespace matchblas::roma_gpu_policy
