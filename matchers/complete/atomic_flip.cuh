// What the ROMA GPU matchers (matchers/complete/roma_gpu_thesis.cu, roma_gpu.cu)
// share: atomicFlip (Hovland 2020 Alg. 7) and the host loop of Alg. 9 on a
// resident graph, on one gpu::StreamSession's stream. .cu files only.
//
// A flip turns the matching edges {u, v} and {x, y} (u < v, x < y, found by
// a scan that may have read mates mid-flip) into {u, a}, {v, b} with
// {a, b} = {x, y}. It takes the locks of the two representatives u and x,
// the smaller first, so two flips wanting the same pair cannot each hold one
// lock and wait (a lock that is taken makes the flip give up). Under the
// locks it re-reads all four mates: Alg. 7 checks M[u] and M[x]; we also
// check M[v] = u and M[y] = x. Without that, a flip could act on a pair
// that another flip is still writing (M[v] new, M[b] not yet), and the two
// would leave a vertex matched twice. Both ends mutual means every write of
// the earlier flip to these four vertices is done: an earlier flip changes
// each partner it writes, so an old value and a new one cannot both name
// the same pair. The writes are fenced before the locks are released.
#pragma once
#include <cuda_runtime.h>

#include <chrono>
#include <cub/block/block_reduce.cuh>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "lib/types.hpp"
#include "ops/gpu/device_dense_impl.cuh"
#include "ops/gpu/device_dense.hpp"
#include "matchers/complete/auction.hpp"
#include "matchers/complete/roma.hpp"
#include "ops/gpu/gpu_session.cuh"

namespace matchblas::roma_gpu_detail {

// Flips when the four mates are as scanned and accept() (called under the
// locks, after the re-check) says yes; before_write() runs just before the
// four mate writes (the fast version updates its cached weights there).
// Returns whether it flipped; a flip adds 1 to *flips.
template <class Accept, class BeforeWrite>
__device__ bool atomic_flip(volatile vertex_t* mate, vertex_t* locks, vertex_t u, vertex_t v, vertex_t a,
                            vertex_t b, unsigned long long* flips, Accept accept, BeforeWrite before_write) {
  const vertex_t x = min(a, b), y = max(a, b);
  const vertex_t first = min(u, x), second = max(u, x);
  bool flipped = false;
  if (atomicCAS(locks + first, no_vertex, u) != no_vertex) return false;
  if (atomicCAS(locks + second, no_vertex, u) == no_vertex) {
    __threadfence();  // the mates read below are at least as new as the locks' last release
    const vertex_t mu = mate[u], mv = mate[v], mx = mate[x], my = mate[y];  // four loads in flight
    if (mu == v && mv == u && mx == y && my == x && accept()) {
      before_write();
      mate[u] = a;
      mate[a] = u;
      mate[v] = b;
      mate[b] = v;
      atomicAdd(flips, 1ULL);
      flipped = true;
      __threadfence();
    }
    atomicExch(locks + second, no_vertex);
  }
  atomicExch(locks + first, no_vertex);
  return flipped;
}

// *sum += the weight of the matching (each edge once, from its smaller end).
template <class W>
__global__ void matching_weight_kernel(const W* w, vertex_t n, const vertex_t* mate, double* sum) {
  using Reduce = cub::BlockReduce<double, 256>;
  __shared__ typename Reduce::TempStorage temp;
  const long long u = blockIdx.x * 256LL + threadIdx.x;
  double mine = 0;
  if (u < n && u < mate[u]) mine = double(w[u * n + mate[u]]);
  const double block = Reduce(temp).Sum(mine);
  if (threadIdx.x == 0) atomicAdd(sum, block);
}

// The matching's weight, summed on `stream` into sum and read back (waits
// for the stream).
template <class W>
double matching_weight_on_device(const W* w, vertex_t n, const vertex_t* mate, gpu::DeviceBuffer<double>& sum,
                                 cudaStream_t stream) {
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(sum.data(), 0, sizeof(double), stream));
  matching_weight_kernel<W><<<(n + 255) / 256, 256, 0, stream>>>(w, n, mate, sum.data());
  MATCHBLAS_CUDA_CHECK_LAUNCH();
  double s = 0;
  MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(&s, sum.data(), sizeof s, cudaMemcpyDeviceToHost, stream));
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(stream));
  return s;
}

// The device state of one run: mates, locks (-1: free), the phase's
// counters (flips, scans, edges past the bound, pairs taken), and the
// previous phase's last two, read back by the host loop.
struct PhaseState {
  vertex_t* mate;
  vertex_t* locks;
  unsigned long long* flips;
  unsigned long long* scanned;  // matching edges scanned (RomaPhase::scanned), where the phase counts them
  unsigned long long* past_bound;  // edges past a gain bound, and pairs taken (roma-gpu's kernel choice)
  unsigned long long* pairs;
  unsigned long long* fallback_flips;  // flips made with a pair's later candidate (RomaPhase::fallback_flips)
  unsigned long long previous_past_bound = 0, previous_pairs = 0;  // the previous phase's (0 in phase 0)
};

// What a phase reports of its kernel (RomaPhase::kernel, cluster_blocks).
struct PhaseKernel {
  const char* name;
  int cluster_blocks;
};

// Alg. 9's host loop on g (padded order n), from the start matching `mate`,
// on the session's stream (its device is g's): each phase resets the flip
// and scan counters (the scans are reported when counts_scans), then
// phase(p, state) enqueues the phase's kernels on session.stream() (timed
// with events on it: RomaPhase::seconds; it may return a PhaseKernel,
// reported with the count of edges past the gain bound), then the weight is
// summed on the device; it stops after a phase without flips or after
// opt.phases. The padding vertex's partner ends unmatched. Waits for the
// stream before it returns.
template <class W, class Phase>
RomaRun roma_phases(const gpu::StreamSession& session, const DeviceDense<W>& g, std::vector<vertex_t> mate,
                    const RomaOptions& opt, bool counts_scans, Phase phase) {
  const cudaStream_t st = session.stream();
  const vertex_t n = g.padded_n();
  const W* w = g.impl().w.data();
  RomaRun run;
  gpu::DeviceBuffer<vertex_t> m{mate.size(), st};
  if (!mate.empty())
    MATCHBLAS_CUDA_TRY(
        cudaMemcpyAsync(m.data(), mate.data(), mate.size() * sizeof(vertex_t), cudaMemcpyHostToDevice, st));
  gpu::DeviceBuffer<double> sum(1, st);
  run.start_weight = n > 0 ? matching_weight_on_device(w, n, m.data(), sum, st) : 0;
  if (n >= 4 && opt.phases > 0) {
    gpu::DeviceBuffer<vertex_t> locks{std::size_t(n), st};
    gpu::DeviceBuffer<unsigned long long> counts{5, st};  // flips, scanned, past_bound, pairs, fallback_flips
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(locks.data(), 0xff, locks.size() * sizeof(vertex_t), st));  // all -1: unlocked
    PhaseState state{m.data(),          locks.data(),       counts.data(),     counts.data() + 1,
                     counts.data() + 2, counts.data() + 3, counts.data() + 4};
    gpu::Event start, stop;
    for (int p = 0; p < opt.phases; ++p) {
      MATCHBLAS_CUDA_TRY(cudaMemsetAsync(counts.data(), 0, counts.size() * sizeof(unsigned long long), st));
      start.record(st);
      RomaPhase report;
      if constexpr (std::is_void_v<decltype(phase(p, state))>) {
        phase(p, state);
      } else {
        const PhaseKernel k = phase(p, state);
        report.kernel = k.name;
        report.cluster_blocks = k.cluster_blocks;
      }
      stop.record(st);
      report.phase = p;
      report.seconds = stop.since(start);
      unsigned long long c[5] = {0, 0, 0, 0, 0};
      MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(c, counts.data(), sizeof c, cudaMemcpyDeviceToHost, st));
      session.synchronize();
      state.previous_past_bound = c[2];
      state.previous_pairs = c[3];
      const unsigned long long f = c[0];
      report.flips = static_cast<std::int64_t>(f);
      if (counts_scans) report.scanned = static_cast<std::int64_t>(c[1]);
      if (!report.kernel.empty()) {
        report.past_bound = static_cast<std::int64_t>(c[2]);
        report.fallback_flips = static_cast<std::int64_t>(c[4]);
      }
      report.weight = matching_weight_on_device(w, n, m.data(), sum, st);
      run.phases.push_back(report);
      if (f == 0) break;
    }
  }
  m.to_host(std::span(mate), st);
  session.synchronize();
  const vertex_t order = g.n();
  run.matching = Matching(order);
  for (vertex_t u = 0; u < order; ++u) run.matching.mate[u] = mate[u] < order ? mate[u] : no_vertex;
  return run;
}

// The run of `phases_from(start)` from opt.start's matching for g, with
// RomaRun::start_seconds, the start's wall-clock time (device work
// included): assignment runs on the device (assignment_matching_gpu, on the
// session's stream); greedy needs the weights on the host (a copy of the
// device graph when none is given).
template <class W, class PhasesFrom>
RomaRun run_from_start(const gpu::StreamSession& session, const DeviceDense<W>& g, const Dense<W>* host,
                       const RomaOptions& opt, PhasesFrom phases_from) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<vertex_t> mate;
  if (opt.start == RomaStart::assignment) mate = assignment_matching_gpu(g, opt.auction, nullptr, session.stream());
  else if (!start_needs_weights(opt.start)) mate = roma_start_matching(g.padded_n(), opt.start, opt.seed);
  else
    mate = roma_start_matching(padded_to_even(host ? *host : g.to_host(session.stream())), opt.start, opt.seed,
                               opt.auction);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  RomaRun run = phases_from(std::move(mate));
  run.start_seconds = seconds;
  return run;
}

}  // namespace matchblas::roma_gpu_detail
