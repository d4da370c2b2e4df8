// ROMA on the GPU, faithful to the thesis: roma-gpu-1 (Alg. 6) and
// roma-gpu-2 (Alg. 8), atomicFlip (Alg. 7), the host loop (Alg. 9)
// (matchers/complete/roma.hpp states the contract).
// Source: Hovland 2020 sec. 4.1, Alg. 6-9, Lemma 4.1.1; the per-vertex scan is
// Alg. 5 (matchers/complete/roma.cpp is the CPU twin).
//
// Why the matching stays valid under races (Lemma 4.1.1's argument): a
// matching edge is represented by its smaller end; a flip holds the locks of
// both representatives and re-checks both edges under them
// (matchers/complete/atomic_flip.cuh says why both ends). The scan itself may read
// mates mid-flip: that can only make it choose a flip that the re-check then
// refuses, or one that is no longer u's best. A flip that is done has
// exactly the gain computed (it depends only on the four vertices, whose two
// edges the re-check confirmed, and the scan read w[x, y] with y = M[x]
// read at the same time), so the weight never falls.
// Cost per phase: version 2 reads the rows of u and M[u] for each matched
// pair u < M[u] (about 4 n^2 bytes for float) plus a gather w[x, M[x]] per
// entry; version 1 the same with a thread per pair.
// Host side: one gpu::StreamSession (the caller's stream or one of its own)
// carries the upload, the start and every phase (atomic_flip.cuh's loop).
#include <cuda_runtime.h>

#include <cub/block/block_reduce.cuh>
#include <optional>
#include <string>
#include <vector>

#include "lib/error.hpp"
#include "ops/gpu/device_dense.hpp"
#include "matchers/complete/roma.hpp"
#include "ops/gpu/gpu_session.cuh"
#include "matchers/complete/atomic_flip.cuh"

namespace matchblas {

namespace {

using namespace roma_gpu_detail;

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

void check_thesis_options(int version, const RomaOptions& opt) {
  MATCHBLAS_EXPECTS(version == 1 || version == 2,
                    "roma_gpu_thesis: version must be 1 or 2, got " + std::to_string(version));
  if (opt.scan == RomaScan::changed)
    throw invalid_input("roma-gpu-" + std::to_string(version) +
                        ": the thesis versions scan every pair every phase (scan 'all'); scan 'changed' is for roma "
                        "and roma-gpu");
}

template <class W>
RomaRun run_thesis(const gpu::StreamSession& session, const DeviceDense<W>& g, std::vector<vertex_t> mate,
                   int version, const RomaOptions& opt) {
  const cudaStream_t st = session.stream();
  const vertex_t n = g.padded_n();
  const W* w = g.impl().w.data();
  return roma_phases(session, g, std::move(mate), opt, /*counts_scans=*/false, [&](int, const PhaseState& s) {
    if (version == 2)
      roma2_phase<W><<<static_cast<unsigned>(n), roma2_block, 0, st>>>(w, n, s.mate, s.locks, W(opt.min_gain),
                                                                        s.flips);
    else
      roma1_phase<W><<<static_cast<unsigned>((n + 1023) / 1024), 1024, 0, st>>>(w, n, s.mate, s.locks,
                                                                                W(opt.min_gain), s.flips);
    MATCHBLAS_CUDA_CHECK_LAUNCH();
  });
}

// The run on g, resident on its own GPU, on `stream` (null: the session's own).
template <class W>
RomaRun run_on_device(const DeviceDense<W>& g, const Dense<W>* host, int version, const RomaOptions& opt,
                      cudaStream_t stream) {
  const gpu::StreamSession session(g.device(), stream);
  return run_from_start<W>(session, g, host, opt, [&](std::vector<vertex_t> start) {
    return run_thesis(session, g, std::move(start), version, opt);
  });
}

}  // namespace

template <class W>
RomaRun roma_gpu_thesis(const Dense<W>& g, int version, const RomaOptions& opt, const GpuOptions& gpu) {
  check_roma_options(opt);
  check_thesis_options(version, opt);
  gpu::use_device("roma-gpu-" + std::to_string(version), gpu.device);
  const DeviceDense<W> d = DeviceDense<W>::upload(g, gpu.device, gpu.stream);
  return run_on_device<W>(d, &g, version, opt, gpu.stream);
}

template <class W>
RomaRun roma_gpu_thesis(const Dense<W>& g, int version, const RomaOptions& opt, int device) {
  return roma_gpu_thesis(g, version, opt, GpuOptions{.device = device});
}

template <class W>
RomaRun roma_gpu_thesis(const DeviceDense<W>& g, int version, const RomaOptions& opt, CUstream_st* stream) {
  check_roma_options(opt);
  check_thesis_options(version, opt);
  return run_on_device<W>(g, nullptr, version, opt, stream);
}

template RomaRun roma_gpu_thesis(const DeviceDense<float>&, int, const RomaOptions&, CUstream_st*);
template RomaRun roma_gpu_thesis(const DeviceDense<double>&, int, const RomaOptions&, CUstream_st*);
template RomaRun roma_gpu_thesis(const Dense<float>&, int, const RomaOptions&, const GpuOptions&);
template RomaRun roma_gpu_thesis(const Dense<double>&, int, const RomaOptions&, const GpuOptions&);
template RomaRun roma_gpu_thesis(const Dense<float>&, int, const RomaOptions&, int);
template RomaRun roma_gpu_thesis(const Dense<double>&, int, const RomaOptions&, int);

}  // namespace matchblas
