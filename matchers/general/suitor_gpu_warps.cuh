// suitor-gpu's warps: Naim et al.'s (2015) kernel (Naim et al. 2015 sec. 4, Alg. 4 and
// the four variants of "Synchronization and Load Balancing"), with the
// adaptive mode's sub-warp groups and champion searches
// (matchers/general/suitor_gpu.cu says how the two modes differ and why the result is
// greedy's). A warp owns a chunk of vertices and a queue of them in shared
// memory; each round finds the queued vertices' candidates (a group of lanes
// per vertex), then proposes, one queued vertex per lane, and requeues the
// lost and the displaced. .cu files only.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <limits>

#include "matchers/general/suitor.hpp"
#include "matchers/general/suitor_gpu_search.cuh"

namespace matchblas::suitor_gpu_detail {

__device__ inline offset_t degree_of(const offset_t* offsets, vertex_t u) { return offsets[u + 1] - offsets[u]; }

// A warp's queue in shared memory: the queued vertices and, beside each, a
// neighbour known to refuse it (the one it last lost or was displaced from;
// refused_v[i] = no_vertex: none known). Naim et al.'s (2015) mode keeps no refusals
// (refused_v and refused_w null).
template <class W>
struct WarpQueue {
  vertex_t* v;
  vertex_t* refused_v;
  W* refused_w;
  __device__ bool keeps_refusals() const { return refused_v != nullptr; }
};

// Champion rounds before the walk in group_search (ER 23 on the H100, warps
// phase: 3.35 ms unbounded, 3.21 ms with 1, 3.18 ms with 2).
constexpr int champion_rounds = 2;

// One pass of groups of Width lanes over the queue: group k of the warp takes
// positions k, k + 32/Width, ... whose row length is in (shortest, longest],
// and writes their candidates, by champions (group_search) or Naim et al.'s (2015) walk
// (group_candidate). Loops are uniform over the warp.
template <int Width, class W, class Offers>
__device__ void group_candidates(const gpu::CsrView<W>& g, const Offers& offers, const word_t* word,
                                 const WarpQueue<W>& queue, int count, vertex_t* cand, W* cand_w, int lane,
                                 offset_t shortest, offset_t longest, bool champions) {
  const int group = lane / Width, member = lane % Width;
  for (int base = 0; base < count; base += 32 / Width) {
    const int i = base + group;
    bool mine = false;
    vertex_t u = no_vertex;
    if (i < count) {
      u = queue.v[i];
      const offset_t d = degree_of(g.offsets, u);
      mine = d > shortest && d <= longest;
    }
    if (__ballot_sync(full_warp, mine) == 0) continue;
    Best<W> b;
    if (champions) {
      Best<W> refused;
      if (mine) refused = {queue.refused_v[i], queue.refused_w[i]};
      b = group_search(g, offers, word, u, mine, member, Width, refused, champion_rounds);
    } else {
      b = group_candidate(g, offers, word, u, mine, member, Width);
    }
    if (mine && member == 0) {
      cand[i] = b.v;
      cand_w[i] = b.w;
    }
  }
}

// Candidates of the count queued vertices, into cand / cand_w. Naim et al. 2015: the
// warp scans one vertex after another. Adaptive: the group width follows the
// row length, so that a lane reads at most 8 to 16 entries of a short row and
// a warp holds 8 or 4 short rows at once: 4 lanes up to 32 entries, 8 lanes
// up to 128 (both by champions when `champions`), the whole warp beyond.
template <bool Adaptive, class W, class Offers>
__device__ void warp_candidates(const gpu::CsrView<W>& g, const Offers& offers, const word_t* word,
                                const WarpQueue<W>& queue, int count, vertex_t* cand, W* cand_w, int lane,
                                bool champions) {
  constexpr offset_t any = std::numeric_limits<offset_t>::max();
  if constexpr (Adaptive) {
    group_candidates<4>(g, offers, word, queue, count, cand, cand_w, lane, -1, 32, champions);
    group_candidates<8>(g, offers, word, queue, count, cand, cand_w, lane, 32, 128, champions);
    group_candidates<32>(g, offers, word, queue, count, cand, cand_w, lane, 128, any, false);
  } else {
    group_candidates<32>(g, offers, word, queue, count, cand, cand_w, lane, -1, any, false);
  }
}

// Spreads the queued vertices of a block evenly over its warps when one warp
// holds more than 1.25x the average; every thread of the block calls it.
// pool has room for warps * vpw vertices; returns this warp's new count. When
// it spreads them, every queued vertex of the block forgets its refusal (a
// refusal only saves word reads).
template <class W>
__device__ int balance_block(vertex_t* queues, vertex_t* refused_all, vertex_t* pool, int* counts, int vpw,
                             int count) {
  const int warps = blockDim.x / 32, warp = threadIdx.x / 32, lane = threadIdx.x & 31;
  __syncthreads();
  if (lane == 0) counts[warp] = count;
  __syncthreads();
  int total = 0, most = 0, before = 0;
  for (int w = 0; w < warps; ++w) {
    if (w == warp) before = total;
    total += counts[w];
    most = max(most, counts[w]);
  }
  if (4 * most * warps <= 5 * total) return count;  // within 25% of the average (a block-uniform choice)
  vertex_t* mine = queues + warp * vpw;
  for (int i = lane; i < count; i += 32) pool[before + i] = mine[i];
  __syncthreads();
  const int lo = int(static_cast<long long>(total) * warp / warps);
  const int hi = int(static_cast<long long>(total) * (warp + 1) / warps);
  for (int i = lane; i < hi - lo; i += 32) {
    mine[i] = pool[lo + i];
    if (refused_all) refused_all[warp * vpw + i] = no_vertex;
  }
  __syncthreads();  // pool is the candidate array of the next round
  return hi - lo;
}

// Shared memory of the warps' kernel per queue slot: the candidate and its
// weight, the queued vertex, and for the champion search its refusal
// (vertex, weight).
template <class W>
constexpr std::size_t warps_slot_bytes(bool refusals) {
  return sizeof(W) + 2 * sizeof(vertex_t) + (refusals ? sizeof(W) + sizeof(vertex_t) : 0);
}

// The vertices the warps' kernel starts from: positions 0 .. leading +
// *extra_count - 1, where position p < leading is vertex p (Naim et al. 2015: every
// vertex) and the others are listed in extra (adaptive: the vertices the
// bulk first round and the hub kernel left without an offer held; their
// heaviest neighbour, best[u], refuses them). positions: the host's count of
// them all (for the grid). champions: rows of up to 128 entries are searched
// by champions, and the queue keeps refusals (adaptive mode only; the
// launch's shared memory must then have room for them).
template <class W>
struct WarpsInput {
  long long leading = 0;
  const vertex_t* extra = nullptr;
  const int* extra_count = nullptr;
  long long positions = 0;
  const vertex_t* best = nullptr;
  const W* best_w = nullptr;
  bool champions = false;
};

// The warps' Suitor over the vertices of `in`.
template <bool Adaptive, class W, class Offers, SuitorGpuVariant Variant>
__global__ void suitor_warps(gpu::CsrView<W> g, Offers offers, word_t* word, int vpw, int lb_rounds,
                             WarpsInput<W> in) {
  extern __shared__ unsigned char smem[];
  __shared__ int counts[32];
  const int warps = blockDim.x / 32, warp = threadIdx.x / 32, lane = threadIdx.x & 31;
  const int slots = warps * vpw;
  const bool refusals = Adaptive && in.champions;
  // Layout: the weights first (widest, for alignment): candidates', refusals';
  // then the vertices: queues, candidates, refusals.
  W* const cand_w_all = reinterpret_cast<W*>(smem);
  W* const refused_w_all = cand_w_all + slots;
  vertex_t* const queues = reinterpret_cast<vertex_t*>(refused_w_all + (refusals ? slots : 0));
  vertex_t* const cand_all = queues + slots;
  vertex_t* const refused_all = refusals ? cand_all + slots : nullptr;
  const WarpQueue<W> queue{queues + warp * vpw, refusals ? refused_all + warp * vpw : nullptr,
                           refusals ? refused_w_all + warp * vpw : nullptr};
  vertex_t* const cand = cand_all + warp * vpw;
  W* const cand_w = cand_w_all + warp * vpw;

  // Initial phase: the warp's chunk of vertices.
  const long long positions = in.leading + (in.extra_count ? *in.extra_count : 0);
  const long long first = (static_cast<long long>(blockIdx.x) * warps + warp) * vpw;
  const int count_start = static_cast<int>(max(0LL, min(static_cast<long long>(vpw), positions - first)));
  for (int i = lane; i < count_start; i += 32) {
    const long long p = first + i;
    const vertex_t u = p < in.leading ? static_cast<vertex_t>(p) : in.extra[p - in.leading];
    queue.v[i] = u;
    if (queue.keeps_refusals()) {
      queue.refused_v[i] = in.best ? in.best[u] : no_vertex;
      queue.refused_w[i] = in.best ? in.best_w[u] : W(0);
    }
  }
  int count = count_start;
  __syncwarp();

  for (int round = 0;; ++round) {
    constexpr bool always_synced = Variant == SuitorGpuVariant::sync_lb || Variant == SuitorGpuVariant::sync_no_lb;
    const bool balanced = (Variant == SuitorGpuVariant::sync_lb || Variant == SuitorGpuVariant::hybrid) &&
                          round < lb_rounds;
    if (always_synced || balanced) {
      if (!__syncthreads_or(count > 0)) break;
    } else if (count == 0) {
      break;
    }

    warp_candidates<Adaptive>(g, offers, word, queue, count, cand, cand_w, lane, refusals);
    __syncwarp();

    // Proposals, one queued vertex per lane; requeue the lost (refused by
    // their candidate) and the displaced (refused by the candidate too).
    int requeued_count = 0;
    for (int base = 0; base < count; base += 32) {
      const int j = base + lane;
      vertex_t again = no_vertex, refused = no_vertex;
      W refused_w = W(0);
      if (j < count && cand[j] != no_vertex) {
        const vertex_t u = queue.v[j];
        const Proposal<W> p = offers.propose(word + cand[j], cand[j], cand_w[j], u);
        again = p.won ? p.displaced : u;
        refused = cand[j];
        refused_w = p.won ? p.displaced_w : cand_w[j];
      }
      const unsigned requeued = __ballot_sync(full_warp, again != no_vertex);
      __syncwarp();  // every lane has read queue.v[j] before any lane overwrites it
      if (again != no_vertex) {
        const int at = requeued_count + __popc(requeued & ((1u << lane) - 1u));
        queue.v[at] = again;
        if (queue.keeps_refusals()) {
          queue.refused_v[at] = refused;
          queue.refused_w[at] = refused_w;
        }
      }
      requeued_count += __popc(requeued);
    }
    count = requeued_count;
    __syncwarp();

    if (balanced) count = balance_block<W>(queues, refused_all, cand_all, counts, vpw, count);
  }
}

}  // namespace matchblas::suitor_gpu_detail
