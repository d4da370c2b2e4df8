// Bertsekas's auction with epsilon-scaling on the GPU, asynchronous (a warp
// bids for one person at a time, one 64-bit atomicMax a bid), and the
// perfect matching read off its permutation: roma-gpu's `assignment` start
// (matchers/complete/auction.hpp, the sequential twin, states the contract).
// Source: Bertsekas 1988 sec. 2 and 4; Bertsekas and Castanon 1991 (bids
// from out-of-date prices, accepted only above the current price).
// Guarantee (no unassigned, no bid cap): a permutation without fixed points
// within n x (epsilon + a float rounding of the prices) of the best one's.
// Cost per phase: a row scan per person's first bid and per failed candidate
// list, 128 entries a bid the list proves (bench/RESULTS.md).
// Here the host side: the weights' scale and check, the epsilon loop over
// phases, the permutation collected, the entry points; a phase's bidding
// kernel is matchers/complete/auction_gpu_bids.cuh. Bids, candidate lists,
// why the races are sound: docs/algorithms/auction_gpu.md.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <cub/block/block_reduce.cuh>
#include <string>
#include <vector>

#include "lib/error.hpp"
#include "matchers/complete/auction.hpp"
#include "matchers/complete/auction_gpu_bids.cuh"
#include "ops/gpu/cuda_check.hpp"
#include "ops/gpu/device_buffer.cuh"
#include "ops/gpu/device_dense.hpp"
#include "ops/gpu/device_dense_impl.cuh"
#include "ops/gpu/gpu_session.cuh"

namespace matchblas {

namespace {

using namespace auction_gpu_detail;

// sigma[owner of j] = j for the objects owned, then every object freed at
// its price.
__global__ void collect(unsigned long long* word, vertex_t n, vertex_t* sigma, bool free_objects) {
  for (long long j = blockIdx.x * 256LL + threadIdx.x; j < n; j += gridDim.x * 256LL) {
    const unsigned long long x = word[j];
    if (sigma && unsigned(x) != nobody) sigma[unsigned(x)] = vertex_t(j);  // (none when a phase stopped early)
    if (free_objects) word[j] = pack(price_of(x), nobody);
  }
}

struct Larger {
  __device__ double operator()(double a, double b) const { return fmax(a, b); }
};

// Every object free at price 0 (the prices past n too), no person with a list.
__global__ void init_objects(unsigned long long* word, float* price, float* bound, vertex_t n, vertex_t priced) {
  for (long long j = blockIdx.x * 256LL + threadIdx.x; j < priced; j += gridDim.x * 256LL) {
    price[j] = 0.0f;
    if (j < n) {
      word[j] = pack(0.0f, nobody);
      bound[j] = INFINITY;
    }
  }
}

// The largest |w(u, v)|, u != v, of the first n rows and columns (its bits,
// as the bits of non-negative doubles order as they do), and the first
// entry that is not finite (row-major index u * n + v; left as it was when
// none). A block per row at a time.
template <class W>
__global__ void scale_and_check(const W* w, long long stride, vertex_t n, unsigned long long* largest,
                                unsigned long long* bad) {
  using Reduce = cub::BlockReduce<double, 256>;
  __shared__ typename Reduce::TempStorage temp;
  double mine = 0;
  for (vertex_t u = blockIdx.x; u < n; u += gridDim.x)
#pragma unroll 4
    for (vertex_t v = threadIdx.x; v < n; v += 256) {
      if (u == v) continue;
      const double x = double(w[u * stride + v]);
      if (!isfinite(x))
        atomicMin(bad, static_cast<unsigned long long>(u) * n + v);
      else
        mine = fmax(mine, fabs(x));
    }
  const double block = Reduce(temp).Reduce(mine, Larger{});
  if (threadIdx.x == 0) atomicMax(largest, static_cast<unsigned long long>(__double_as_longlong(block)));
}

// w(u, sigma[u]) for the persons assigned (0 for the others).
template <class W>
__global__ void weight_to_sigma(const W* w, long long stride, vertex_t n, const vertex_t* sigma, double* out) {
  for (long long u = blockIdx.x * 256LL + threadIdx.x; u < n; u += gridDim.x * 256LL)
    out[u] = sigma[u] == no_vertex ? 0.0 : double(w[u * stride + sigma[u]]);
}

// The persistent grid on a GPU of `sms` SMs: as many blocks as are resident at once.
template <class W>
int persistent_blocks(int sms) {
  int per_sm = 0;
  MATCHBLAS_CUDA_TRY(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, auction_phase<W>, block_threads, 0));
  return std::max(1, sms * std::max(per_sm, 1));
}

// The checks of dense_auction_gpu's options (before any GPU work).
void check_auction_gpu_options(const AuctionOptions& opt) {
  check_auction_options(opt);
  if (opt.final_epsilon < 1e-5)
    throw invalid_input("auction-gpu: final epsilon must be >= 1e-5 (of the largest weight: prices are floats), got " +
                        std::to_string(opt.final_epsilon));
}

// The auction on the first n rows and columns of g (n <= g.padded_n()),
// sigma left on the device, everything on the session's stream (sigma is
// freed on it: the session must outlive it); per-phase counts in *stats
// when asked. The options are checked (check_auction_gpu_options).
template <class W>
gpu::DeviceBuffer<vertex_t> auction_on_device(const gpu::StreamSession& session, const DeviceDense<W>& g, vertex_t n,
                                              const AuctionOptions& opt, AuctionGpuStats* stats) {
  MATCHBLAS_EXPECTS(n == 0 || n >= 2, "auction-gpu: a vertex cannot be assigned to itself; n must be 0 or >= 2, got " +
                                          std::to_string(n));
  if (stats) *stats = {};
  const cudaStream_t s = session.stream();
  gpu::DeviceBuffer<vertex_t> sigma{std::size_t(n), s};  // the scratch below too comes from the pool, on s
  if (n == 0) return sigma;
  const auto t0 = std::chrono::steady_clock::now();
  const W* w = g.impl().w.data();
  const long long stride = g.padded_n();
  gpu::DeviceBuffer<unsigned long long> scale_bits{2, s};  // the largest |w| (its bits), the first bad entry
  const unsigned long long initial[2] = {0, ~0ULL};
  MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(scale_bits.data(), initial, sizeof initial, cudaMemcpyHostToDevice, s));
  scale_and_check<W><<<1024, 256, 0, s>>>(w, stride, n, scale_bits.data(), scale_bits.data() + 1);
  MATCHBLAS_CUDA_CHECK_LAUNCH();
  unsigned long long found[2];
  MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(found, scale_bits.data(), sizeof found, cudaMemcpyDeviceToHost, s));
  session.synchronize();
  if (found[1] != ~0ULL) {
    const long long u = static_cast<long long>(found[1] / n), v = static_cast<long long>(found[1] % n);
    W x{};
    MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(&x, w + u * stride + v, sizeof x, cudaMemcpyDeviceToHost, s));
    session.synchronize();
    throw invalid_input("auction-gpu: weight (" + std::to_string(u) + ", " + std::to_string(v) + ") is " +
                        std::to_string(double(x)) + "; the assignment start needs finite weights");
  }
  double largest_w = 0;
  std::memcpy(&largest_w, &found[0], sizeof largest_w);
  const double scale = largest_w > 0 ? largest_w : 1.0;  // all weights 0: any epsilon > 0 will do
  const double final_epsilon = opt.final_epsilon * scale;

  const vertex_t priced = (n + 3) / 4 * 4;  // the scans read prices four or two at a time
  gpu::DeviceBuffer<unsigned long long> word{std::size_t(n), s};
  gpu::DeviceBuffer<float> price{std::size_t(priced), s};
  gpu::DeviceBuffer<vertex_t> list{std::size_t(n) * listed, s};
  gpu::DeviceBuffer<W> list_w{std::size_t(n) * listed, s};
  gpu::DeviceBuffer<float> bound{std::size_t(n), s};
  gpu::DeviceBuffer<unsigned> next_and_owned{2, s};
  gpu::DeviceBuffer<unsigned long long> counts{count_slots, s};
  init_objects<<<(priced + 255) / 256, 256, 0, s>>>(word.data(), price.data(), bound.data(), n, priced);
  MATCHBLAS_CUDA_CHECK_LAUNCH();
  const auto stop_at = static_cast<unsigned>(n - static_cast<vertex_t>(unassigned_allowed(opt, n)));
  const Auction<W> a{w,
                     stride,
                     n,
                     W(1 / scale),
                     word.data(),
                     price.data(),
                     list.data(),
                     list_w.data(),
                     bound.data(),
                     next_and_owned.data(),
                     next_and_owned.data() + 1,
                     stop_at,
                     static_cast<unsigned long long>(bids_allowed(opt, n)),
                     counts.data()};
  const int blocks = persistent_blocks<W>(session.sms());
  gpu::Event start, stop;
  for (double epsilon = std::max(scale / 4, final_epsilon);; epsilon = std::max(epsilon / opt.ratio, final_epsilon)) {
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(next_and_owned.data(), 0, 2 * sizeof(unsigned), s));
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(counts.data(), 0, count_slots * sizeof(unsigned long long), s));
    start.record(s);
    auction_phase<W><<<blocks, block_threads, 0, s>>>(a, epsilon / scale);
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    stop.record(s);
    const bool last = epsilon <= final_epsilon;
    if (last) MATCHBLAS_CUDA_TRY(cudaMemsetAsync(sigma.data(), 0xff, n * sizeof(vertex_t), s));  // no_vertex: unassigned
    collect<<<(n + 255) / 256, 256, 0, s>>>(word.data(), n, last ? sigma.data() : nullptr, !last);
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    if (stats) {
      std::vector<unsigned long long> c(count_slots);
      unsigned owned = 0;
      MATCHBLAS_CUDA_TRY(
          cudaMemcpyAsync(c.data(), counts.data(), count_slots * sizeof c[0], cudaMemcpyDeviceToHost, s));
      MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(&owned, next_and_owned.data() + 1, sizeof owned, cudaMemcpyDeviceToHost, s));
      session.synchronize();
      AuctionGpuPhase p;
      p.epsilon = epsilon;
      p.seconds = stop.since(start);
      p.bids = static_cast<std::int64_t>(c[slot::bids]);
      p.lost_bids = static_cast<std::int64_t>(c[slot::lost_bids]);
      p.scans = static_cast<std::int64_t>(c[slot::scans]);
      p.unassigned = n - static_cast<vertex_t>(owned);
      for (int k = 32; k >= 0; --k)
        if (c[slot::tail + k] != 0)
          p.tail.emplace_back(k == 32 ? 0 : vertex_t(1) << k,
                              (double(c[slot::tail + k]) - double(c[slot::first_take])) * 1e-9);
      stats->phases.push_back(std::move(p));
    }
    if (last) break;
  }
  if (stats) {
    session.synchronize();
    stats->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  return sigma;
}

}  // namespace

template <class W>
std::vector<vertex_t> dense_auction_gpu(const DeviceDense<W>& g, const AuctionOptions& opt, AuctionGpuStats* stats,
                                        CUstream_st* stream) {
  check_auction_gpu_options(opt);
  const gpu::StreamSession session(g.device(), stream);
  const gpu::DeviceBuffer<vertex_t> sigma = auction_on_device(session, g, g.n(), opt, stats);
  std::vector<vertex_t> host(sigma.size());
  sigma.to_host(std::span(host), session.stream());
  session.synchronize();
  return host;
}

template <class W>
std::vector<vertex_t> assignment_matching_gpu(const DeviceDense<W>& g, const AuctionOptions& opt,
                                              AuctionGpuStats* stats, CUstream_st* stream) {
  check_auction_gpu_options(opt);
  const gpu::StreamSession session(g.device(), stream);
  const cudaStream_t s = session.stream();
  const vertex_t n = g.padded_n();
  const gpu::DeviceBuffer<vertex_t> sigma = auction_on_device(session, g, n, opt, stats);
  std::vector<vertex_t> host(n);
  std::vector<double> weight(n);
  if (n > 0) {
    gpu::DeviceBuffer<double> w{std::size_t(n), s};
    weight_to_sigma<W><<<(n + 255) / 256, 256, 0, s>>>(g.impl().w.data(), n, n, sigma.data(), w.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    sigma.to_host(std::span(host), s);
    w.to_host(std::span(weight), s);
    session.synchronize();
  }
  return matching_from_assignment(host, weight);
}

template std::vector<vertex_t> dense_auction_gpu(const DeviceDense<float>&, const AuctionOptions&, AuctionGpuStats*,
                                                 CUstream_st*);
template std::vector<vertex_t> dense_auction_gpu(const DeviceDense<double>&, const AuctionOptions&, AuctionGpuStats*,
                                                 CUstream_st*);
template std::vector<vertex_t> assignment_matching_gpu(const DeviceDense<float>&, const AuctionOptions&,
                                                       AuctionGpuStats*, CUstream_st*);
template std::vector<vertex_t> assignment_matching_gpu(const DeviceDense<double>&, const AuctionOptions&,
                                                       AuctionGpuStats*, CUstream_st*);

}  // namespace matchblas
