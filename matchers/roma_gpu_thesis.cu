// ROMA on the GPU, faithful to the thesis: roma-gpu-1 (Alg. 6) and
// roma-gpu-2 (Alg. 8), atomicFlip (Alg. 7), the host loop (Alg. 9)
// (matchers/gpu.hpp states the contract).
// Source: seed 000 sec. 4.1, Alg. 6-9, Lemma 4.1.1; the per-vertex scan is
// Alg. 5 (matchers/roma.cpp is the CPU twin).
//
// Why the matching stays valid under races (Lemma 4.1.1's argument): a
// matching edge is represented by its smaller end; a flip holds the locks of
// both representatives and re-checks both edges under them
// (matchers/roma_flip.cuh says why both ends). The scan itself may read
// mates mid-flip: that can only make it choose a flip that the re-check then
// refuses, or one that is no longer u's best. A flip that is done has
// exactly the gain computed (it depends only on the four vertices, whose two
// edges the re-check confirmed, and the scan read w[x, y] with y = M[x]
// read at the same time), so the weight never falls.
// Cost per phase: version 2 reads the rows of u and M[u] for each matched
// pair u < M[u] (about 4 n^2 bytes for float) plus a gather w[x, M[x]] per
// entry; version 1 the same with a thread per pair.
#include <cuda_runtime.h>

#include <cub/block/block_reduce.cuh>
#include <optional>
#include <string>
#include <vector>

#include "lib/error.hpp"
#include "matchers/gpu.hpp"
#include "matchers/gpu_session.cuh"
#include "matchers/roma_flip.cuh"

namespace matchblas {

namespace {

using roma_gpu_detail::atomic_flip;

constexpr int roma2_block = 1024;  // the thesis's best block size (sec. 5.2)

template <class W>
struct Flip {
  W gain;
  vertex_t a, b;  // u's and M[u]'s new mates
};

template <class W>
struct LargerGain {
  __device__ Flip<W> operator()(const Flip<W>& p, const Flip<W>& q) const { return q.gain > p.gain ? q : p; }
};

// Alg. 5's loop body for the matching edge (x, M[x]), from the edge (u, v).
template <class W>
__device__ void consider(const W* w, long long n, vertex_t u, vertex_t v, vertex_t x, const volatile vertex_t* mate,
                         Flip<W>& best) {
  const vertex_t y = mate[x];
  if (x == u || x == v || !(x < y)) return;
  const W current = w[u * n + v] + w[x * n + y];
  const W w1 = w[u * n + x] + w[v * n + y], w2 = w[u * n + y] + w[v * n + x];
  if (w1 > w2) {
    if (w1 - current > best.gain) best = {w1 - current, x, y};
  } else if (w2 - current > best.gain) {
    best = {w2 - current, y, x};
  }
}

// Alg. 6: a thread per vertex.
template <class W>
__global__ void roma1_phase(const W* w, vertex_t n, volatile vertex_t* mate, vertex_t* locks, W min_gain,
                            unsigned long long* flips) {
  const long long u = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (u >= n) return;
  const vertex_t v = mate[u];
  if (!(u < v)) return;
  Flip<W> best{W(0), no_vertex, no_vertex};
  for (vertex_t x = 0; x < n; ++x) consider(w, n, vertex_t(u), v, x, mate, best);
  if (best.a != no_vertex && best.gain > min_gain) atomic_flip(mate, locks, vertex_t(u), v, best.a, best.b, flips, [] { return true; }, [] {});
}

// Alg. 8: a block per vertex, a strided scan and a block max-reduction.
template <class W>
__global__ void roma2_phase(const W* w, vertex_t n, volatile vertex_t* mate, vertex_t* locks, W min_gain,
                            unsigned long long* flips) {
  using Reduce = cub::BlockReduce<Flip<W>, roma2_block>;
  __shared__ typename Reduce::TempStorage temp;
  __shared__ vertex_t mate_u;
  const vertex_t u = blockIdx.x;
  // One read of M[u] for the whole block: another block may flip u's edge
  // meanwhile, and threads that read different mates would leave the block
  // (or scan for different edges) apart.
  if (threadIdx.x == 0) mate_u = mate[u];
  __syncthreads();
  const vertex_t v = mate_u;
  if (!(u < v)) return;  // block-uniform: every thread holds the same v
  Flip<W> best{W(0), no_vertex, no_vertex};
  for (vertex_t x = threadIdx.x; x < n; x += blockDim.x) consider(w, n, u, v, x, mate, best);
  const Flip<W> top = Reduce(temp).Reduce(best, LargerGain<W>{});
  if (threadIdx.x == 0 && top.a != no_vertex && top.gain > min_gain)
    atomic_flip(mate, locks, u, v, top.a, top.b, flips, [] { return true; }, [] {});
}

template <class W>
double weight_of(const Dense<W>& g, const std::vector<vertex_t>& mate) {
  double sum = 0;
  for (vertex_t u = 0; u < g.n; ++u)
    if (u < mate[u]) sum += double(g(u, mate[u]));
  return sum;
}

}  // namespace

template <class W>
RomaRun roma_gpu_thesis(const Dense<W>& g, int version, const RomaOptions& opt, int device) {
  check_roma_options(opt);
  MATCHBLAS_EXPECTS(version == 1 || version == 2, "roma_gpu_thesis: version must be 1 or 2, got " + std::to_string(version));
  gpu::use_device("roma-gpu-" + std::to_string(version), device);
  std::optional<Dense<W>> padded;
  if (g.n % 2 != 0) padded = padded_to_even(g);
  const Dense<W>& even = padded ? *padded : g;
  const vertex_t n = even.n;

  std::vector<vertex_t> mate = roma_start_matching(even, opt.start, opt.seed);
  RomaRun run;
  run.start_weight = weight_of(even, mate);
  if (n >= 4 && opt.phases > 0) {
    const auto w = gpu::DeviceBuffer<W>::from_host(even.values, nullptr);
    auto m = gpu::DeviceBuffer<vertex_t>::from_host(mate, nullptr);
    gpu::DeviceBuffer<vertex_t> locks{std::size_t(n)};
    gpu::DeviceBuffer<unsigned long long> flips{1};
    MATCHBLAS_CUDA_TRY(cudaMemset(locks.data(), 0xff, locks.size() * sizeof(vertex_t)));  // all -1: unlocked
    gpu::Event start, stop;
    for (int p = 0; p < opt.phases; ++p) {
      MATCHBLAS_CUDA_TRY(cudaMemset(flips.data(), 0, sizeof(unsigned long long)));
      start.record(nullptr);
      if (version == 2)
        roma2_phase<W><<<static_cast<unsigned>(n), roma2_block>>>(w.data(), n, m.data(), locks.data(), W(opt.min_gain),
                                                                   flips.data());
      else
        roma1_phase<W><<<static_cast<unsigned>((n + 1023) / 1024), 1024>>>(w.data(), n, m.data(), locks.data(),
                                                                           W(opt.min_gain), flips.data());
      MATCHBLAS_CUDA_CHECK_LAUNCH();
      stop.record(nullptr);
      RomaPhase phase;
      phase.phase = p;
      phase.seconds = stop.since(start);
      unsigned long long f = 0;
      MATCHBLAS_CUDA_TRY(cudaMemcpy(&f, flips.data(), sizeof f, cudaMemcpyDeviceToHost));
      m.to_host(std::span(mate), nullptr);
      MATCHBLAS_CUDA_TRY(cudaDeviceSynchronize());
      phase.flips = static_cast<std::int64_t>(f);
      phase.weight = weight_of(even, mate);
      run.phases.push_back(phase);
      if (f == 0) break;
    }
  }
  run.matching = Matching(g.n);
  for (vertex_t u = 0; u < g.n; ++u) run.matching.mate[u] = mate[u] < g.n ? mate[u] : no_vertex;
  return run;
}

template RomaRun roma_gpu_thesis(const Dense<float>&, int, const RomaOptions&, int);
template RomaRun roma_gpu_thesis(const Dense<double>&, int, const RomaOptions&, int);

}  // namespace matchblas
