// GPU-Suitor (suitor-gpu, declared in matchers/general/suitor.hpp): Suitor
// with lock-free offer words, a warp (or a narrower group, or a block for a
// hub) scanning a proposer's row; an adaptive mode adds a bulk first round.
// Source: Naim et al. 2015 sec. 4, Alg. 4 and its NoSync / SyncNoLB / SyncLB
// / Hybrid variants; the offer word as suitor_cas.cpp (Mazankiewicz sec. 2.3).
// Guarantee: exactly greedy's matching for every launch shape, variant and
// interleaving (the argument: matchers/general/suitor.hpp).
// Cost: O(sum over proposals of the proposer's degree) work, as CPU Suitor,
// plus the offer words suitor_gpu_search.cuh counts. Double weights that are
// all floats exactly run on float offer words (ops/gpu/float_weights.cuh).
// The rounds, the variants and the adaptive mode: docs/algorithms/suitor_gpu.md.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "lib/greedy_order.hpp"
#include "matchers/b_matching/b_matching.hpp"
#include "ops/gpu/device.hpp"
#include "ops/gpu/device_graph.hpp"
#include "ops/gpu/float_weights.cuh"
#include "matchers/general/suitor.hpp"
#include "ops/gpu/gpu_session.cuh"
#include "matchers/general/suitor_gpu_search.cuh"
#include "matchers/general/suitor_gpu_warps.cuh"
#include "ops/gpu/argmax_gpu.cuh"
#include "ops/gpu/warp_append.cuh"

namespace matchblas {

namespace {

using namespace suitor_gpu_detail;

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
// vertex, as any interleaving of Suitor may). A proposal that does not beat
// the word it reads is not sent: on R-MAT thousands go to each hub, whose
// word soon holds a heavy offer (R-MAT 2^23, H200: bulk round and listing
// 0.39 -> 0.31 ms; Erdos-Renyi unchanged).
template <class W, class Offers>
__global__ void propose_heaviest(vertex_t n, Offers offers, word_t* word, const vertex_t* best, const W* best_w) {
  for (long long u = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; u < n;
       u += static_cast<long long>(gridDim.x) * blockDim.x)
    if (best[u] != no_vertex && offers.beats(best_w[u], vertex_t(u), __ldcg(word + best[u])))
      offers.propose(word + best[u], best[u], best_w[u], vertex_t(u));
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
    if (d > hub_degree) gpu::append_by_warp(hubs, hub_count, u);
    else gpu::append_by_warp(extra, extra_count, u);
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
std::size_t warps_shared_bytes(const SuitorGpuOptions& opt, bool refusals) {
  return std::size_t(opt.threads_per_block / 32) * opt.vertices_per_warp * warps_slot_bytes<W>(refusals);
}

// The same without refusals, checked against the device's limit.
template <class W>
std::size_t checked_warps_shared_bytes(const SuitorGpuOptions& opt, int max_shared) {
  const std::size_t shared = warps_shared_bytes<W>(opt, false);
  if (shared > std::size_t(max_shared))
    throw invalid_input("suitor-gpu: threads-per-block " + std::to_string(opt.threads_per_block) +
                        " x vertices-per-warp " + std::to_string(opt.vertices_per_warp) + " needs " +
                        std::to_string(shared) + " bytes of shared memory per block; the GPU has " +
                        std::to_string(max_shared));
  return shared;
}

template <bool Adaptive, class W, SuitorGpuVariant Variant>
void launch_warps(const gpu::CsrView<W>& g, word_t* word, const SuitorGpuOptions& opt, std::size_t shared,
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
void launch_warps(const gpu::CsrView<W>& g, word_t* word, const SuitorGpuOptions& opt, std::size_t shared,
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
Matching suitor_gpu(const Csr<W>& g, const SuitorGpuOptions& opt, GpuTimes* times) {
  MATCHBLAS_DEBUG_CHECK(check_suitor_gpu_options(opt));  // checked where the options were read
  if (g.n_rows == g.n_cols) {  // (DeviceGraph refuses the others)
    gpu::use_device("suitor-gpu", opt.device);
    const std::vector<int> ones(std::size_t(g.n_rows), 1);
    if (b_suitor_gpu_memory(g, ones).resident() > gpu::device_memory_limit(opt.device_memory)) {
      const BMatching bm = b_suitor_gpu(g, ones, opt, times);  // greedy's edges (b = 1), rows streamed
      Matching m(g.n_rows);
      for (vertex_t u = 0; u < g.n_rows; ++u)
        if (bm.offsets[u + 1] > bm.offsets[u] && u < bm.partners[bm.offsets[u]]) m.match(u, bm.partners[bm.offsets[u]]);
      return m;
    }
  }
  return gpu::with_device_graph("suitor-gpu", g, opt,
                                [&](const DeviceGraph<W>& dg) { return suitor_gpu(dg, opt, times); });
}

namespace {

// The run on a graph view of the session's graph (its own weights, or
// their floats).
template <class Session, class W>
Matching suitor_on(Session& session, const gpu::CsrView<W>& view, const SuitorGpuOptions& opt, GpuTimes* times) {
  const cudaStream_t s = session.stream();
  int max_shared = 0;
  MATCHBLAS_CUDA_TRY(cudaDeviceGetAttribute(&max_shared, cudaDevAttrMaxSharedMemoryPerBlockOptin, opt.device));
  max_shared -= 32 * int(sizeof(int));  // the static counts array

  const bool adaptive = opt.adaptive && static_cast<long long>(view.n_entries) >= opt.adaptive_min_entries;
  const std::size_t shared = checked_warps_shared_bytes<W>(opt, max_shared);
  const vertex_t n = view.n_rows;
  gpu::DeviceBuffer<word_t> word{std::size_t(n), s};
  gpu::DeviceBuffer<vertex_t> mate{std::size_t(n), s};
  if (n > 0) MATCHBLAS_CUDA_TRY(cudaMemsetAsync(word.data(), 0, word.size() * sizeof(word_t), s));
  // The adaptive mode's scratch, alive until finish() has synchronised (the
  // kernels run asynchronously).
  const std::size_t scratch = adaptive ? std::size_t(n) : 0;
  gpu::DeviceBuffer<vertex_t> best{scratch, s}, extra{scratch, s};
  gpu::DeviceBuffer<W> best_w{scratch, s};
  gpu::DeviceBuffer<vertex_t> hubs{
      adaptive ? std::min<std::size_t>(scratch, std::size_t(view.n_entries) / std::size_t(opt.hub_degree + 1)) : 0, s};
  gpu::DeviceBuffer<int> counts{2, s};  // listed hubs, listed others
  gpu::ArgmaxScratch argmax_scratch(adaptive ? n : 0, s);
  gpu::Event marks[5];  // the adaptive phases' boundaries
  bool timed = false;
  if (!adaptive) {
    launch_warps<false>(view, word.data(), opt, shared, WarpsInput<W>{.leading = n, .positions = n}, s);
  } else if (n > 0) {
    // The bulk first round: heaviest neighbours, one proposal each.
    marks[0].record(s);
    gpu::argmax_rows(view, gpu::DeviceArgmaxMasks<W>{}, best.data(), best_w.data(), argmax_scratch, session.sms(), s);
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
    MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(long_rows, argmax_scratch.counts(), sizeof long_rows, cudaMemcpyDeviceToHost, s));
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

}  // namespace

template <class W>
Matching suitor_gpu(const DeviceGraph<W>& g, const SuitorGpuOptions& opt, GpuTimes* times) {
  gpu::MatcherSession<W> session("suitor-gpu", g, opt);
  if constexpr (std::is_same_v<W, double>) {
    // Weights that are floats exactly run on the float offer words (not
    // under a device-memory limit: the floats are 4 bytes an entry more).
    if (opt.device_memory == 0) {
      const auto start = std::chrono::steady_clock::now();
      const std::optional<gpu::DeviceBuffer<float>> as_float =
          gpu::floats_if_exact(session.graph(), 32LL * session.sms(), session.stream());
      if (as_float) {
        const double convert_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        Matching m = suitor_on(session, gpu::with_weights(session.graph(), as_float->data()), opt, times);
        if (times) times->phases.emplace_back(gpu::float_keys_phase, convert_s);  // within match_s
        return m;
      }
    }
  }
  return suitor_on(session, session.graph(), opt, times);
}

template Matching suitor_gpu(const Csr<float>&, const SuitorGpuOptions&, GpuTimes*);
template Matching suitor_gpu(const Csr<double>&, const SuitorGpuOptions&, GpuTimes*);
template Matching suitor_gpu(const DeviceGraph<float>&, const SuitorGpuOptions&, GpuTimes*);
template Matching suitor_gpu(const DeviceGraph<double>&, const SuitorGpuOptions&, GpuTimes*);

}  // namespace matchblas
