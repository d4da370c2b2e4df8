// luby-gpu: Luby's algorithm on the line graph; the rounds, guarantee and
// cost of luby.hpp. Each round: candidates for rows of up to 256 entries, a
// thread each (luby_candidate, the scan the CPU loop runs); for rows of up
// to 4096, a warp each; for longer rows, a block of 256 threads each (the
// group strides the row, the largest value by shuffles and, across a
// block's warps, shared memory: R-MAT's hubs are rescanned every round,
// since the values change, and one thread on a 10^5-entry row would set
// every round's time); then matching the mutual ones, and one int comes back
// to say whether the round matched anything. The values are drawn in the
// kernels from (seed, round, edge) and each row's largest is unique, so the
// matching is luby's for the same seed, mate for mate.
#include <cuda_runtime.h>

#include <cstdint>

#include "matchers/general/luby.hpp"
#include "ops/gpu/gpu_session.cuh"

namespace matchblas {

namespace {

constexpr offset_t thread_row = 256;  // longer rows get a warp
constexpr offset_t warp_row = 4096;   // longer rows get a block
constexpr int block_size = 256;

// The rows of up to thread_row entries, a thread each. live[u]: u is free
// and had a free neighbour when last asked (luby.cpp).
template <class W>
__global__ void luby_candidates(gpu::CsrView<W> g, const vertex_t* mate, std::uint8_t* live, vertex_t* cand,
                                LubyRound round) {
  for (long long u = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; u < g.n_rows;
       u += static_cast<long long>(gridDim.x) * blockDim.x) {
    if (!live[u] || g.offsets[u + 1] - g.offsets[u] > thread_row) continue;
    if (mate[u] != no_vertex) {
      live[u] = 0;
      continue;
    }
    const vertex_t c = luby_candidate(g.offsets, g.cols, mate, round, static_cast<vertex_t>(u));
    cand[u] = c;
    live[u] = c != no_vertex;
  }
}

// The larger of two (candidate, value) pairs; no_vertex loses to any.
__device__ inline void keep_larger(vertex_t& best, std::uint64_t& best_key, vertex_t other, std::uint64_t other_key) {
  if (other != no_vertex && (best == no_vertex || other_key > best_key)) {
    best = other;
    best_key = other_key;
  }
}

// The long rows, `Lanes` threads each (32: a warp; block_size: the block):
// the same candidate as luby_candidate (the free neighbour of the largest
// value, unique in a row but for repeated entries of one neighbour).
template <int Lanes, class W>
__global__ void luby_candidates_long(gpu::CsrView<W> g, const vertex_t* rows, vertex_t n_rows, const vertex_t* mate,
                                     std::uint8_t* live, vertex_t* cand, LubyRound round) {
  static_assert(Lanes == 32 || Lanes == block_size);
  __shared__ vertex_t warp_best[block_size / 32];
  __shared__ std::uint64_t warp_key[block_size / 32];
  const unsigned lane = threadIdx.x % Lanes;
  const long long groups = static_cast<long long>(gridDim.x) * blockDim.x / Lanes;
  for (long long i = (blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x) / Lanes; i < n_rows;
       i += groups) {
    const vertex_t u = rows[i];
    // The same for the whole group: live[u] and mate[u] change only below,
    // after the group's last read of them.
    if (!live[u]) continue;
    if (mate[u] != no_vertex) {
      if constexpr (Lanes == block_size) __syncthreads();
      if (lane == 0) live[u] = 0;
      continue;
    }
    vertex_t best = no_vertex;
    std::uint64_t best_key = 0;
    for (offset_t k = g.offsets[u] + lane; k < g.offsets[u + 1]; k += Lanes) {
      const vertex_t v = g.cols[k];
      if (v == u || mate[v] != no_vertex) continue;
      keep_larger(best, best_key, v, round.key(u, v));
    }
    for (int d = 16; d > 0; d /= 2)
      keep_larger(best, best_key, __shfl_down_sync(~0u, best, d), __shfl_down_sync(~0u, best_key, d));
    if constexpr (Lanes == block_size) {
      if (threadIdx.x % 32 == 0) {
        warp_best[threadIdx.x / 32] = best;
        warp_key[threadIdx.x / 32] = best_key;
      }
      __syncthreads();
      if (threadIdx.x == 0)
        for (int w = 1; w < block_size / 32; ++w) keep_larger(best, best_key, warp_best[w], warp_key[w]);
      __syncthreads();  // the shared slots are free for the next row
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

// Lists the rows longer than thread_row: up to warp_row in by_warp, the
// rest in by_block; counts[0] and counts[1] their numbers.
template <class W>
__global__ void luby_long_rows(gpu::CsrView<W> g, vertex_t* by_warp, vertex_t* by_block, int* counts) {
  for (long long u = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; u < g.n_rows;
       u += static_cast<long long>(gridDim.x) * blockDim.x) {
    const offset_t d = g.offsets[u + 1] - g.offsets[u];
    if (d > warp_row) by_block[atomicAdd(&counts[1], 1)] = static_cast<vertex_t>(u);
    else if (d > thread_row) by_warp[atomicAdd(&counts[0], 1)] = static_cast<vertex_t>(u);
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
      // The rows a warp or a block scans, listed once on the device (in no
      // particular order: each row's candidate does not depend on it).
      gpu::DeviceBuffer<vertex_t> by_warp{std::size_t(n), s}, by_block{std::size_t(n), s};
      gpu::DeviceBuffer<int> counts(2, s);
      MATCHBLAS_CUDA_TRY(cudaMemsetAsync(counts.data(), 0, 2 * sizeof(int), s));
      luby_long_rows<<<gpu::grid_for(n, block_size, 1LL << 30), block_size, 0, s>>>(session.graph(), by_warp.data(),
                                                                                      by_block.data(), counts.data());
      MATCHBLAS_CUDA_CHECK_LAUNCH();
      int n_long[2] = {0, 0};
      MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(n_long, counts.data(), 2 * sizeof(int), cudaMemcpyDeviceToHost, s));
      MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
      const vertex_t n_warp = n_long[0], n_block = n_long[1];
      constexpr int block = block_size;
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
        if (n_warp > 0) {
          luby_candidates_long<32><<<gpu::grid_for(32LL * n_warp, block_size, 1LL << 20), block_size, 0, s>>>(
              view, by_warp.data(), n_warp, mate.data(), live.data(), cand.data(), round);
          MATCHBLAS_CUDA_CHECK_LAUNCH();
        }
        if (n_block > 0) {
          luby_candidates_long<block_size><<<gpu::grid_for(n_block, 1, 1LL << 20), block_size, 0, s>>>(
              view, by_block.data(), n_block, mate.data(), live.data(), cand.data(), round);
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
