// GPU-Suitor: warp-based Suitor with lock-free offers (matchers/gpu.hpp).
// Source: seed 001 Paper I sec. 4, Alg. 4 ("GPU-Suitor"), its initial and
// recurrent phases and the four variants of "Synchronization and Load
// Balancing"; the offer word and its atomic update follow the project's
// lock-free CPU Suitor (matchers/suitor_cas.cpp, seed 004 sec. 2.3).
//
// A warp owns a chunk of vertices_per_warp vertices and a queue of them in
// shared memory. One round: for each queued vertex u in turn, the 32 lanes
// scan u's row together (lane i reads entries i, i+32, ...), each keeping its
// best neighbour v whose offer u beats, then a butterfly reduction under
// neighbour_beats gives u's candidate (Alg. 4 lines 5-7). Then each lane takes
// one queued vertex and proposes to its candidate with one atomic on the
// candidate's offer word (line 8): a lost proposal requeues u, a won one
// requeues the suitor it displaced (if any); a ballot and a popcount compact
// the requeued vertices into the queue (line 9). A vertex is in at most one
// queue at a time (only the one winner of an atomic learns of a displaced
// suitor), so a queue never outgrows its chunk.
//   NoSync    warps run their rounds independently (the default)
//   SyncNoLB  the warps of a block start every round together
//   SyncLB    as SyncNoLB, and during the first lb_rounds rounds the queued
//             vertices are spread evenly over the block's warps when a warp
//             holds more than 1.25x the average (Paper I's 25% deviation)
//   Hybrid    load balanced for the first lb_rounds rounds, then NoSync
//
// Adaptive mode (GpuOptions::adaptive, the default, on graphs of at least
// adaptive_min_entries entries; otherwise Paper I as above), the same
// matching, faster:
//   1. bulk first round: no vertex holds an offer at the start, so every
//      first proposal goes to the proposer's heaviest neighbour; the row
//      argmax (ops/gpu/argmax_gpu, a streaming pass) finds them all and every
//      vertex proposes at once;
//   2. the vertices then holding no offer are listed; hubs (rows longer than
//      hub_degree) are taken on by a block each (a warp would need degree/32
//      dependent steps), the rest by the warps as above (more bulk rounds
//      over the list, each requeued vertex collected for the next round, were
//      tried and were slower: Erdos-Renyi scale 23, 4.7 ms against 4.1 ms
//      for the warps, on the H100);
//   3. in the warps, a row's group width follows its length: 4 lanes up to
//      32 entries, 8 up to 128, else 32;
//   4. with --search champions, or auto when no row has more than 128
//      entries, rows of up to 128 entries are searched by champions
//      (matchers/suitor_gpu_search.cuh: group_search), starting below the
//      neighbour the vertex last lost or was displaced from, which the queue
//      keeps beside the vertex (the bulk round's argmax for listed vertices);
//      otherwise, and when the launch shape leaves no shared memory for those
//      refusals, by Paper I's walk.
// Offer words and searches: matchers/suitor_gpu_search.cuh.
//
// Guarantee: exactly greedy's matching for every launch shape, variant and
// interleaving (matchers/suitor.hpp gives the argument: Suitor under a strict
// total order of each vertex's neighbours has one outcome).
// Cost: O(sum over proposals of the proposer's degree) work, as CPU Suitor;
// each search reads the row (champions: once per round) plus the offer words
// suitor_gpu_search.cuh counts.
#include <cuda_runtime.h>

#include <cstdint>
#include <limits>
#include <type_traits>

#include "lib/greedy_order.hpp"
#include "matchers/gpu.hpp"
#include "matchers/gpu_session.cuh"
#include "matchers/suitor_gpu_search.cuh"
#include "ops/gpu/argmax_gpu.cuh"

namespace matchblas {

namespace {

using namespace suitor_gpu_detail;

__device__ inline offset_t degree_of(const offset_t* offsets, vertex_t u) { return offsets[u + 1] - offsets[u]; }

// A warp's queue in shared memory: the queued vertices and, beside each, a
// neighbour known to refuse it (the one it last lost or was displaced from;
// refused_v[i] = no_vertex: none known). Paper I's mode keeps no refusals
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
// and writes their candidates, by champions (group_search) or Paper I's walk
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

// Candidates of the count queued vertices, into cand / cand_w. Paper I: the
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
// *extra_count - 1, where position p < leading is vertex p (Paper I: every
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

// Adaptive mode, after the bulk first round: the listed hubs (rows longer
// than hub_degree), a block each. The block finds the hub's candidate, thread
// 0 proposes; a lost hub rescans, a displaced hub is taken on by the block,
// any other displaced suitor is appended to `extra` for the warps.
constexpr int hub_block = 512;

template <class W, class Offers>
__global__ void suitor_hubs(gpu::CsrView<W> g, Offers offers, word_t* word, const vertex_t* hubs, const int* hub_count,
                            vertex_t* extra, int* extra_count, int hub_degree) {
  __shared__ vertex_t warp_v[hub_block / 32];
  __shared__ W warp_w[hub_block / 32];
  __shared__ vertex_t next;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int h = blockIdx.x; h < *hub_count; h += gridDim.x) {
    for (vertex_t u = hubs[h]; u != no_vertex;) {
      Best<W> b = reduce_lanes(lane_best(g, offers, word, u, threadIdx.x, hub_block), 32);
      if (lane == 0) {
        warp_v[warp] = b.v;
        warp_w[warp] = b.w;
      }
      __syncthreads();
      if (threadIdx.x == 0) {
        for (int k = 1; k < hub_block / 32; ++k) b.offer(warp_v[k], warp_w[k]);
        vertex_t again = no_vertex;
        if (b.v != no_vertex) {
          const Proposal<W> p = offers.propose(word + b.v, b.v, b.w, u);
          if (!p.won) again = u;
          else if (p.displaced != no_vertex && degree_of(g.offsets, p.displaced) > hub_degree) again = p.displaced;
          else if (p.displaced != no_vertex) extra[atomicAdd(extra_count, 1)] = p.displaced;
        }
        next = again;
      }
      __syncthreads();
      u = next;
      __syncthreads();  // next and warp_v are rewritten in the next step
    }
  }
}

// Adaptive mode, the bulk first round. No vertex holds an offer yet, so
// every vertex's first proposal goes to its heaviest neighbour: the row
// argmax (gpu::argmax_rows, a bandwidth-bound pass) gives them all; then
// every vertex proposes at once (the atomics order the proposals to one
// vertex, as any interleaving of Suitor may).
template <class W, class Offers>
__global__ void propose_heaviest(vertex_t n, Offers offers, word_t* word, const vertex_t* best, const W* best_w) {
  for (long long u = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; u < n;
       u += static_cast<long long>(gridDim.x) * blockDim.x)
    if (best[u] != no_vertex) offers.propose(word + best[u], best[u], best_w[u], vertex_t(u));
}

// After the bulk round, the vertices that hold no offer and have neighbours
// must propose again (lost, or displaced): hubs into `hubs`, the others into
// `extra` (order immaterial). A row whose argmax is empty (all entries -inf)
// is listed too, so the warps decide it exactly.
template <class W, class Offers>
__global__ void list_unsettled(gpu::CsrView<W> g, Offers offers, const word_t* word, const vertex_t* best,
                               int hub_degree, vertex_t* hubs, int* hub_count, vertex_t* extra, int* extra_count) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < g.n_rows;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const vertex_t u = vertex_t(i), v = best[u];
    const offset_t d = degree_of(g.offsets, u);
    if (d == 0 || (v != no_vertex && offers.suitor(__ldcg(word + v)) == u)) continue;
    if (d > hub_degree) hubs[atomicAdd(hub_count, 1)] = u;
    else extra[atomicAdd(extra_count, 1)] = u;
  }
}

template <class Offers>
__global__ void mates_from_offers(Offers offers, const word_t* word, vertex_t n, vertex_t* mate) {
  for (long long v = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; v < n;
       v += static_cast<long long>(gridDim.x) * blockDim.x) {
    const vertex_t s = offers.suitor(word[v]);
    mate[v] = s != no_vertex && offers.suitor(word[s]) == static_cast<vertex_t>(v) ? s : no_vertex;
  }
}

// Shared memory of the warps' kernel (with or without refusals).
template <class W>
std::size_t warps_shared_bytes(const GpuOptions& opt, bool refusals) {
  return std::size_t(opt.threads_per_block / 32) * opt.vertices_per_warp * warps_slot_bytes<W>(refusals);
}

// The same without refusals, checked against the device's limit.
template <class W>
std::size_t checked_warps_shared_bytes(const GpuOptions& opt, int max_shared) {
  const std::size_t shared = warps_shared_bytes<W>(opt, false);
  if (shared > std::size_t(max_shared))
    throw invalid_input("suitor-gpu: threads-per-block " + std::to_string(opt.threads_per_block) +
                        " x vertices-per-warp " + std::to_string(opt.vertices_per_warp) + " needs " +
                        std::to_string(shared) + " bytes of shared memory per block; the GPU has " +
                        std::to_string(max_shared));
  return shared;
}

template <bool Adaptive, class W, SuitorGpuVariant Variant>
void launch_warps(const gpu::CsrView<W>& g, word_t* word, const GpuOptions& opt, std::size_t shared,
                  const WarpsInput<W>& in, cudaStream_t s) {
  const auto kernel = suitor_warps<Adaptive, W, OffersFor<W>, Variant>;
  MATCHBLAS_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));
  const int warps = opt.threads_per_block / 32;
  const long long chunks = (in.positions + opt.vertices_per_warp - 1) / opt.vertices_per_warp;
  const long long blocks = (chunks + warps - 1) / warps;
  if (blocks == 0) return;
  kernel<<<static_cast<unsigned>(blocks), opt.threads_per_block, shared, s>>>(g, offers_for(g), word,
                                                                              opt.vertices_per_warp, opt.lb_rounds, in);
  MATCHBLAS_CUDA_CHECK_LAUNCH();
}

template <bool Adaptive, class W>
void launch_warps(const gpu::CsrView<W>& g, word_t* word, const GpuOptions& opt, std::size_t shared,
                  const WarpsInput<W>& in, cudaStream_t s) {
  switch (opt.variant) {
    case SuitorGpuVariant::no_sync:
      return launch_warps<Adaptive, W, SuitorGpuVariant::no_sync>(g, word, opt, shared, in, s);
    case SuitorGpuVariant::sync_lb:
      return launch_warps<Adaptive, W, SuitorGpuVariant::sync_lb>(g, word, opt, shared, in, s);
    case SuitorGpuVariant::sync_no_lb:
      return launch_warps<Adaptive, W, SuitorGpuVariant::sync_no_lb>(g, word, opt, shared, in, s);
    case SuitorGpuVariant::hybrid:
      return launch_warps<Adaptive, W, SuitorGpuVariant::hybrid>(g, word, opt, shared, in, s);
  }
}

}  // namespace

template <class W>
Matching suitor_gpu(const Csr<W>& g, const GpuOptions& opt, GpuTimes* times) {
  check_gpu_options(opt);
  return suitor_gpu(DeviceGraph<W>(g, opt.device), opt, times);
}

template <class W>
Matching suitor_gpu(const DeviceGraph<W>& g, const GpuOptions& opt, GpuTimes* times) {
  gpu::MatcherSession<W> session("suitor-gpu", g, opt);
  const cudaStream_t s = session.stream();
  const gpu::CsrView<W> view = session.graph();
  int max_shared = 0;
  MATCHBLAS_CUDA_TRY(cudaDeviceGetAttribute(&max_shared, cudaDevAttrMaxSharedMemoryPerBlockOptin, opt.device));
  max_shared -= 32 * int(sizeof(int));  // the static counts array

  const bool adaptive =
      opt.adaptive && static_cast<long long>(g.impl().csr.num_entries()) >= opt.adaptive_min_entries;
  const std::size_t shared = checked_warps_shared_bytes<W>(opt, max_shared);
  const vertex_t n = g.n();
  gpu::DeviceBuffer<word_t> word{std::size_t(n), s};
  gpu::DeviceBuffer<vertex_t> mate{std::size_t(n), s};
  if (n > 0) MATCHBLAS_CUDA_TRY(cudaMemsetAsync(word.data(), 0, word.size() * sizeof(word_t), s));
  // The adaptive mode's scratch, alive until finish() has synchronised (the
  // kernels run asynchronously).
  const std::size_t scratch = adaptive ? std::size_t(n) : 0;
  gpu::DeviceBuffer<vertex_t> best{scratch, s}, extra{scratch, s};
  gpu::DeviceBuffer<W> best_w{scratch, s};
  gpu::DeviceBuffer<vertex_t> hubs{
      adaptive ? std::min<std::size_t>(scratch, g.impl().csr.num_entries() / std::size_t(opt.hub_degree + 1)) : 0, s};
  gpu::DeviceBuffer<int> counts{2, s};  // listed hubs, listed others
  gpu::ArgmaxScratch bins(adaptive ? n : 0, s);
  gpu::Event marks[5];  // the adaptive phases' boundaries
  bool timed = false;
  if (!adaptive) {
    launch_warps<false>(view, word.data(), opt, shared, WarpsInput<W>{.leading = n, .positions = n}, s);
  } else if (n > 0) {
    // The bulk first round: heaviest neighbours, one proposal each.
    marks[0].record(s);
    gpu::argmax_rows(view, gpu::DeviceArgmaxMasks<W>{}, best.data(), best_w.data(), bins, session.sms(), s);
    const unsigned grid = gpu::grid_for(n, 256, 32LL * session.sms());
    marks[1].record(s);
    propose_heaviest<<<grid, 256, 0, s>>>(n, offers_for(view), word.data(), best.data(), best_w.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    // The vertices left without an offer: hubs to a block each, the others
    // (and whoever the hubs displace) to the warps.
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(counts.data(), 0, 2 * sizeof(int), s));
    list_unsettled<<<grid, 256, 0, s>>>(view, offers_for(view), word.data(), best.data(), opt.hub_degree, hubs.data(),
                                        counts.data(), extra.data(), counts.data() + 1);
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    int found[2] = {0, 0}, long_rows[2] = {0, 0};
    marks[2].record(s);
    MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(found, counts.data(), sizeof found, cudaMemcpyDeviceToHost, s));
    MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(long_rows, bins.counts(), sizeof long_rows, cudaMemcpyDeviceToHost, s));
    MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
    if (found[0] > 0) {
      suitor_hubs<<<static_cast<unsigned>(std::min(found[0], 4 * session.sms())), hub_block, 0, s>>>(
          view, offers_for(view), word.data(), hubs.data(), counts.data(), extra.data(), counts.data() + 1,
          opt.hub_degree);
      MATCHBLAS_CUDA_CHECK_LAUNCH();
      MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(found + 1, counts.data() + 1, sizeof(int), cudaMemcpyDeviceToHost, s));
      MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
    }
    marks[3].record(s);
    // Champions when asked, or (auto) when no row is longer than 128 entries,
    // and when the shape has shared memory for the refusals.
    const bool even_degrees = long_rows[0] + long_rows[1] == 0;
    const bool champions =
        (opt.search == SuitorGpuSearch::champions || (opt.search == SuitorGpuSearch::automatic && even_degrees)) &&
        warps_shared_bytes<W>(opt, true) <= std::size_t(max_shared);
    const WarpsInput<W> listed{.extra = extra.data(),
                               .extra_count = counts.data() + 1,
                               .positions = found[1],
                               .best = best.data(),
                               .best_w = best_w.data(),
                               .champions = champions};
    launch_warps<true>(view, word.data(), opt, warps_shared_bytes<W>(opt, champions), listed, s);
    marks[4].record(s);
    timed = true;
  }
  if (n > 0) {
    mates_from_offers<<<gpu::grid_for(n, 256, 32LL * session.sms()), 256, 0, s>>>(offers_for(view), word.data(), n,
                                                                                  mate.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
  }
  Matching m = session.finish(mate, times);
  if (times && timed) {
    const char* names[4] = {"argmax", "propose+list", "hubs", "warps"};
    for (int i = 0; i < 4; ++i) times->phases.emplace_back(names[i], marks[i + 1].since(marks[i]));
  }
  return m;
}

template Matching suitor_gpu(const Csr<float>&, const GpuOptions&, GpuTimes*);
template Matching suitor_gpu(const Csr<double>&, const GpuOptions&, GpuTimes*);
template Matching suitor_gpu(const DeviceGraph<float>&, const GpuOptions&, GpuTimes*);
template Matching suitor_gpu(const DeviceGraph<double>&, const GpuOptions&, GpuTimes*);

}  // namespace matchblas
