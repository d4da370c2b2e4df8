// GPU Locally-Dominant, one thread per vertex: the GPU-LD baseline that
// Naim et al. 2015 compares GPU-Suitor against (matchers/gpu.hpp).
// Source: Naim et al. 2015 sec. 2.1, Alg. 1 (candidates, then matching the
// locally dominant edges, until no vertex changes) run as two kernels per
// round with a thread per vertex, as the GPU LD of Auer and Bisseling that
// Naim et al. 2015 measures.
//
// Round: (1) every free vertex u whose candidate is unset or matched scans
// its whole row (one thread) for its best free neighbour under
// neighbour_beats; a vertex with none is dead for good (free neighbours never
// come back). (2) every free u whose candidate c points back (cand[c] == u)
// takes c as its mate. A candidate that is still free stays the best free
// neighbour, so it is not rescanned. The rounds stop when a round matches
// nobody: the heaviest edge among free vertices with candidates would be
// mutual, so then every vertex is matched or dead.
// Guarantee: exactly greedy's matching (locally dominant edges under a strict
// total order; Naim et al. 2015 sec. 2.1). Cost: O(rounds x n) threads, each a full
// row scan when its candidate was taken; a vertex of degree d costs one
// thread d steps, so skewed degrees leave most of a warp idle (the point of
// the comparison).
#include <cuda_runtime.h>

#include <cstdint>

#include "lib/greedy_order.hpp"
#include "ops/gpu/device_graph.hpp"
#include "matchers/general/ld.hpp"
#include "ops/gpu/gpu_session.cuh"

namespace matchblas {

namespace {

constexpr vertex_t unset = -1;  // candidate not computed (or its candidate was matched)
constexpr vertex_t dead = -2;   // no free neighbour left

template <class W>
__global__ void ld_candidates(gpu::CsrView<W> g, const vertex_t* mate, vertex_t* cand) {
  for (long long u = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; u < g.n_rows;
       u += static_cast<long long>(gridDim.x) * blockDim.x) {
    if (mate[u] != no_vertex) continue;
    const vertex_t c = cand[u];
    if (c == dead || (c != unset && mate[c] == no_vertex)) continue;
    vertex_t best = dead;
    W best_w = W(0);
    for (offset_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) {
      const vertex_t v = g.cols[k];
      const W w = g.weights[k];
      if (best != dead && !neighbour_beats(w, v, best_w, best)) continue;
      if (mate[v] != no_vertex) continue;
      best = v;
      best_w = w;
    }
    cand[u] = best;
  }
}

__global__ void ld_match(vertex_t n, const vertex_t* cand, vertex_t* mate, int* matched_any) {
  for (long long u = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; u < n;
       u += static_cast<long long>(gridDim.x) * blockDim.x) {
    const vertex_t c = cand[u];
    if (c >= 0 && mate[u] == no_vertex && cand[c] == static_cast<vertex_t>(u)) {
      mate[u] = c;  // c sets mate[c] = u in its own thread
      *matched_any = 1;
    }
  }
}

}  // namespace

template <class W>
Matching ld_gpu(const Csr<W>& g, const GpuOptions& opt, GpuTimes* times) {
  return gpu::with_device_graph("ld-gpu", g, opt, [&](const DeviceGraph<W>& dg) { return ld_gpu(dg, opt, times); });
}

template <class W>
Matching ld_gpu(const DeviceGraph<W>& g, const GpuOptions& opt, GpuTimes* times) {
  gpu::MatcherSession<W> session("ld-gpu", g, opt);
  const cudaStream_t s = session.stream();
  const vertex_t n = g.n();
  gpu::DeviceBuffer<vertex_t> mate{std::size_t(n), s}, cand{std::size_t(n), s};
  gpu::DeviceBuffer<int> matched_any(1, s);
  if (n > 0) {
    constexpr int block = 256;
    const unsigned grid = opt.threads > 0 ? gpu::grid_for(opt.threads, block, 1LL << 30)
                                          : gpu::grid_for(n, block, 1LL << 30);
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(mate.data(), 0xff, mate.size() * sizeof(vertex_t), s));  // all -1
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(cand.data(), 0xff, cand.size() * sizeof(vertex_t), s));  // all unset
    for (int any = 1; any != 0;) {
      MATCHBLAS_CUDA_TRY(cudaMemsetAsync(matched_any.data(), 0, sizeof(int), s));
      ld_candidates<<<grid, block, 0, s>>>(session.graph(), mate.data(), cand.data());
      MATCHBLAS_CUDA_CHECK_LAUNCH();
      ld_match<<<grid, block, 0, s>>>(n, cand.data(), mate.data(), matched_any.data());
      MATCHBLAS_CUDA_CHECK_LAUNCH();
      MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(&any, matched_any.data(), sizeof(int), cudaMemcpyDeviceToHost, s));
      MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
    }
  }
  return session.finish(mate, times);
}

template Matching ld_gpu(const Csr<float>&, const GpuOptions&, GpuTimes*);
template Matching ld_gpu(const Csr<double>&, const GpuOptions&, GpuTimes*);
template Matching ld_gpu(const DeviceGraph<float>&, const GpuOptions&, GpuTimes*);
template Matching ld_gpu(const DeviceGraph<double>&, const GpuOptions&, GpuTimes*);

}  // namespace matchblas
