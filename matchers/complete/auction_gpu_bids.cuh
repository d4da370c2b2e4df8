// The bidding of auction-gpu, one phase at a fixed epsilon (the host loop,
// the scaling and the entry points are matchers/complete/auction_gpu.cu):
// persistent warps, each takes a person from a counter and bids for it: its
// best object j1 and second-best value, from its candidate list when the
// list proves them, else by a scan of its row (coalesced 16- or 8-byte
// loads) that rebuilds the list; then one atomicMax of (bid, person) on
// j1's 64-bit (price, owner) word, and on with the owner it displaced
// (suitor-gpu's chains). Values and prices are in units of the largest |w|.
// Source: Bertsekas 1988 sec. 2 and 4 (bids, epsilon-complementary
// slackness; the candidate lists are his reduced scan); Bertsekas and
// Castanon 1991 (bids from out-of-date prices, accepted only above the
// current price); the chains of Naim et al. 2015.
// Guarantee: each phase keeps epsilon-complementary slackness against the
// current prices under any interleaving (prices only rise; a stale bid
// fails or still keeps it), and ends when enough objects are owned or bids
// made (docs/algorithms/auction_gpu.md has the argument and the fences).
// Cost: a row scan (n weights, n prices) per person's first bid and per
// list that fails, 128 entries a bid the list proves. .cu files only.
#pragma once
#include <cuda_runtime.h>

#include <limits>
#include <type_traits>

#include "lib/types.hpp"

namespace matchblas::auction_gpu_detail {

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

}  // namespace matchblas::auction_gpu_detail
