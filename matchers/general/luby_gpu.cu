// luby-gpu: Luby's algorithm on the line graph; the rounds, guarantee and
// cost of luby.hpp. Each round is three kernels: candidates for rows of up
// to 32 entries, a thread each (luby_candidate, the scan the CPU loop runs),
// candidates for longer rows, a warp each (lanes stride the row, the largest
// value by a shuffle reduction: R-MAT's hubs are rescanned every round,
// since the values change), and matching the mutual ones; then one int comes
// back to say whether the round matched anything. The values are drawn in
// the kernels from (seed, round, edge) and each row's largest is unique, so
// the matching is luby's for the same seed, mate for mate.
#include <cuda_runtime.h>

#include <cstdint>
#include <span>
#include <vector>

#include "matchers/general/luby.hpp"
#include "ops/gpu/gpu_session.cuh"

namespace matchblas {

namespace {

// live[u]: u free with a free neighbour when last asked (luby.cpp).
constexpr offset_t warp_row = 32;  // rows longer than this get a warp

template <class W>
__global__ void luby_candidates(gpu::CsrView<W> g, const vertex_t* mate, std::uint8_t* live, vertex_t* cand,
                                LubyRound round) {
  for (long long u = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; u < g.n_rows;
       u += static_cast<long long>(gridDim.x) * blockDim.x) {
    if (!live[u] || g.offsets[u + 1] - g.offsets[u] > warp_row) continue;
    if (mate[u] != no_vertex) {
      live[u] = 0;
      continue;
    }
    const vertex_t c = luby_candidate(g.offsets, g.cols, mate, round, static_cast<vertex_t>(u));
    cand[u] = c;
    live[u] = c != no_vertex;
  }
}

// The long rows, a warp each: the same candidate as luby_candidate (the
// free neighbour of the largest value, unique in a row but for repeated
// entries of one neighbour).
template <class W>
__global__ void luby_candidates_long(gpu::CsrView<W> g, const vertex_t* rows, vertex_t n_rows, const vertex_t* mate,
                                     std::uint8_t* live, vertex_t* cand, LubyRound round) {
  const unsigned lane = threadIdx.x % 32;
  const long long warps = static_cast<long long>(gridDim.x) * blockDim.x / 32;
  for (long long i = (blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x) / 32; i < n_rows; i += warps) {
    const vertex_t u = rows[i];
    if (!live[u]) continue;  // the same for the whole warp
    if (mate[u] != no_vertex) {
      if (lane == 0) live[u] = 0;
      continue;
    }
    vertex_t best = no_vertex;
    std::uint64_t best_key = 0;
    for (offset_t k = g.offsets[u] + lane; k < g.offsets[u + 1]; k += 32) {
      const vertex_t v = g.cols[k];
      if (v == u || mate[v] != no_vertex) continue;
      const std::uint64_t key = round.key(u, v);
      if (best == no_vertex || key > best_key) {
        best = v;
        best_key = key;
      }
    }
    for (int d = 16; d > 0; d /= 2) {
      const vertex_t other = __shfl_down_sync(~0u, best, d);
      const std::uint64_t other_key = __shfl_down_sync(~0u, best_key, d);
      if (other != no_vertex && (best == no_vertex || other_key > best_key)) {
        best = other;
        best_key = other_key;
      }
    }
    if (lane == 0) {
      cand[u] = best;
      live[u] = best != no_vertex;
    }
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
    // The rows a warp scans, listed once.
    std::vector<vertex_t> long_rows;
    for (vertex_t u = 0; u < n; ++u)
      if (g.degree(u) > warp_row) long_rows.push_back(u);
    const auto rows = gpu::DeviceBuffer<vertex_t>::from_host(std::span<const vertex_t>(long_rows), s);
    const vertex_t n_long = vertex_t(long_rows.size());
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
        if (n_long > 0) {
          luby_candidates_long<<<gpu::grid_for(32LL * n_long, block, 1LL << 20), block, 0, s>>>(
              view, rows.data(), n_long, mate.data(), live.data(), cand.data(), round);
          MATCHBLAS_CUDA_CHECK_LAUNCH();
        }
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
