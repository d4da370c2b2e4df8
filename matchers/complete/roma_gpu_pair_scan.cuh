// The pieces roma-gpu's two phase kernels (matchers/complete/roma_gpu_cluster.cuh,
// roma_gpu_stream.cuh) are composed of: the cluster kernel's launch
// constants, the worklist and its select predicate, the counts of edges
// past the gain bound, the pair barrier, the control warp's queue of pairs,
// the copy of two rows into shared memory (widening bf16 to float), the
// candidate flip with its warp reductions, and the control warp's flip.
// .cu files only; roma_gpu.cu states the algorithm, its source and its
// guarantee.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <limits>
#include <type_traits>

#include "lib/types.hpp"
#include "matchers/complete/roma.hpp"
#include "matchers/complete/atomic_flip.cuh"

namespace matchblas::roma_gpu_detail {

constexpr int cluster_block = 512;              // warp 0 controls, warps 1.. work
constexpr int workers = cluster_block - 32;
constexpr int worker_warps = workers / 32;
constexpr int queue_grab = 16;               // the most worklist entries taken from the counter at once

// cw[x]: the weight of x's matching edge and x's mate, kept together in
// step with the flips (steering only: the truth is `mate`).
template <class W>
struct alignas(2 * sizeof(W) >= 8 ? 2 * sizeof(W) : 8) WeightMate {
  W w;
  vertex_t mate;
};

template <class W>
struct Candidate {
  W gain;
  vertex_t a, b;  // u's and v's new mates
  W wua, wvb;     // w[u, a] and w[v, b], from the rows on chip
};

// w[u, j] and w[v, j] side by side: one shared-memory load (local or remote)
// brings both.
template <class W>
struct alignas(2 * sizeof(W)) RowPair {
  W u, v;
};

// The cluster leader's queue of candidate representatives (its control warp).
struct PairQueue {
  vertex_t u[queue_grab];
  int head, len;            // written by lane 0 of the control warp
  vertex_t next_u, next_v;  // the pair the cluster takes next; -1: the phase is done
};

// The pairs a phase scans: the representatives pairs[0, *count) (every
// u < M[u], or under RomaScan::changed those whose edge changed in the
// previous phase), chosen when the phase starts; *scanned counts the pairs
// taken.
struct Worklist {
  const vertex_t* pairs;
  const unsigned* count;
  unsigned long long* scanned;
};

// changed[x]: the last phase in which x's matching edge changed, or in which
// a flip of it was chosen and refused (-1: none); written for every flip.
struct ChangeStamps {
  int* changed;
  int phase;
};

// What the phase kernels report for the choice of the next phase's kernel
// (roma_gpu.cu): edges past the gain bound and pairs taken; and the row
// maxima, recorded by either kernel for the rows it reads (NaN until then:
// the stream kernel reads a row's maximum first where its entry is NaN,
// since a NaN in the bound would silently drop the edges).
template <class W>
struct BoundStats {
  unsigned long long* past;
  unsigned long long* pairs;
  W* top;  // [n]
};

// A worker thread's count of edges past the bound, added once at the end.
template <class W>
__device__ void add_past_bound(BoundStats<W> s, unsigned past) {
  const unsigned warp_sum = __reduce_add_sync(~0u, past);
  if ((threadIdx.x & 31) == 0 && warp_sum > 0) atomicAdd(s.past, static_cast<unsigned long long>(warp_sum));
}

// Whether representative x's pair is on phase `phase`'s worklist: every
// pair, or (RomaScan::changed, from phase 1 on) one whose edge changed in
// the previous phase (both ends carry the stamp; either is enough).
struct ToScan {
  const vertex_t* mate;
  const int* changed;
  int phase;
  bool every_pair;
  __device__ bool operator()(vertex_t x) const {
    const vertex_t y = mate[x];
    return x < y && (every_pair || changed_since_previous_phase(changed[x], phase) ||
                     changed_since_previous_phase(changed[y], phase));
  }
};

// A worker block's cluster barrier (S2, S3): every thread arrives, and only
// when `release` does its arrival publish its earlier writes (a fence).
// Warp 1 holds the thread that writes the block's slice maxima and best
// flip after a named barrier of all the workers, so its release (cumulative)
// publishes the whole block's rows and results, and orders every worker's
// loads of the pair (all made before that named barrier) before any write
// that follows the barrier elsewhere. Warp 0 of a block other than the
// leader is not in the named barrier (it only reads the leader's queue), so
// it arrives with release too. The other warps arrive relaxed, without the
// fence. (Against every thread fencing: 2-3% off 8 phases on the H100,
// bench/RESULTS.md.)
inline __device__ void pair_barrier(bool release) {
  if (release) asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
  else asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
  asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

// The control warp of rank 0 (all 32 lanes): the next pair (u, M[u]) with u
// from the worklist and u < M[u], M[u] read now; -1 when the worklist is
// used up (`count` entries). Guided self-scheduling: a grab takes a quarter
// of an even share of what is left, 1 to queue_grab entries, so the
// clusters run out together (a pair costs about 10 us, so a grab of 16 at
// the end of a short worklist would leave one cluster busy for 160 us).
inline __device__ void take_next_pair(PairQueue& q, unsigned* counter, const volatile vertex_t* mate,
                                      const vertex_t* pairs, unsigned count, unsigned clusters) {
  const unsigned lane = threadIdx.x & 31;
  for (;;) {
    const int head = q.head, len = q.len;
    __syncwarp();       // read by every lane before lane 0 writes
    if (head == len) {  // refill
      unsigned base = 0, grab = 0;
      if (lane == 0) {
        const unsigned seen = *static_cast<volatile unsigned*>(counter);
        const unsigned left = seen < count ? count - seen : 0;
        grab = max(1u, min(unsigned(queue_grab), left / (4 * clusters)));
        base = atomicAdd(counter, grab);
      }
      base = __shfl_sync(~0u, base, 0);
      grab = __shfl_sync(~0u, grab, 0);
      if (base >= count) {
        if (lane == 0) q.next_u = q.next_v = no_vertex;
        __syncwarp();
        return;
      }
      const bool in_grab = lane < grab && base + lane < count;
      const vertex_t x = in_grab ? pairs[base + lane] : no_vertex;
      const bool candidate = in_grab && x < mate[x];
      const unsigned found = __ballot_sync(~0u, candidate);
      if (candidate) q.u[__popc(found & ((1u << lane) - 1))] = x;
      if (lane == 0) q.head = 0, q.len = __popc(found);
      __syncwarp();
      continue;
    }
    vertex_t u = no_vertex, v = no_vertex;
    if (lane == 0) {
      u = q.u[head];
      q.head = head + 1;
      v = mate[u];
    }
    u = __shfl_sync(~0u, u, 0);
    v = __shfl_sync(~0u, v, 0);
    __syncwarp();  // the new head before any lane reads it
    if (u < v) {
      if (lane == 0) q.next_u = u, q.next_v = v;
      __syncwarp();
      return;
    }
  }
}

// A stored weight as a computed one (bf16 storage widens to float).
template <class W, class S>
__device__ W widen(S s) {
  if constexpr (std::is_same_v<S, W>) return s;
  else return W(__bfloat162float(s));
}

// The workers copy columns [0, len) of rows u and v (from ru, rv, stored as
// S) into rows[0, len) as W, 16-byte streaming loads where the rows allow
// them. Returns the largest of the entries this thread copied, per row.
template <class W, class S>
__device__ RowPair<W> copy_rows(RowPair<W>* rows, const S* ru, const S* rv, long long len, int worker) {
  constexpr int per = 16 / sizeof(S);
  RowPair<W> top{-std::numeric_limits<W>::infinity(), -std::numeric_limits<W>::infinity()};
  long long done = 0;
  if (reinterpret_cast<std::uintptr_t>(ru) % 16 == 0 && reinterpret_cast<std::uintptr_t>(rv) % 16 == 0) {
    const long long vecs = len / per;
    const uint4* u4 = reinterpret_cast<const uint4*>(ru);
    const uint4* v4 = reinterpret_cast<const uint4*>(rv);
#pragma unroll 4
    for (long long i = worker; i < vecs; i += workers) {
      const uint4 a = __ldcs(u4 + i), b = __ldcs(v4 + i);
      const S* as = reinterpret_cast<const S*>(&a);
      const S* bs = reinterpret_cast<const S*>(&b);
      W aw[per], bw[per];
#pragma unroll
      for (int k = 0; k < per; ++k) aw[k] = widen<W>(as[k]), bw[k] = widen<W>(bs[k]);
      if constexpr (sizeof(W) == 4) {  // 16-byte stores (8-byte ones conflict on the banks)
        float4* out = reinterpret_cast<float4*>(rows + i * per);
#pragma unroll
        for (int k = 0; k < per; k += 2) out[k / 2] = make_float4(aw[k], bw[k], aw[k + 1], bw[k + 1]);
      } else {
#pragma unroll
        for (int k = 0; k < per; ++k) rows[i * per + k] = {aw[k], bw[k]};
      }
#pragma unroll
      for (int k = 0; k < per; ++k) {
        top.u = max(top.u, aw[k]);
        top.v = max(top.v, bw[k]);
      }
    }
    done = vecs * per;
  }
  for (long long i = done + worker; i < len; i += workers) {
    const RowPair<W> e{widen<W>(__ldcs(ru + i)), widen<W>(__ldcs(rv + i))};
    rows[i] = e;
    top.u = max(top.u, e.u);
    top.v = max(top.v, e.v);
  }
  return top;
}

// Offers best the flip of the pair (u, v) with the matching edge (x, y),
// whose current weight with (u, v) is `current`: the better of {u, x},
// {v, y} and {u, y}, {v, x}, from w[u, x], w[v, x] (ax, bx) and w[u, y],
// w[v, y] (ay, by). Both phase kernels' scans end in it.
template <class W>
__device__ void offer_flip(Candidate<W>& best, vertex_t x, vertex_t y, W current, W ax, W bx, W ay, W by) {
  const W w1 = ax + by, w2 = ay + bx;
  if (w1 > w2) {
    if (w1 - current > best.gain) best = {w1 - current, x, y, ax, by};
  } else if (w2 - current > best.gain) {
    best = {w2 - current, y, x, ay, bx};
  }
}

// The largest of a warp's gains, the scans' bound threshold (gains are >= 0,
// so float bits order as unsigned integers); double keeps each lane's own.
template <class W>
__device__ W warp_threshold(W gain) {
  if constexpr (sizeof(W) == 4) return __uint_as_float(__reduce_max_sync(~0u, __float_as_uint(gain)));
  else return gain;
}

template <class W>
__device__ Candidate<W> warp_best(Candidate<W> c) {
  for (int d = 16; d > 0; d /= 2) {
    Candidate<W> o;
    o.gain = __shfl_down_sync(~0u, c.gain, d);
    o.a = __shfl_down_sync(~0u, c.a, d);
    o.b = __shfl_down_sync(~0u, c.b, d);
    o.wua = __shfl_down_sync(~0u, c.wua, d);
    o.wvb = __shfl_down_sync(~0u, c.wvb, d);
    if (o.gain > c.gain) c = o;
  }
  return c;  // in lane 0
}

// A flip chosen for (u, v), made by the control warp (the cluster leader's,
// or the stream block's) while the workers go on with the next pair.
template <class W>
struct PendingFlip {
  vertex_t u, v;
  W wuv;
  Candidate<W> c;
};

template <class W, class S>
__device__ bool flip_pending(const PendingFlip<W>& f, const S* w, vertex_t n, vertex_t* mate, WeightMate<W>* cw,
                             vertex_t* locks, unsigned long long* flips, W min_gain, ChangeStamps stamps) {
  const Candidate<W>& c = f.c;
  const vertex_t x = min(c.a, c.b), y = max(c.a, c.b);
  const W wxy = widen<W>(w[static_cast<long long>(x) * n + y]);  // weights never change: read before the locks
  const bool flipped = atomic_flip(
      mate, locks, f.u, f.v, c.a, c.b, flips, [&] { return (c.wua + c.wvb) - (f.wuv + wxy) > min_gain; },
      [&] {
        cw[f.u] = {c.wua, c.a};
        cw[c.a] = {c.wua, f.u};
        cw[f.v] = {c.wvb, c.b};
        cw[c.b] = {c.wvb, f.v};
        stamps.changed[c.a] = stamps.changed[c.b] = stamps.phase;
        __threadfence();  // whoever sees the new mates sees these
      });
  // Flipped or refused, (u, v) is scanned again next phase: a refused flip
  // may hide a second-best one.
  stamps.changed[f.u] = stamps.changed[f.v] = stamps.phase;
  return flipped;
}

// The control warp (all 32 lanes; lane i holds candidate c, or none) flips
// the pair (u, v) with the candidates in order of gain until one flip is
// made, (u, v) itself has changed, or none above min_gain is left. The
// candidates name distinct pairs (x, y) (each from its own columns: a
// warp's in the stream phase, a block's in the cluster phase), so when the
// best is refused (its pair taken by a flip of another pair in flight, or
// locked) the next is still a 4-cycle of (u, v) with its own gain,
// re-checked under the locks like the first. A flip made after a refusal
// also adds 1 to *fallbacks. (Against the best alone, on the H100:
// geometric weights at n = 16384 reach their final weight in 5 phases
// instead of 8; the other weights unchanged; bench/RESULTS.md.)
template <class W, class S>
__device__ void flip_in_gain_order(Candidate<W> c, vertex_t u, vertex_t v, W wuv, const S* w, vertex_t n,
                                   vertex_t* mate, WeightMate<W>* cw, vertex_t* locks, unsigned long long* flips,
                                   unsigned long long* fallbacks, W min_gain, ChangeStamps stamps) {
  const int lane = threadIdx.x & 31;
  for (int round = 0;; ++round) {  // at most 32 rounds: each drops a candidate
    const bool live = c.a != no_vertex && c.gain > min_gain;
    W top = live ? c.gain : -std::numeric_limits<W>::infinity();
    for (int d = 16; d > 0; d /= 2) top = max(top, __shfl_xor_sync(~0u, top, d));
    const unsigned holders = __ballot_sync(~0u, live && c.gain == top);
    if (holders == 0) return;
    const int holder = __ffs(holders) - 1;
    bool done = false;
    if (lane == holder) {
      const bool flipped = flip_pending(PendingFlip<W>{u, v, wuv, c}, w, n, mate, cw, locks, flips, min_gain, stamps);
      if (flipped && round > 0) atomicAdd(fallbacks, 1ULL);
      done = flipped || static_cast<const volatile vertex_t*>(mate)[u] != v;
      c.a = no_vertex;
    }
    if (__shfl_sync(~0u, done, holder)) return;
  }
}

}  // namespace matchblas::roma_gpu_detail
