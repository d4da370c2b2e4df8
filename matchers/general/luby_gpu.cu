// luby-gpu: Luby's algorithm on the line graph, a GPU thread per vertex per
// round; the rounds, guarantee and cost of luby.hpp. Each round is two
// kernels: candidates (luby_candidate, the scan the CPU loop runs) and
// matching the mutual ones, then one int comes back to say whether the round
// matched anything. The values are drawn in the kernel from (seed, round,
// edge), so the matching is luby's for the same seed, mate for mate.
#include <cuda_runtime.h>

#include <cstdint>

#include "matchers/general/luby.hpp"
#include "ops/gpu/gpu_session.cuh"

namespace matchblas {

namespace {

// live[u]: u free with a free neighbour when last asked (luby.cpp).
template <class W>
__global__ void luby_candidates(gpu::CsrView<W> g, const vertex_t* mate, std::uint8_t* live, vertex_t* cand,
                                LubyRound round) {
  for (long long u = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; u < g.n_rows;
       u += static_cast<long long>(gridDim.x) * blockDim.x) {
    if (!live[u]) continue;
    if (mate[u] != no_vertex) {
      live[u] = 0;
      continue;
    }
    const vertex_t c = luby_candidate(g.offsets, g.cols, mate, round, static_cast<vertex_t>(u));
    cand[u] = c;
    live[u] = c != no_vertex;
  }
}

__global__ void luby_match(vertex_t n, const std::uint8_t* live, const vertex_t* cand, vertex_t* mate,
                           int* matched_any) {
  for (long long u = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; u < n;
       u += static_cast<long long>(gridDim.x) * blockDim.x) {
    const vertex_t c = cand[u];
    if (live[u] && cand[c] == static_cast<vertex_t>(u)) {
      mate[u] = c;  // c sets mate[c] = u in its own thread
      *matched_any = 1;
    }
  }
}

template <class W>
__global__ void luby_start(gpu::CsrView<W> g, std::uint8_t* live) {
  for (long long u = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; u < g.n_rows;
       u += static_cast<long long>(gridDim.x) * blockDim.x)
    live[u] = g.offsets[u + 1] > g.offsets[u];
}

}  // namespace

template <class W>
Matching luby_gpu(const Csr<W>& g, std::uint64_t seed, const GpuOptions& opt, GpuTimes* times, LubyStats* stats) {
  MATCHBLAS_EXPECTS(g.n_rows == g.n_cols, "luby-gpu needs a general (square) graph");
  return gpu::with_device_graph("luby-gpu", g, opt, [&](const DeviceGraph<W>& dg) {
    gpu::MatcherSession<W> session("luby-gpu", dg, opt);
    const cudaStream_t s = session.stream();
    const vertex_t n = dg.n();
    gpu::DeviceBuffer<vertex_t> mate{std::size_t(n), s}, cand{std::size_t(n), s};
    gpu::DeviceBuffer<std::uint8_t> live{std::size_t(n), s};
    gpu::DeviceBuffer<int> matched_any(1, s);
    int rounds = 0;
    if (n > 0) {
      constexpr int block = 256;
      const unsigned grid = opt.threads > 0 ? gpu::grid_for(opt.threads, block, 1LL << 30)
                                            : gpu::grid_for(n, block, 1LL << 30);
      const gpu::CsrView<W> view = session.graph();
      MATCHBLAS_CUDA_TRY(cudaMemsetAsync(mate.data(), 0xff, mate.size() * sizeof(vertex_t), s));  // all -1
      luby_start<<<grid, block, 0, s>>>(view, live.data());
      MATCHBLAS_CUDA_CHECK_LAUNCH();
      for (int any = 1; any != 0; ++rounds) {
        const LubyRound round(seed, std::uint64_t(rounds));
        MATCHBLAS_CUDA_TRY(cudaMemsetAsync(matched_any.data(), 0, sizeof(int), s));
        luby_candidates<<<grid, block, 0, s>>>(view, mate.data(), live.data(), cand.data(), round);
        MATCHBLAS_CUDA_CHECK_LAUNCH();
        luby_match<<<grid, block, 0, s>>>(n, live.data(), cand.data(), mate.data(), matched_any.data());
        MATCHBLAS_CUDA_CHECK_LAUNCH();
        MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(&any, matched_any.data(), sizeof(int), cudaMemcpyDeviceToHost, s));
        MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
      }
    }
    if (stats) stats->rounds = n > 0 ? rounds : 1;
    return session.finish(mate, times);
  });
}

template Matching luby_gpu(const Csr<float>&, std::uint64_t, const GpuOptions&, GpuTimes*, LubyStats*);
template Matching luby_gpu(const Csr<double>&, std::uint64_t, const GpuOptions&, GpuTimes*, LubyStats*);

}  // namespace matchblas
