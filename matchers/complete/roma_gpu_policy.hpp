// roma-gpu's host-side policy (matchers/complete/roma_gpu.cu runs it): the
// automatic choice of each phase's kernel with its thresholds, and the
// arithmetic of the cluster phase's shape (slice, shared memory budget, the
// cluster size picked from the occupancy queries' counts). Pure functions of
// plain values: no CUDA, built in every configuration, so that a CPU test
// (tests/matchers/test_roma_gpu_policy.cpp) checks each branch. The CUDA side
// (the device's attributes, the occupancy queries) stays in
// matchers/complete/roma_gpu.cu and roma_gpu_launch.cuh.
// Source: the tuning of bench/RESULTS.md on the H100 (sm_90), as each
// constant below says.
#pragma once
#include <cstddef>
#include <iterator>
#include <span>

#include "lib/types.hpp"
#include "matchers/complete/roma.hpp"

namespace matchblas::roma_gpu_policy {

// ---- the kernel of a phase (RomaGpuKernel::automatic) ----

// Gathering much: more than this many edges past the bound per pair and
// per column in the previous phase (with the warp-shared threshold the
// kernels count nearly alike: the queued form tests against a best gain
// that rises only as its ring drains, so it counts a little more, e.g.
// 0.102 against the cluster phase's 0.108 on exponential phase 1 at n =
// 65536, 0.461 against 0.463 on geometric; measured on the H100 in
// bench/RESULTS.md, float weights: for double each lane keeps its own
// threshold, so more edges pass and the rule leans to the cluster phase).
inline constexpr double gathers_much = 0.2;
// The stream phase's gathers stay in L2 while the rows of its pairs in
// flight take at most this many times its size (the H100: 132 pairs of
// 32768 floats a row, 34 MB of 50).
inline constexpr double rows_in_l2 = 1.0;
// Gathering everywhere: more than this many edges past the bound per pair
// and per column (the x < M[x] half of them can pass). The queued stream
// phase then only adds its ring's work to gathers made at every column
// anyway (geometric weights pass at about 0.46; exponential ones at 0.02-0.11
// after phase 1). Phase 0's count, from the start matching, says nothing
// of later scans (exponential weights pass at 0.40 there), so phase 1 is
// always queued. Not for bf16 rows (eight columns a load): their queued
// kernel spills 88 bytes a thread and ran 20% slower than the stream phase
// on the H100 (bench/RESULTS.md).
inline constexpr double gathers_everywhere = 0.3;

// Whether the stream phase's rows in flight fit L2: `pairs_in_flight` pairs
// (its grid) of two rows of n entries of `stored_bytes` each, against
// rows_in_l2 x `l2_bytes`.
bool rows_fit_l2(long long pairs_in_flight, vertex_t n, std::size_t stored_bytes, long long l2_bytes);

// Phase `phase`'s kernel on the padded order n. `requested` other than
// automatic passes through. Automatic: phase 0 takes the cluster phase (it
// records the row maxima); later, with passed = previous_past_bound / (n x
// max(1, previous_pairs)) (the previous phase's edges past the bound per
// pair and column), the cluster phase when passed > gathers_much and the
// rows do not fit L2; else the stream phase when the rows are stored as bf16
// (queue_ok false) or, from phase 2 on, when passed > gathers_everywhere;
// else the queued stream phase.
RomaGpuKernel choose_kernel(RomaGpuKernel requested, int phase, unsigned long long previous_past_bound,
                            unsigned long long previous_pairs, vertex_t n, bool rows_fit_l2, bool queue_ok);

// The kernel to run on a GPU with or without thread-block clusters (sm_90
// and newer have them; the cluster phase needs them): `chosen` itself, or
// for the cluster phase on an older GPU (sm_80-89) the queued stream phase
// (the stream phase when queue_ok is false). The tuning above was measured
// on the H100 only.
RomaGpuKernel without_clusters(RomaGpuKernel chosen, bool clusters, bool queue_ok);

// ---- the cluster phase's shape (matchers/complete/roma_gpu_launch.cuh) ----

// The launch shape: cluster size and slice length for n and the options.
struct ClusterShape {
  int cluster;
  vertex_t slice;
  std::size_t smem;  // dynamic shared memory per block
};

// The cluster sizes the automatic choice tries (the non-portable 9-15 are never chosen).
inline constexpr int cluster_sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 16};
inline constexpr std::size_t cluster_size_count = std::size(cluster_sizes);
// Clusters whose blocks take more than this much of an SM's shared memory
// ran slower than the next size up (n = 65536 in 5 blocks of 105 KB, 90112
// in 7 of 103 KB: 4-17% on the H100), so the choice looks within it first.
inline constexpr std::size_t preferred_smem_per_sm = 196 * 1024;

// The shape of a cluster of `cluster` blocks for n: each block holds a slice
// of ceil(n / cluster) columns rounded up to a multiple of `per_load` (slices
// start on 16-byte boundaries of the stored rows: per_load = 16 / the stored
// size), of both rows, at `weight_bytes` a column.
ClusterShape cluster_shape(vertex_t n, int cluster, int per_load, std::size_t weight_bytes);

// The dynamic shared memory a block may take when an SM has `per_sm_bytes`
// for `blocks_per_sm` blocks (each resident block also costs 1 KB), at most
// the opt-in per-block maximum, less the kernel's static shared memory (0
// when that leaves nothing).
std::size_t smem_budget(std::size_t per_sm_bytes, std::size_t per_block_optin, int blocks_per_sm,
                        std::size_t static_smem);

// The two budgets the automatic choice tries in turn: within
// preferred_smem_per_sm of an SM's shared memory, then within all of it.
struct SmemLimits {
  std::size_t preferred, all;
};
SmemLimits smem_limits(std::size_t per_sm_bytes, std::size_t per_block_optin, int blocks_per_sm,
                       std::size_t static_smem);

// The index in cluster_sizes of the size picked from `resident`, the blocks
// resident at once for each size (clusters the occupancy query fits x
// blocks a cluster; 0 where the rows do not fit the budget): the fewest
// blocks a cluster (the most pairs in flight, the fewest remote loads) whose
// clusters keep at least 95% as many blocks resident as the best size does.
// -1 when no size fits. Why 95% of the best and not a share of all slots:
// the GPCs' sizes leave slots idle for every size (on the H100 237 / 248 /
// 235 / 234 / 240 of 264 for 3 / 4 / 5 / 6 / 8 blocks at n = 32768-90112),
// and a bound on the share of all 264 picked 4 and 8 where 3 and 6 ran
// 8-12% faster (bench/RESULTS.md).
int pick_cluster_size(std::span<const long long> resident);

}  // namespace matchblas::roma_gpu_policy
