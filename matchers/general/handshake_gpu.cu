// Handshaking matching on the GPU, written with the device ops
// (matchers/general/handshake.hpp; the CPU twin is matchers/general/handshake.cpp).
// Source: the handshaking course project (strongest neighbour, update matches, keep-edges flags,
// exclusive prefix sum, compaction; "-threads" launches about that many
// threads per kernel and must not change the result). Here opt.threads sizes
// the grid of the handshake kernel and opt.threads_per_block the blocks of
// the assign and select ops; every kernel loops grid-stride, so neither
// changes the result.
//
// Round, while edges remain:
//   strong   = argmax of every row of the remaining edges (ops/gpu/argmax_gpu)
//   shakes   = strong[strong[u]] == u                     (one kernel)
//   mate<shakes> = strong                                 (masked assign)
//   edges    = the entries whose endpoints are both free  (select + CUB scan
//              + compaction, ops/gpu/select_gpu)
// Guarantee: exactly greedy's matching: a handshake is a locally dominant
// edge, and the heaviest remaining edge always shakes, so every round matches
// at least one edge (Thorsen and Merkey 2010 Alg. 1 argues the same for LD). Cost: O(rounds x
// remaining entries) work, one host synchronisation per round (the size of
// the compacted edge set).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "ops/gpu/device_graph.hpp"
#include "matchers/general/handshake.hpp"
#include "ops/gpu/gpu_session.cuh"
#include "ops/gpu/argmax_gpu.cuh"
#include "ops/gpu/assign_gpu.cuh"
#include "ops/gpu/select_gpu.cuh"

namespace matchblas {

namespace {

constexpr int block = 256;

__global__ void handshakes(vertex_t n, const vertex_t* strong, std::uint8_t* shakes) {
  for (long long u = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; u < n;
       u += static_cast<long long>(gridDim.x) * blockDim.x) {
    const vertex_t v = strong[u];
    shakes[u] = v != no_vertex && strong[v] == static_cast<vertex_t>(u);
  }
}

}  // namespace

template <class W>
Matching handshake_gpu(const Csr<W>& g, const GpuOptions& opt, GpuTimes* times) {
  return gpu::with_device_graph("handshake-gpu", g, opt,
                                [&](const DeviceGraph<W>& dg) { return handshake_gpu(dg, opt, times); });
}

template <class W>
Matching handshake_gpu(const DeviceGraph<W>& g, const GpuOptions& opt, GpuTimes* times) {
  gpu::MatcherSession<W> session("handshake-gpu", g, opt);
  const cudaStream_t s = session.stream();
  const vertex_t n = g.n();
  gpu::DeviceBuffer<vertex_t> mate{std::size_t(n), s}, strong{std::size_t(n), s};
  gpu::DeviceBuffer<W> strong_weight{std::size_t(n), s};
  gpu::DeviceBuffer<std::uint8_t> shakes{std::size_t(n), s};
  gpu::ArgmaxScratch argmax_scratch(n, s);
  const unsigned grid = opt.threads > 0 ? gpu::grid_for(opt.threads, block, 1LL << 30)
                                        : gpu::grid_for(std::max<vertex_t>(n, 1), block, 1LL << 30);
  if (n > 0) MATCHBLAS_CUDA_TRY(cudaMemsetAsync(mate.data(), 0xff, mate.size() * sizeof(vertex_t), s));  // all -1

  gpu::DeviceCsr<W> remaining{0, 0, {}, {}, {}};
  gpu::CsrView<W> edges = session.graph();
  for (std::size_t entries = g.impl().csr.num_entries(); entries > 0;) {
    gpu::argmax_rows(edges, gpu::DeviceArgmaxMasks<W>{}, strong.data(), strong_weight.data(), argmax_scratch, session.sms(), s);
    handshakes<<<grid, block, 0, s>>>(n, strong.data(), shakes.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    gpu::assign(mate.data(), shakes.data(), static_cast<const vertex_t*>(strong.data()), std::size_t(n),
                opt.threads_per_block, s);
    remaining = gpu::select_free_entries(edges, mate.data(), opt.threads_per_block, s);
    edges = remaining.view();
    if (remaining.num_entries() == entries)  // nothing shook: NaN or -inf weights (see handshake.cpp)
      throw invalid_input("handshake-gpu: no progress; the weights must be numbers above -infinity (NaN or -inf found)");
    entries = remaining.num_entries();
  }
  return session.finish(mate, times);
}

template Matching handshake_gpu(const Csr<float>&, const GpuOptions&, GpuTimes*);
template Matching handshake_gpu(const Csr<double>&, const GpuOptions&, GpuTimes*);
template Matching handshake_gpu(const DeviceGraph<float>&, const GpuOptions&, GpuTimes*);
template Matching handshake_gpu(const DeviceGraph<double>&, const GpuOptions&, GpuTimes*);

}  // namespace matchblas
