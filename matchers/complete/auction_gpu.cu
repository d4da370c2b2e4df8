// Bertsekas's auction with epsilon-scaling on the GPU, asynchronous, and the
// perfect matching read off its permutation: roma-gpu's `assignment` start.
// Source: D. P. Bertsekas, "The auction algorithm: a distributed relaxation
// method for the assignment problem", Annals of Operations Research 14
// (1988), sec. 2 and 4 (as matchers/complete/auction.hpp, the sequential twin), and
// D. P. Bertsekas and D. A. Castanon, "Parallel synchronous and asynchronous
// implementations of the auction algorithm", Parallel Computing 17 (1991)
// (bids computed from out-of-date prices are sound when a bid is accepted
// only above the current price). The chains are those of suitor-gpu (Naim 2017
// Naim et al. 2015): the warp whose bid displaces an owner bids next for it.
//
// Values and prices are in units of the largest |w| (so that float prices
// neither overflow nor lose epsilon on huge or tiny weights). Each warp takes
// a person u from a counter and bids for it:
//   1. The best object j1 and the second-best value of w(u, j) - price[j]
//      (j != u). From u's candidate list when it proves them, else by a scan
//      of row u (coalesced 16-byte loads where the row allows, else 8-byte
//      ones) that also rebuilds the list.
//   2. bid = w(u, j1) - second + epsilon, rounded up to a float; one atomicMax
//      of (bid, u) on j1's 64-bit word (price bits high, owner low; prices are
//      >= 0, so their float bits order as the prices do). It wins when the
//      word grew; then it raises the float price array (read by the scans)
//      and goes on with the owner it displaced, or takes a new person when j1
//      had none. A lost bid (someone bid higher first) is made again for u.
// A phase ends when every person owns an object (or, with opt.unassigned or
// opt.bids_per_person, earlier: the persons in hand stay unassigned); the
// next phase keeps the prices, frees every object and divides epsilon by
// opt.ratio (as the CPU).
//
// Candidate lists (Bertsekas's reduced scan): a scan leaves each lane's
// per_lane best objects of its slice of the row (with their weights) and
// `bound`, the largest value after them in any lane: every object outside
// the list was worth at most bound then, and prices only rise, so it still
// is. When the list's second-best current value is >= bound, the list's top
// two are the row's; a bid then reads the list (128 entries) instead of the
// row. A row is scanned again whenever its list no longer proves a bid.
//
// Why it is sound under races: prices only rise (atomicMax), so a value read
// from older prices is an over-estimate of the current one, and the winner's
// bid keeps epsilon-complementary slackness against the current prices; a
// bid below the current price fails. A bid equal to it (read stale) wins
// only against a lower-numbered owner: slackness still holds, and the owner
// it displaces bids from the fresh price, which raises it. Every person is in
// at most one warp's hands (the one that took it from the counter or
// displaced it), so its list has one writer at a time: the writes are fenced
// before the atomicMax that hands the person on, and the displacing warp's
// lane 0 fences after its atomicMax on the same word, then syncs its warp,
// before any lane reads the list. Bids exceed the price read by at least
// epsilon, far above a float's rounding (final epsilon >= 1e-5 of the
// largest weight is required), so no bid repeats forever.
//
// Guarantee (opt.unassigned and opt.bids_per_person 0): a permutation
// without fixed points whose value is within n x (epsilon + a float
// rounding of the prices) of the best such permutation's, as the
// sequential auction. With them, a partial one. The bid cap is checked
// before each bid, so a phase may overshoot it by the warps in flight. Not the CPU's permutation (the
// bids race). Cost per phase: a scan of each row (n weights and n prices)
// for each person's first bid and whenever its list fails, 128 entries for a
// bid the list proves; bench/RESULTS.md has the counts and times.
// Host side: one gpu::StreamSession (the caller's stream or one of its own)
// carries every copy, kernel and event; the scratch is stream-ordered on it,
// and the host waits for that stream alone (for the counts, and the result).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <cub/block/block_reduce.cuh>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "lib/error.hpp"
#include "matchers/complete/auction.hpp"
#include "matchers/complete/device_dense_impl.cuh"
#include "matchers/complete/device_dense.hpp"
#include "matchers/gpu_session.cuh"
#include "ops/gpu/cuda_check.hpp"
#include "ops/gpu/device_buffer.cuh"

namespace matchblas {

namespace {

constexpr unsigned nobody = 0xffffffffu;  // an object's owner before its first bid in a phase
constexpr int warp = 32;
// Candidates per lane in a person's list: on the H100 at n = 16384, 2 / 4 / 8
// took the geometric graph's auction 34 / 18 / 19 ms (bench/RESULTS.md).
constexpr int per_lane = 4;
constexpr int listed = per_lane * warp;               // candidates per person
constexpr int block_threads = 256;

__device__ inline unsigned long long pack(float price, unsigned owner) {
  return (static_cast<unsigned long long>(__float_as_uint(price)) << 32) | owner;
}
__device__ inline float price_of(unsigned long long word) { return __uint_as_float(unsigned(word >> 32)); }

template <class W>
struct Auction {
  const W* w;                  // row u at w + u * stride
  long long stride;            // even (DeviceDense pads to an even order)
  vertex_t n;                  // persons and objects
  W unit;                      // 1 / the largest |w|: values and prices are in units of it
  unsigned long long* word;    // object j: price bits << 32 | owner
  float* price;                // object j's price for the scans (atomicMax after the word; may lag it)
  vertex_t* list;              // person u's candidates at list[u * listed + k * warp + lane] (no_vertex: none)
  W* list_w;                   // their weights w(u, j)
  float* bound;                // person u: no object outside its list is worth more (+inf: no list yet)
  unsigned* next;              // the next person to start a chain from
  unsigned* owned;             // objects owned in this phase
  unsigned stop_at;            // the phase ends once this many are owned (n - opt.unassigned x n)
  unsigned long long max_bids; // or once it has made this many bids (bids_allowed)
  unsigned long long* counts;  // this phase's bids, lost bids, scans, then the tail's times (slot::)
};

// Slots of Auction::counts; tail + k: when the unassigned fell to 2^k (k = 32: to 0).
namespace slot {
constexpr int bids = 0, lost_bids = 1, scans = 2, first_take = 3, tail = 4;
}
constexpr int count_slots = slot::tail + 33;

__device__ inline unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// The best (value v1 of object j1, weight w1) and the second-best value v2.
template <class W>
struct Best {
  W v1, v2, w1;
  vertex_t j1;
};

template <class W>
__device__ inline Best<W> none_best() {
  return {-std::numeric_limits<W>::infinity(), -std::numeric_limits<W>::infinity(), W(0), no_vertex};
}

// a merged with b; the smaller index wins ties, so every lane of a butterfly
// ends with the same best.
template <class W>
__device__ inline Best<W> merge(Best<W> a, const Best<W>& b) {
  if (b.v1 > a.v1 || (b.v1 == a.v1 && unsigned(b.j1) < unsigned(a.j1))) {
    a.v2 = max(a.v1, b.v2);
    a.v1 = b.v1;
    a.j1 = b.j1;
    a.w1 = b.w1;
  } else {
    a.v2 = max(a.v2, b.v1);
  }
  return a;
}

template <class W>
__device__ inline Best<W> warp_best(Best<W> b) {
  for (int o = warp / 2; o > 0; o /= 2) {
    Best<W> other;
    other.v1 = __shfl_xor_sync(0xffffffffu, b.v1, o);
    other.v2 = __shfl_xor_sync(0xffffffffu, b.v2, o);
    other.w1 = __shfl_xor_sync(0xffffffffu, b.w1, o);
    other.j1 = __shfl_xor_sync(0xffffffffu, b.j1, o);
    b = merge(b, other);
  }
  return b;
}

// One lane's per_lane best objects of its slice (with their weights,
// best first) and the next value after them.
template <class W>
struct LaneTop {
  W v[per_lane + 1];
  W w[per_lane];
  vertex_t j[per_lane];

  __device__ LaneTop() {
#pragma unroll
    for (int k = 0; k <= per_lane; ++k) v[k] = -std::numeric_limits<W>::infinity();
#pragma unroll
    for (int k = 0; k < per_lane; ++k) {
      w[k] = W(0);
      j[k] = no_vertex;
    }
  }
  // The new entry sinks to its place, pushing the ones below it down; the
  // one pushed out of the list leaves its value as the next (unrolled:
  // registers only).
  __device__ void offer(W value, W weight, vertex_t obj) {
    if (!(value > v[per_lane])) return;
#pragma unroll
    for (int k = 0; k < per_lane; ++k)
      if (value > v[k]) {
        const W tv = v[k], tw = w[k];
        const vertex_t tj = j[k];
        v[k] = value;
        w[k] = weight;
        j[k] = obj;
        value = tv;
        weight = tw;
        obj = tj;
      }
    v[per_lane] = value;
  }
};

// Lane `lane`'s share of row u, 16 bytes a load where the row allows it:
// four floats when the row length is a multiple of 4, else two; two doubles.
// Objects from n up to the load's end (the row's padding) are skipped.
template <class W>
__device__ void scan_share(const Auction<W>& a, vertex_t u, int lane, LaneTop<W>& top) {
  const W* row = a.w + u * a.stride;
  const auto offer = [&](W weight, float price, vertex_t j) {
    if (j != u && j < a.n) top.offer(weight * a.unit - W(price), weight, j);
  };
  if constexpr (sizeof(W) == 4) {
    if (a.stride % 4 == 0) {  // rows start on 16 bytes
      const vertex_t quads = (a.n + 3) / 4;
#pragma unroll 4
      for (vertex_t k = lane; k < quads; k += warp) {
        const float4 wk = reinterpret_cast<const float4*>(row)[k];
        const float4 pk = __ldcg(reinterpret_cast<const float4*>(a.price) + k);
        offer(wk.x, pk.x, 4 * k);
        offer(wk.y, pk.y, 4 * k + 1);
        offer(wk.z, pk.z, 4 * k + 2);
        offer(wk.w, pk.w, 4 * k + 3);
      }
      return;
    }
  }
  using Pair = std::conditional_t<sizeof(W) == 4, float2, double2>;
  const vertex_t pairs = (a.n + 1) / 2;
#pragma unroll 4
  for (vertex_t k = lane; k < pairs; k += warp) {
    const Pair wk = reinterpret_cast<const Pair*>(row)[k];
    const float2 pk = __ldcg(reinterpret_cast<const float2*>(a.price) + k);
    offer(wk.x, pk.x, 2 * k);
    offer(wk.y, pk.y, 2 * k + 1);
  }
}

// Person u's best and second best by a scan of its row, which rebuilds its
// list and bound.
template <class W>
__device__ Best<W> scan_row(const Auction<W>& a, vertex_t u, int lane) {
  LaneTop<W> top;
  scan_share(a, u, lane, top);
  const long long at = static_cast<long long>(u) * listed + lane;
#pragma unroll
  for (int k = 0; k < per_lane; ++k) {
    __stcg(a.list + at + k * warp, top.j[k]);
    __stcg(a.list_w + at + k * warp, top.w[k]);
  }
  W next = top.v[per_lane];
  for (int o = warp / 2; o > 0; o /= 2) next = max(next, __shfl_xor_sync(0xffffffffu, next, o));
  if (lane == 0) {
    float b = float(next);
    if (W(b) < next) b = nextafterf(b, INFINITY);  // an upper bound in float
    __stcg(a.bound + u, b);
  }
  return warp_best(Best<W>{top.v[0], top.v[1], top.w[0], top.j[0]});
}

// Person u's best and second best from its list, when the list proves them
// (ok = false: scan).
template <class W>
__device__ Best<W> from_list(const Auction<W>& a, vertex_t u, int lane, bool& ok) {
  // The bound and the list are read together (a list not yet written is
  // read but not used: its bound is +inf).
  const long long at = static_cast<long long>(u) * listed + lane;
  const float bound = __ldcg(a.bound + u);
  vertex_t j[per_lane];
  W wj[per_lane];
#pragma unroll
  for (int k = 0; k < per_lane; ++k) {
    j[k] = __ldcg(a.list + at + k * warp);
    wj[k] = __ldcg(a.list_w + at + k * warp);
  }
  ok = false;
  if (bound == INFINITY) return none_best<W>();
  Best<W> mine = none_best<W>();
#pragma unroll
  for (int k = 0; k < per_lane; ++k)
    if (j[k] != no_vertex)
      mine = merge(mine, Best<W>{wj[k] * a.unit - W(__ldcg(a.price + j[k])), -std::numeric_limits<W>::infinity(),
                                 wj[k], j[k]});
  const Best<W> best = warp_best(mine);
  ok = best.v2 >= W(bound);
  return best;
}

// The asynchronous auction phase at this epsilon: persistent warps, chains.
template <class W>
__global__ void __launch_bounds__(block_threads) auction_phase(Auction<W> a, double epsilon) {
  const int lane = threadIdx.x % warp;
  unsigned long long lost = 0, scans = 0;  // lane 0's
  const auto take = [&] {
    const unsigned next = atomicAdd(a.next, 1u);
    if (next == 0) a.counts[slot::first_take] = now_ns();
    return static_cast<vertex_t>(next);
  };
  vertex_t u = lane == 0 ? take() : no_vertex;
  for (;;) {
    const bool go = lane == 0 && unsigned(u) < unsigned(a.n) && __ldcg(a.owned) < a.stop_at &&
                    __ldcg(a.counts + slot::bids) < a.max_bids;
    if (!__shfl_sync(0xffffffffu, go, 0)) break;  // done, or enough owned or bids: u stays unassigned
    u = __shfl_sync(0xffffffffu, u, 0);
    bool ok = false;
    Best<W> best = from_list(a, u, lane, ok);
    if (!ok) best = scan_row(a, u, lane);
    __syncwarp();
    if (lane == 0) {
      atomicAdd(a.counts + slot::bids, 1ULL);  // (the result unused: a reduction, no wait)
      scans += !ok;
      // n == 2: one object, no second best; any bid above the price will do.
      const double second = best.v2 == -std::numeric_limits<W>::infinity() ? double(best.v1) : double(best.v2);
      const float bid = __double2float_ru(double(best.w1) * double(a.unit) - second + epsilon);
      const unsigned long long mine = pack(bid, unsigned(u));
      __threadfence();  // the list written above before the word that hands u on
      const unsigned long long old = atomicMax(a.word + best.j1, mine);
      __threadfence();  // and the displaced person's list as its last bidder left it, before the lanes read it
      if (mine > old) {
        atomicMax(reinterpret_cast<unsigned*>(a.price) + best.j1, __float_as_uint(bid));
        const unsigned previous = unsigned(old);
        if (previous != nobody) {
          u = vertex_t(previous);
        } else {
          const unsigned left = unsigned(a.n) - (atomicAdd(a.owned, 1u) + 1);
          if ((left & (left - 1)) == 0) a.counts[slot::tail + (left == 0 ? 32 : __ffs(left) - 1)] = now_ns();
          u = take();
        }
      } else {  // outbid before us: bring the scans' price up to the word's and bid again
        ++lost;
        atomicMax(reinterpret_cast<unsigned*>(a.price) + best.j1, unsigned(old >> 32));
      }
    }
    __syncwarp();  // lane 0's fence before any lane reads the next person's list
  }
  if (lane == 0) {
    atomicAdd(a.counts + slot::lost_bids, lost);
    atomicAdd(a.counts + slot::scans, scans);
  }
}

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
