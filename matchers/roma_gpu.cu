// roma-gpu: ROMA on a complete graph on the GPU at the memory's pace
// (matchers/gpu.hpp states the contract; issue 5).
// Source: seed 000 sec. 3.5 (4-cycle augmentation, Alg. 4-5) and sec. 4.1
// (the GPU ROMA: a block per matching edge, Alg. 7-9), rebuilt around what a
// phase must move: each matched pair (u, v) reads rows u and v once, 4 n^2
// bytes a phase for float weights, and every gather a scan makes lands on
// chip.
//
// How a phase runs:
//   - A persistent grid of clusters of C blocks (a Hopper thread-block
//     cluster). Warp 0 of the cluster's first block is its control warp: it
//     takes the next representative u < M[u] from the phase's worklist (a
//     global counter, guided grabs of 1-16 entries, M[u] re-read fresh when
//     the pair is taken) and
//     makes the flips; warps 1-15 of every block are workers (warp 0 of the
//     other blocks only keeps the barriers).
//   - Block r's workers copy columns [r S, (r + 1) S) of rows u and v into
//     shared memory, w[u, j] and w[v, j] side by side (16-byte streaming
//     loads; S = n / C rounded up), and the largest entry of each row.
//   - Each block scans the matching edges (x, y = M[x]), x < y, with x in its
//     slice: w[u, x] and w[v, x] are local, w[u, y] and w[v, y] come from the
//     block that holds column y (one 2-word load through distributed shared
//     memory), and the current weight of (x, y) and y itself from a vector
//     cw (cw[x] = (w[x, M[x]], M[x]), 8 bytes for float, two columns a
//     16-byte load), not from a gather into row x and a read of M[x]. x > y
//     is skipped there and then.
//     Before anything else an upper bound of the gain from the local values
//     and the row maxima (w[v, y] <= max of row v, w[u, y] <= max of row u)
//     is tested: once the matching is good almost every edge fails it and
//     costs no remote load (an exact pruning: the bound holds for the float
//     sums too, they round monotonically). The block's best flip
//     (gain, a, b) goes to the control warp, which takes the best of the C
//     and calls atomicFlip (matchers/roma_gpu_common.cuh) while the workers copy
//     the next pair's rows: it arrives at that pair's first cluster barrier
//     before it flips and waits after.
//   - cw is refreshed at the start of each phase and written by every flip
//     before its mate writes, so it stays in step with the matching up to
//     races; it only steers the choice (a stale mate in it names an edge that
//     the flip's re-check then refuses). A flip's gain is re-computed under
//     the locks from exact weights: w[u, a], w[v, b] and w[u, v] (copied from
//     the rows, which never change) and w[x, y] (read from memory), so a
//     stale cw can cost a flip, never weight.
//   - The worklist is built when a phase starts (a select over the
//     representatives). Under RomaScan::changed (roma.hpp) it holds, from
//     phase 1 on, only the pairs stamped in the previous phase: a flip stamps
//     its four vertices, and a flip chosen but refused (by the re-check or
//     a taken lock) stamps its pair (the refused candidate may have hidden
//     a second-best one). The argument of roma.hpp holds under the races.
//     Claim: after phase p no two pairs unstamped in p form a 4-cycle
//     gaining more than min_gain. Of two such pairs, either neither was stamped in p - 1 (the
//     claim for p - 1), or one was, so it was listed in p, taken (its edge
//     did not change) and scanned in full without finding a flip above
//     min_gain, reading the other one exactly (unchanged all phase, so its
//     cw entry too). A pair read mid-flip is stamped, so rescanned. The
//     run stops after a phase without flips; in such a phase no flip is
//     refused either (mates and cw are exact, the re-check repeats the
//     scan's arithmetic, and a chain of lock refusals ends in a flip), so
//     nothing is stamped and the claim covers every pair.
// Why the matching stays valid: only atomicFlip writes mates, under the locks
// of both representatives, after re-checking both ends of both edges
// (Lemma 4.1.1's argument, strengthened; roma_gpu_common.cuh). Rows are copied for
// a pair whose edge may change before the scan ends; the re-check then
// refuses the flip (a lost augmentation, never an invalid matching), and a
// flip made one pair late (the control warp's overlap) is re-checked alike.
// Guarantee: a perfect matching after every phase, weight never lower; each
// flip gains more than min_gain (with bf16 storage: in the rounded weights).
// Cost per pair scanned: its two rows, 8 n bytes from memory (float; 4 n for
// bf16), so 4 n^2 a phase of every pair; plus n x 8 bytes of cw from L2
// (float) and, for the edges that pass the bound, a remote shared-memory
// load.
// Shape: 512-thread blocks (one control warp, fifteen workers; two resident
// per SM at 64 registers); grabs of up to 16 worklist entries, enough to
// amortise the atomic, shrinking as the worklist runs out so that the
// clusters finish together.
#include <cooperative_groups.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>

#include <cub/device/device_select.cuh>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <string>
#include <vector>

#include "lib/error.hpp"
#include "matchers/device_dense.cuh"
#include "matchers/gpu.hpp"
#include "matchers/gpu_session.cuh"
#include "matchers/roma_gpu_common.cuh"
#include "matchers/roma_gpu_launch.cuh"
#include "matchers/roma_gpu_pieces.cuh"

namespace matchblas {

namespace {

namespace cg = cooperative_groups;
using namespace roma_gpu_detail;

// One phase. Dynamic shared memory: rows[j] = (w[u, lo + j], w[v, lo + j])
// for the block's columns [lo, lo + slice), lo = rank * slice.
// Barriers per pair: S2 (rows on chip, the pair read by all) and S3 (every
// block's best ready). The leader's control warp arrives at S2 before it
// flips the previous pair's choice and waits after, so flips overlap the
// copies and the scan.
template <class W, class S>
__global__ void __launch_bounds__(fast_block, 2) roma_fast_phase(const S* __restrict__ w, vertex_t n, vertex_t* mate,
                                                                 WeightMate<W>* cw, vertex_t* locks, unsigned* counter,
                                                                 unsigned long long* flips, W min_gain,
                                                                 vertex_t slice, Worklist list, ChangeStamps stamps) {
  __shared__ Candidate<W> per_warp[worker_warps];
  __shared__ Candidate<W> block_best;
  __shared__ RowPair<W> per_warp_top[worker_warps];
  __shared__ RowPair<W> slice_top;  // the largest w[u, j] and w[v, j] of this block's columns
  __shared__ PairQueue queue;  // rank 0's
  extern __shared__ __align__(16) unsigned char raw[];
  RowPair<W>* rows = reinterpret_cast<RowPair<W>*>(raw);

  const cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank(), blocks = cluster.num_blocks();
  const long long lo = static_cast<long long>(rank) * slice;
  const long long hi = min(static_cast<long long>(n), lo + slice);
  const volatile vertex_t* vmate = mate;
  const PairQueue* leader_queue = cluster.map_shared_rank(&queue, 0);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;

  if (rank == 0 && warp == 0) {  // the control warp
    if (lane == 0) queue.head = queue.len = 0;
    __syncwarp();
    const unsigned listed = *list.count, clusters = gridDim.x / blocks;
    take_next_pair(queue, counter, vmate, list.pairs, listed, clusters);
    cluster.sync();
    PendingFlip<W> pending{no_vertex, no_vertex, W(0), {}};
    unsigned long long taken = 0;
    for (;;) {
      const vertex_t u = queue.next_u, v = queue.next_v;
      auto arrived = cluster.barrier_arrive();  // S2 (or the last barrier)
      if (lane == 0 && pending.u != no_vertex)
        flip_pending(pending, w, n, mate, cw, locks, flips, min_gain, stamps);
      __syncwarp();
      cluster.barrier_wait(std::move(arrived));
      if (u == no_vertex) {
        if (lane == 0 && taken > 0) atomicAdd(list.scanned, taken);
        return;
      }
      ++taken;
      const unsigned owner_v = unsigned(v / slice);
      const W wuv = cluster.map_shared_rank(rows, owner_v)[v - static_cast<long long>(owner_v) * slice].u;
      take_next_pair(queue, counter, vmate, list.pairs, listed, clusters);
      cluster.sync();  // S3
      Candidate<W> c = block_best;
      for (unsigned r = 1; r < blocks; ++r) {
        const Candidate<W> other = *cluster.map_shared_rank(&block_best, r);
        if (other.gain > c.gain) c = other;
      }
      pending = {no_vertex, no_vertex, W(0), c};
      if (c.a != no_vertex && c.gain > min_gain) pending.u = u, pending.v = v, pending.wuv = wuv;
    }
  }

  cluster.sync();
  for (;;) {
    const vertex_t u = leader_queue->next_u, v = leader_queue->next_v;
    if (u == no_vertex) {  // the same for every block of the cluster
      cluster.sync();      // no block leaves while the leader may read its candidate
      return;
    }
    if (warp > 0) {
      RowPair<W> top{-std::numeric_limits<W>::infinity(), -std::numeric_limits<W>::infinity()};
      if (hi > lo)
        top = copy_rows(rows, w + static_cast<long long>(u) * n + lo, w + static_cast<long long>(v) * n + lo,
                        hi - lo, int(threadIdx.x) - 32);
      for (int d = 16; d > 0; d /= 2) {
        top.u = max(top.u, __shfl_down_sync(~0u, top.u, d));
        top.v = max(top.v, __shfl_down_sync(~0u, top.v, d));
      }
      if (lane == 0) per_warp_top[warp - 1] = top;
      asm volatile("bar.sync 1, %0;" ::"r"(workers) : "memory");  // the workers alone
      if (threadIdx.x == 32) {
        for (int k = 1; k < worker_warps; ++k) {
          top.u = max(top.u, per_warp_top[k].u);
          top.v = max(top.v, per_warp_top[k].v);
        }
        slice_top = top;
      }
    }
    pair_barrier(warp <= 1);  // S2: every slice on chip; every block has read the pair
    if (warp > 0) {
      const unsigned owner_v = unsigned(v / slice);
      const W wuv = cluster.map_shared_rank(rows, owner_v)[v - static_cast<long long>(owner_v) * slice].u;
      RowPair<W> row_max = slice_top;  // of the whole rows u and v
      for (unsigned r = 0; r < blocks; ++r) {
        const RowPair<W> t = *cluster.map_shared_rank(&slice_top, r);
        row_max.u = max(row_max.u, t.u);
        row_max.v = max(row_max.v, t.v);
      }
      Candidate<W> best{W(0), no_vertex, no_vertex, W(0), W(0)};
      // The edge (x, y = M[x]) seen from column x: its current weight and
      // y from cwx, w[u, x] and w[v, x] in at_x.
      auto consider = [&](long long x, WeightMate<W> cwx, RowPair<W> at_x) {
        const vertex_t y = cwx.mate;
        if (!(x < y)) return;  // each matching edge once, from its smaller end
        const W current = wuv + cwx.w;
        // An upper bound of the gain: w[v, y] <= max of row v, w[u, y] <=
        // max of row u (float sums round monotonically, so it bounds the
        // computed gain too). Most edges fail it once the matching is good:
        // no remote load.
        if (!(max(at_x.u + row_max.v, row_max.u + at_x.v) - current > max(best.gain, min_gain))) return;
        if (x == u || x == v || y == u || y == v) return;
        const unsigned owner = unsigned(y / slice);
        const RowPair<W> at_y = cluster.map_shared_rank(rows, owner)[y - static_cast<long long>(owner) * slice];
        const W w1 = at_x.u + at_y.v, w2 = at_y.u + at_x.v;  // {u, x}, {v, y} or {u, y}, {v, x}
        if (w1 > w2) {
          if (w1 - current > best.gain) best = {w1 - current, vertex_t(x), y, at_x.u, at_y.v};
        } else if (w2 - current > best.gain) {
          best = {w2 - current, y, vertex_t(x), at_y.u, at_x.v};
        }
      };
      // per_step columns a thread at a time (two for float: one 16-byte cw
      // load and one 16-byte shared load bring both), four steps' cw loads
      // issued together to keep L2 loads in flight. Slices start on
      // multiples of 4 and n is even, so a step never crosses hi. (Two columns a step against one: 2-3% off 8 phases and
      // 5-8% off phase 0 on the H100, bench/RESULTS.md.)
      constexpr int per_step = sizeof(WeightMate<W>) == 8 ? 2 : 1;
      static_assert(per_step == 1 || (16 / sizeof(S)) % 2 == 0, "slices must start on even columns");
      constexpr int batch = 4;
      for (long long base = lo + per_step * (threadIdx.x - 32); base < hi; base += batch * per_step * workers) {
        WeightMate<W> cx[batch * per_step];
#pragma unroll
        for (int k = 0; k < batch; ++k) {
          const long long x = base + k * per_step * workers;
          if constexpr (per_step == 2) {  // float
            const uint4 raw = x < hi ? __ldcg(reinterpret_cast<const uint4*>(cw + x)) : make_uint4(0, 0, 0, 0);
            cx[2 * k] = {__uint_as_float(raw.x), vertex_t(raw.y)};
            cx[2 * k + 1] = {__uint_as_float(raw.z), vertex_t(raw.w)};
          } else {  // double: 16 bytes, also from L2 (a plain load could serve a stale L1 line)
            const ulonglong2 raw = x < hi ? __ldcg(reinterpret_cast<const ulonglong2*>(cw) + x) : make_ulonglong2(0, 0);
            cx[k] = {W(__longlong_as_double(static_cast<long long>(raw.x))), vertex_t(unsigned(raw.y))};
          }
        }
#pragma unroll
        for (int k = 0; k < batch; ++k) {
          const long long x = base + k * per_step * workers;
          if (x >= hi) break;
          if constexpr (per_step == 2) {
            const float4 r = *reinterpret_cast<const float4*>(rows + (x - lo));
            consider(x, cx[2 * k], RowPair<W>{r.x, r.y});
            consider(x + 1, cx[2 * k + 1], RowPair<W>{r.z, r.w});
          } else {
            consider(x, cx[k], rows[x - lo]);
          }
        }
      }
      best = warp_best(best);
      if (lane == 0) per_warp[warp - 1] = best;
      asm volatile("bar.sync 1, %0;" ::"r"(workers) : "memory");  // the workers alone
      if (threadIdx.x == 32) {
        Candidate<W> c = per_warp[0];
        for (int k = 1; k < worker_warps; ++k)
          if (per_warp[k].gain > c.gain) c = per_warp[k];
        block_best = c;
      }
    }
    pair_barrier(warp <= 1);  // S3: every block's best ready; every scan done
  }
}

// cw[x] = (w[x, M[x]], M[x]); the pair counter reset.
template <class W, class S>
__global__ void start_phase(const S* w, vertex_t n, const vertex_t* mate, WeightMate<W>* cw, unsigned* counter) {
  const long long x = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (x == 0) *counter = 0;
  if (x < n) cw[x] = {widen<W>(w[x * n + mate[x]]), mate[x]};
}

// The bf16 copy of a float matrix (round to nearest).
__global__ void to_bf16(const float* w, long long count, __nv_bfloat16* out) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    out[i] = __float2bfloat16_rn(w[i]);
}

// The phases from the start matching `mate` (padded order), the kernels
// reading the weights w stored as S (g's own, or a bf16 copy of them); the
// report's weights are g's.
template <class W, class S>
RomaRun run_fast(const DeviceDense<W>& g, const S* w, std::vector<vertex_t> mate, const RomaOptions& opt,
                 const RomaGpuOptions& gopt) {
  const vertex_t n = g.padded_n();
  cudaFuncAttributes attr{};
  MATCHBLAS_CUDA_TRY(cudaFuncGetAttributes(&attr, roma_fast_phase<W, S>));
  cudaLaunchAttribute cluster_dim[1];
  cluster_dim[0].id = cudaLaunchAttributeClusterDimension;
  cudaLaunchConfig_t config{};
  config.attrs = cluster_dim;
  config.numAttrs = 1;
  config.blockDim = dim3(fast_block);
  // The launch for shape s (one cluster), and how many such clusters fit.
  auto active_clusters = [&](const Shape& s) {
    MATCHBLAS_CUDA_TRY(cudaFuncSetAttribute(roma_fast_phase<W, S>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            static_cast<int>(s.smem)));
    if (s.cluster > 8)
      MATCHBLAS_CUDA_TRY(
          cudaFuncSetAttribute(roma_fast_phase<W, S>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    cluster_dim[0].val.clusterDim = {unsigned(s.cluster), 1, 1};
    config.dynamicSmemBytes = s.smem;
    config.gridDim = dim3(unsigned(s.cluster));
    int clusters = 0;
    MATCHBLAS_CUDA_TRY(cudaOccupancyMaxActiveClusters(&clusters, roma_fast_phase<W, S>, &config));
    return clusters;
  };
  const Shape shape = choose_shape<W, S>(n, gopt, g.device(), attr.sharedSizeBytes, active_clusters);
  gpu::DeviceBuffer<WeightMate<W>> cw{std::size_t(n)};
  gpu::DeviceBuffer<unsigned> counter{1};
  const int clusters = active_clusters(shape);
  if (clusters < 1)
    throw error("roma-gpu: no cluster of " + std::to_string(shape.cluster) + " blocks with " +
                std::to_string(shape.smem) + " bytes of shared memory each fits this GPU");
  // At most one pair in eight in flight at once: pairs scanned together see
  // each other's flips only through the re-check, and on small graphs
  // (n = 1000-2048, all 264 clusters busy) that cost 1-4% of the weight
  // after 8 phases on the H100.
  config.gridDim = dim3(unsigned(std::min(clusters, std::max(1, n / 16)) * shape.cluster));

  gpu::DeviceBuffer<int> changed{std::size_t(n)};
  MATCHBLAS_CUDA_TRY(cudaMemset(changed.data(), 0xff, changed.size() * sizeof(int)));  // all -1
  gpu::DeviceBuffer<vertex_t> pairs{std::size_t(n) / 2};
  gpu::DeviceBuffer<unsigned> listed{1};
  const thrust::counting_iterator<vertex_t> vertices(0);
  auto select = [&](void* temp, std::size_t& bytes, int phase, const vertex_t* m) {
    return cub::DeviceSelect::If(temp, bytes, vertices, pairs.data(), listed.data(), n,
                                 ToScan{m, changed.data(), phase, opt.scan == RomaScan::all});
  };
  std::size_t temp_bytes = 0;
  MATCHBLAS_CUDA_TRY(select(nullptr, temp_bytes, 0, nullptr));
  gpu::DeviceBuffer<unsigned char> temp{std::max<std::size_t>(temp_bytes, 1)};
  return roma_phases(g, std::move(mate), opt, /*counts_scans=*/true, [&](int p, const PhaseState& s) {
    start_phase<W, S><<<(n + 255) / 256, 256>>>(w, n, s.mate, cw.data(), counter.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    MATCHBLAS_CUDA_TRY(select(temp.data(), temp_bytes, p, s.mate));
    MATCHBLAS_CUDA_TRY(cudaLaunchKernelEx(&config, roma_fast_phase<W, S>, w, n, s.mate, cw.data(), s.locks,
                                          counter.data(), s.flips, W(opt.min_gain), shape.slice,
                                          Worklist{pairs.data(), listed.data(), s.scanned},
                                          ChangeStamps{changed.data(), p}));
  });
}

template <class W>
RomaRun run_fast(const DeviceDense<W>& g, std::vector<vertex_t> mate, const RomaOptions& opt,
                 const RomaGpuOptions& gopt) {
  MATCHBLAS_CUDA_TRY(cudaSetDevice(g.device()));
  const vertex_t n = g.padded_n();
  if (n < 4 || opt.phases == 0) return roma_phases(g, std::move(mate), opt, true, [](int, const PhaseState&) {});
  if (!gopt.bf16) return run_fast<W, W>(g, g.impl().w.data(), std::move(mate), opt, gopt);
  if constexpr (std::is_same_v<W, float>) {  // (check_roma_gpu_options refused bf16 for double)
    const long long count = static_cast<long long>(n) * n;
    gpu::DeviceBuffer<__nv_bfloat16> half{std::size_t(count)};  // out_of_memory when it does not fit
    to_bf16<<<1024, 256>>>(g.impl().w.data(), count, half.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    return run_fast<W, __nv_bfloat16>(g, half.data(), std::move(mate), opt, gopt);
  }
  return {};
}

}  // namespace

template <class W>
RomaRun roma_gpu(const DeviceDense<W>& g, const RomaOptions& opt, const RomaGpuOptions& gopt) {
  check_roma_options(opt);
  check_roma_gpu_options<W>(gopt);
  return run_from_start<W>(g, nullptr, opt,
                           [&](std::vector<vertex_t> start) { return run_fast(g, std::move(start), opt, gopt); });
}

template <class W>
RomaRun roma_gpu(const Dense<W>& g, const RomaOptions& opt, const RomaGpuOptions& gopt) {
  check_roma_options(opt);
  check_roma_gpu_options<W>(gopt);
  const DeviceDense<W> d = DeviceDense<W>::upload(g, gopt.device);
  return run_from_start<W>(d, &g, opt,
                           [&](std::vector<vertex_t> start) { return run_fast(d, std::move(start), opt, gopt); });
}

template RomaRun roma_gpu(const DeviceDense<float>&, const RomaOptions&, const RomaGpuOptions&);
template RomaRun roma_gpu(const DeviceDense<double>&, const RomaOptions&, const RomaGpuOptions&);
template RomaRun roma_gpu(const Dense<float>&, const RomaOptions&, const RomaGpuOptions&);
template RomaRun roma_gpu(const Dense<double>&, const RomaOptions&, const RomaGpuOptions&);

}  // namespace matchblas
