// roma-gpu's stream phase (matchers/complete/roma_gpu.cu chooses it unless the
// scans gather much on rows too large for L2): a block per
// matched pair (u, v) at a time, rows u and v read straight from memory
// once, in 16-byte loads, with no copy into shared memory and no cluster
// barrier; its gathers at once, or queued (scan_pair).
// Source: Hovland 2020 sec. 3.5 (Alg. 4-5) and sec. 4.1 (Alg. 8: a block per
// matching edge, a strided scan, a block max-reduction), with three
// changes: the current weight and mate of each edge from cw (8 bytes a
// column from L2) instead of a gather into row x; an upper bound of each
// edge's gain from the maxima of rows u and v (BoundStats::top, recorded
// by the cluster phase for the rows it copies, else read here first, in
// one more pass over the row, when a pair meets a row no phase has read),
// so that only an edge past it gathers w[u, y] and w[v, y] (rows just
// streamed, so mostly from L2); and a persistent grid taking pairs from the
// worklist.
// How a pair runs: the control warp (warp 0) names the block's next pair,
// with its rows' maxima as far as known, while warps 1-31 scan the current
// one, each lane one 16-byte load of each row a load (four float columns,
// eight bf16, two double; one column where rows are not 16-byte aligned),
// two steps' loads in flight (one for bf16 and in the queued form), the
// warp sharing its best gain as the bound's threshold after each step;
// after one block barrier the control warp tries the warps' candidates in
// order of gain until one flips (flip_in_gain_order) while the workers
// scan the next pair.
// Guarantee and the races: roma_gpu.cu.
// Cost per pair: 8 n bytes of rows from memory (float; 4 n for bf16) and
// n x 8 bytes of cw from L2, one block barrier; per edge past the bound,
// two gathers (from L2 while the rows of the pairs in flight fit it,
// 132 x 8 n bytes on the H100, else 32-byte sectors from memory). On the
// H100 a phase with few edges past the bound runs at 1.15-1.3x its read
// floor (bench/RESULTS.md). .cu files only.
#pragma once
#include <cuda_runtime.h>

#include <limits>
#include <type_traits>

#include "matchers/complete/roma_gpu_pair_scan.cuh"

namespace matchblas::roma_gpu_detail {

// `per` consecutive columns of a row from one 16-byte load (per = 16 /
// sizeof(S), rows 16-byte aligned), or one column (per = 1).
template <class W, class S, int per>
struct RowChunk {
  W v[per];
  __device__ void load(const S* row, long long x) {
    if constexpr (per == 1) {
      v[0] = widen<W>(__ldg(row + x));
    } else {
      static_assert(per * sizeof(S) == 16);
      const uint4 raw = __ldg(reinterpret_cast<const uint4*>(row + x));
      const S* s = reinterpret_cast<const S*>(&raw);
#pragma unroll
      for (int k = 0; k < per; ++k) v[k] = widen<W>(s[k]);
    }
  }
};

// cw[x, x + per) from L2 (16-byte loads where they cover whole entries).
template <class W, int per>
struct CwChunk {
  WeightMate<W> e[per];
  __device__ void load(const WeightMate<W>* cw, long long x) {
    if constexpr (sizeof(W) == 4 && per % 2 == 0) {
#pragma unroll
      for (int k = 0; k < per; k += 2) {
        const uint4 raw = __ldcg(reinterpret_cast<const uint4*>(cw + x + k));
        e[k] = {__uint_as_float(raw.x), vertex_t(raw.y)};
        e[k + 1] = {__uint_as_float(raw.z), vertex_t(raw.w)};
      }
    } else if constexpr (sizeof(W) == 4) {
      const uint2 raw = __ldcg(reinterpret_cast<const uint2*>(cw + x));
      e[0] = {__uint_as_float(raw.x), vertex_t(raw.y)};
    } else {
#pragma unroll
      for (int k = 0; k < per; ++k) {
        const ulonglong2 raw = __ldcg(reinterpret_cast<const ulonglong2*>(cw + x + k));
        e[k] = {W(__longlong_as_double(static_cast<long long>(raw.x))), vertex_t(unsigned(raw.y))};
      }
    }
  }
};

constexpr int stream_block = 1024;  // warp 0 controls, warps 1-31 scan; one block an SM
constexpr int scan_warps = stream_block / 32 - 1;

// An edge (x, y) past the bound, waiting in its warp's ring for the gathers
// of w[u, y] and w[v, y] (scan_pair, queued); `current` = w[u, v] + w[x, y].
template <class W>
struct PassedEdge {
  vertex_t x, y;
  W current, ax, bx;  // and w[u, x], w[v, x]
};
// For double the whole entry would take 63 KB of the 48 KB of static shared
// memory: w[u, x] and w[v, x] are read again (from L1, just loaded).
template <>
struct PassedEdge<double> {
  vertex_t x, y;
  double current;
};
constexpr unsigned passed_slots = 64;  // a warp's ring: under 32 waiting, plus one column's 32

// A scanning warp's best flip of the pair (u, v) (in lane 0): its lanes take
// columns [step + lane per, + per) for warp-uniform steps over [0, n), the
// warp's best gain so far the bound's threshold after each step; `past`
// counts the edges past the bound. An edge past the bound gathers w[u, y]
// and w[v, y]:
//   - at once (queued = false), two steps' loads in flight (one for bf16).
//     The warp waits for a round of gathers at every column where any lane
//     has such an edge: fine when few do (the steady phases) or when nearly
//     every column does (geometric weights);
//   - queued (queued = true): the edges wait in the warp's ring
//     passed[head, tail) (warp-uniform counters), and 32 at a time, one a
//     lane, gather together: one round per 32 such edges, where a scan
//     passes the bound on a few percent of its edges (busy phases). One
//     step's loads in flight (two spill), the next step's rows prefetched
//     into L2 instead.
template <class W, class S, int per, bool queued>
__device__ Candidate<W> scan_pair(const S* __restrict__ w, vertex_t n, const WeightMate<W>* cw, vertex_t u,
                                  vertex_t v, W top_u, W top_v, W min_gain, PassedEdge<W>* passed, unsigned& past) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const long long stride = static_cast<long long>(scan_warps) * 32 * per;
  const S* ru = w + static_cast<long long>(u) * n;
  const S* rv = w + static_cast<long long>(v) * n;
  const W wuv = widen<W>(__ldg(ru + v));
  Candidate<W> best{W(0), no_vertex, no_vertex, W(0), W(0)};
  W threshold = min_gain;
  unsigned head = 0, tail = 0;  // the ring's (queued)
  auto gather_and_offer = [&](unsigned count) {  // the ring's `count` oldest edges
    __syncwarp();
    if (lane < count) {
      const PassedEdge<W> e = passed[(head + lane) % passed_slots];
      W ax, bx;
      if constexpr (std::is_same_v<W, double>) ax = widen<W>(__ldg(ru + e.x)), bx = widen<W>(__ldg(rv + e.x));
      else ax = e.ax, bx = e.bx;
      offer_flip(best, e.x, e.y, e.current, ax, bx, widen<W>(__ldg(ru + e.y)), widen<W>(__ldg(rv + e.y)));
    }
    head += count;
    __syncwarp();
  };
  // Column x, gathers at once (a lane by itself).
  auto consider = [&](long long x, WeightMate<W> cwx, W ax, W bx) {
    const vertex_t y = cwx.mate;
    if (!(x < y)) return;  // each matching edge once, from its smaller end
    const W current = wuv + cwx.w;
    if (!(max(ax + top_v, top_u + bx) - current > max(best.gain, threshold))) return;
    ++past;
    if (x == u || x == v || y == u || y == v) return;
    offer_flip(best, vertex_t(x), y, current, ax, bx, widen<W>(__ldg(ru + y)), widen<W>(__ldg(rv + y)));
  };
  // Column x, queued (every lane at once; in_range false past n).
  auto queue = [&](long long x, bool in_range, WeightMate<W> cwx, W ax, W bx) {
    const vertex_t y = cwx.mate;
    const W current = wuv + cwx.w;
    const bool pass = in_range && x < y && max(ax + top_v, top_u + bx) - current > max(best.gain, threshold);
    past += pass;
    const bool keep = pass && !(x == u || x == v || y == u || y == v);
    const unsigned keeping = __ballot_sync(~0u, keep);
    if (keep) {
      PassedEdge<W>& e = passed[(tail + __popc(keeping & ((1u << lane) - 1))) % passed_slots];
      e.x = vertex_t(x), e.y = y, e.current = current;
      if constexpr (!std::is_same_v<W, double>) e.ax = ax, e.bx = bx;
    }
    tail += __popc(keeping);
    if (tail - head >= 32) gather_and_offer(32);
  };
  constexpr int batch = queued || per >= 8 ? 1 : 2;  // steps in flight
  for (long long step = static_cast<long long>(warp - 1) * 32 * per; step < n; step += batch * stride) {
    const long long base = step + lane * per;
    if (queued && base + stride < n) {  // the next step's rows into L2 (no registers held)
      asm volatile("prefetch.global.L2 [%0];" ::"l"(ru + base + stride));
      asm volatile("prefetch.global.L2 [%0];" ::"l"(rv + base + stride));
    }
    RowChunk<W, S, per> a[batch], b[batch];
    CwChunk<W, per> c[batch];
#pragma unroll
    for (int s = 0; s < batch; ++s) {
      const long long x = base + s * stride;
      if (x < n) a[s].load(ru, x), b[s].load(rv, x), c[s].load(cw, x);
    }
#pragma unroll
    for (int s = 0; s < batch; ++s) {
      const long long x = base + s * stride;  // x < n: so are x + j (n % per == 0)
      if constexpr (queued) {
#pragma unroll
        for (int j = 0; j < per; ++j) queue(x + j, x < n, c[s].e[j], a[s].v[j], b[s].v[j]);
      } else {
        if (x >= n) break;
#pragma unroll
        for (int j = 0; j < per; ++j) consider(x + j, c[s].e[j], a[s].v[j], b[s].v[j]);
      }
    }
    threshold = max(min_gain, warp_threshold(best.gain));
  }
  if constexpr (queued) gather_and_offer(tail - head);
  return warp_best(best);
}

// This scanning warp's share of the maxima of rows u and v (those the flags
// ask for; -inf for the others), in lane 0.
template <class W, class S, int per>
__device__ RowPair<W> warp_row_maxima(const S* __restrict__ w, vertex_t n, vertex_t u, vertex_t v, bool of_u,
                                      bool of_v) {
  const long long stride = static_cast<long long>(scan_warps) * 32 * per;
  RowPair<W> top{-std::numeric_limits<W>::infinity(), -std::numeric_limits<W>::infinity()};
  for (long long x = static_cast<long long>(threadIdx.x - 32) * per; x < n; x += stride) {
    if (of_u) {
      RowChunk<W, S, per> c;
      c.load(w + static_cast<long long>(u) * n, x);
#pragma unroll
      for (int j = 0; j < per; ++j) top.u = max(top.u, c.v[j]);
    }
    if (of_v) {
      RowChunk<W, S, per> c;
      c.load(w + static_cast<long long>(v) * n, x);
#pragma unroll
      for (int j = 0; j < per; ++j) top.v = max(top.v, c.v[j]);
    }
  }
  for (int d = 16; d > 0; d /= 2) {
    top.u = max(top.u, __shfl_down_sync(~0u, top.u, d));
    top.v = max(top.v, __shfl_down_sync(~0u, top.v, d));
  }
  return top;
}

// One phase: a persistent grid of blocks, each taking pairs from the
// worklist. Every thread meets the same block barriers, one a pair: before
// barrier k the control warp names pair k + 1 (slot (k + 1) & 1) while the
// others scan pair k (slot k & 1) and leave their warps' best in
// per_warp[k & 1]; after it the control warp flips pair k (its candidates
// in order of gain) while the
// others scan pair k + 1.
template <class W, class S, int per, bool queued>
__global__ void __launch_bounds__(stream_block, 1)
    roma_stream_phase(const S* __restrict__ w, vertex_t n, vertex_t* mate, WeightMate<W>* cw, vertex_t* locks,
                      unsigned* counter, unsigned long long* flips, unsigned long long* fallbacks, W min_gain,
                      Worklist list,
                      ChangeStamps stamps, BoundStats<W> stats) {
  __shared__ Candidate<W> per_warp[2][scan_warps];
  __shared__ vertex_t pair_u[2], pair_v[2];
  __shared__ RowPair<W> pair_top[2];  // top[u], top[v] when the pair was named (NaN: not yet known)
  __shared__ RowPair<W> top_shares[scan_warps];
  __shared__ PassedEdge<W> passed[queued ? scan_warps : 1][queued ? passed_slots : 1];
  __shared__ PairQueue queue;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  // The control warp names the pair in `slot`, with its rows' maxima as far
  // as they are known (read once, so that every scanning thread agrees).
  auto name_next = [&](int slot) {
    take_next_pair(queue, counter, mate, list.pairs, *list.count, gridDim.x);
    if (lane == 0) {
      pair_u[slot] = queue.next_u, pair_v[slot] = queue.next_v;
      if (queue.next_u != no_vertex) pair_top[slot] = {stats.top[queue.next_u], stats.top[queue.next_v]};
    }
  };
  if (warp == 0) {
    if (lane == 0) queue.head = queue.len = 0;
    __syncwarp();
    name_next(0);
  }
  __syncthreads();
  unsigned past = 0;
  int k = 0;  // pairs taken
  for (;; ++k) {
    const vertex_t u = pair_u[k & 1], v = pair_v[k & 1];
    if (u == no_vertex) break;  // the same for every thread
    // A pair with a row no phase has read yet reads that row's maximum first
    // (then the scan finds the row mostly in L2): the same for every thread,
    // and one more block barrier for the shares.
    RowPair<W> top = pair_top[k & 1];
    const bool of_u = isnan(top.u), of_v = isnan(top.v);
    if (warp == 0) {
      name_next((k + 1) & 1);
    } else if (of_u || of_v) {
      const RowPair<W> share = warp_row_maxima<W, S, per>(w, n, u, v, of_u, of_v);
      if (lane == 0) top_shares[warp - 1] = share;
    }
    if (of_u || of_v) {
      __syncthreads();  // the shares of the maxima
      if (warp > 0) {
        RowPair<W> read = top_shares[0];
        for (int s = 1; s < scan_warps; ++s) {
          read.u = max(read.u, top_shares[s].u);
          read.v = max(read.v, top_shares[s].v);
        }
        if (of_u) top.u = read.u;
        if (of_v) top.v = read.v;
        if (threadIdx.x == 32) {
          if (of_u) stats.top[u] = top.u;
          if (of_v) stats.top[v] = top.v;
        }
      }
    }
    if (warp > 0) {
      PassedEdge<W>* ring = passed[queued ? warp - 1 : 0];
      const Candidate<W> best = scan_pair<W, S, per, queued>(w, n, cw, u, v, top.u, top.v, min_gain, ring, past);
      if (lane == 0) per_warp[k & 1][warp - 1] = best;
    }
    __syncthreads();  // pair k scanned; pair k + 1 named
    if (warp == 0) {
      Candidate<W> c{W(0), no_vertex, no_vertex, W(0), W(0)};
      if (lane < scan_warps) c = per_warp[k & 1][lane];
      const W wuv = widen<W>(w[static_cast<long long>(u) * n + v]);
      flip_in_gain_order(c, u, v, wuv, w, n, mate, cw, locks, flips, fallbacks, min_gain, stamps);
      __syncwarp();
    }
  }
  if (warp > 0) add_past_bound(stats, past);
  else if (lane == 0 && k > 0) atomicAdd(list.scanned, 0ULL + k), atomicAdd(stats.pairs, 0ULL + k);
}

}  // namespace matchblas::roma_gpu_detail
