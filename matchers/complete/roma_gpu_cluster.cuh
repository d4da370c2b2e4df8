// roma-gpu's cluster phase (matchers/complete/roma_gpu.cu chooses it for phase 0
// and for phases whose scans gather much): a matched pair's two
// rows copied into the distributed shared memory of a thread-block
// cluster, so that every gather of the scan lands on chip.
// Source: Hovland 2020 sec. 3.5 (Alg. 4-5) and sec. 4.1 (Alg. 7-9), rebuilt
// around the bytes a phase must move.
//
// How a phase runs:
//   - A persistent grid of clusters of C blocks. Warp 0 of the cluster's
//     first block is its control warp: it takes the next representative
//     u < M[u] from the phase's worklist (take_next_pair, M[u] re-read fresh
//     when the pair is taken) and makes the flips; warps 1-15 of every
//     block are workers (warp 0 of the other blocks only keeps the
//     barriers).
//   - Block r's workers copy columns [r S, (r + 1) S) of rows u and v into
//     shared memory, w[u, j] and w[v, j] side by side (16-byte streaming
//     loads; S = n / C rounded up), and the largest entry of each row (also
//     recorded in BoundStats::top for the stream phase).
//   - Each block scans the matching edges (x, y = M[x]), x < y, with x in its
//     slice: w[u, x] and w[v, x] are local, w[u, y] and w[v, y] come from the
//     block that holds column y (one 2-word load through distributed shared
//     memory), and the current weight of (x, y) and y itself from cw (8
//     bytes for float, two columns a 16-byte load). An edge is first tested
//     against an upper bound of its gain from the row maxima (exact pruning:
//     float sums round monotonically); only one past it costs a remote load.
//   - The block's best flip (gain, a, b) goes to the control warp, which
//     tries the C blocks' bests in order of gain until one flips
//     (flip_in_gain_order) while the workers copy the next pair's rows: it
//     arrives at that pair's first cluster barrier before it flips and
//     waits after.
// Guarantee and the races: roma_gpu.cu.
// Cost per pair: its two rows, 8 n bytes from memory (float; 4 n for bf16);
// n x 8 bytes of cw from L2; a remote shared-memory load per edge past the
// bound; two cluster barriers. On the H100 a phase runs at 1.5-1.8x its read
// floor (bench/RESULTS.md), the barriers and the copy-then-scan order being
// the gap.
// Shape: 512-thread blocks (one control warp, fifteen workers; two resident
// per SM at 64 registers); C from choose_shape (roma_gpu_launch.cuh).
// .cu files only.
#pragma once
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <limits>

#include "lib/types.hpp"
#include "matchers/complete/roma_gpu_pair_scan.cuh"

namespace matchblas::roma_gpu_detail {

namespace cg = cooperative_groups;

// One phase. Dynamic shared memory: rows[j] = (w[u, lo + j], w[v, lo + j])
// for the block's columns [lo, lo + slice), lo = rank * slice.
// Barriers per pair: S2 (rows on chip, the pair read by all) and S3 (every
// block's best ready). The leader's control warp arrives at S2 before it
// flips the previous pair's choice and waits after, so flips overlap the
// copies and the scan.
template <class W, class S>
__global__ void __launch_bounds__(cluster_block, 2)
    roma_cluster_phase(const S* __restrict__ w, vertex_t n, vertex_t* mate, WeightMate<W>* cw, vertex_t* locks,
                       unsigned* counter, unsigned long long* flips, unsigned long long* fallbacks, W min_gain,
                       vertex_t slice, Worklist list, ChangeStamps stamps, BoundStats<W> stats) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  __trap();  // no thread-block clusters before sm_90: the host never launches this there (without_clusters)
#else
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
      if (pending.u != no_vertex)
        flip_in_gain_order(pending.c, pending.u, pending.v, pending.wuv, w, n, mate, cw, locks, flips, fallbacks,
                           min_gain, stamps);
      __syncwarp();
      cluster.barrier_wait(std::move(arrived));
      if (u == no_vertex) {
        if (lane == 0 && taken > 0) atomicAdd(list.scanned, taken), atomicAdd(stats.pairs, taken);
        return;
      }
      ++taken;
      const unsigned owner_v = unsigned(v / slice);
      const W wuv = cluster.map_shared_rank(rows, owner_v)[v - static_cast<long long>(owner_v) * slice].u;
      take_next_pair(queue, counter, vmate, list.pairs, listed, clusters);
      cluster.sync();  // S3
      Candidate<W> c{W(0), no_vertex, no_vertex, W(0), W(0)};  // lane r: block r's best
      if (lane < blocks) c = *cluster.map_shared_rank(&block_best, lane);
      pending = {u, v, wuv, c};
    }
  }

  cluster.sync();
  unsigned past = 0;  // edges past the bound (BoundStats)
  for (;;) {
    const vertex_t u = leader_queue->next_u, v = leader_queue->next_v;
    if (u == no_vertex) {  // the same for every block of the cluster
      if (warp > 0) add_past_bound(stats, past);
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
      if (stats.top && rank == 0 && threadIdx.x == 32) stats.top[u] = row_max.u, stats.top[v] = row_max.v;
      Candidate<W> best{W(0), no_vertex, no_vertex, W(0), W(0)};
      W threshold = min_gain;  // the warp's best gain so far, at least min_gain
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
        if (!(max(at_x.u + row_max.v, row_max.u + at_x.v) - current > max(best.gain, threshold))) return;
        ++past;
        if (x == u || x == v || y == u || y == v) return;
        const unsigned owner = unsigned(y / slice);
        const RowPair<W> at_y = cluster.map_shared_rank(rows, owner)[y - static_cast<long long>(owner) * slice];
        offer_flip(best, vertex_t(x), y, current, at_x.u, at_x.v, at_y.u, at_y.v);
      };
      // per_step columns a thread at a time (two for float: one 16-byte cw
      // load and one 16-byte shared load bring both), four steps' cw loads
      // issued together to keep L2 loads in flight. Slices start on
      // multiples of 4 and n is even, so a step never crosses hi. (Two
      // columns a step against one: 2-3% off 8 phases and 5-8% off phase 0
      // on the H100, bench/RESULTS.md.) The steps are warp-uniform: after
      // each, the warp's lanes share their best gain as the bound's threshold.
      constexpr int per_step = sizeof(WeightMate<W>) == 8 ? 2 : 1;
      static_assert(per_step == 1 || (16 / sizeof(S)) % 2 == 0, "slices must start on even columns");
      constexpr int batch = 4;
      for (long long step = lo + per_step * 32 * (warp - 1); step < hi; step += batch * per_step * workers) {
        const long long base = step + per_step * lane;
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
        threshold = max(min_gain, warp_threshold(best.gain));
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
#endif
}

}  // namespace matchblas::roma_gpu_detail
