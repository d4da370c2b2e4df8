// The strided row scan the GPU ops and matchers share: a lane of a group of
// `width` lanes visits entries first, first + width, ... of row u in order,
// with Batch entries loaded before any is visited, so that a lane has Batch
// loads in flight instead of one (on the H100 this took suitor-gpu, the
// GPU-Suitor of M. Naim, F. Manne, M. Halappanavar, A. Tumeo, J. Langguth,
// "Optimizing approximate weighted matching on Nvidia Kepler K40", HiPC 2015,
// from 11.9 to 4.9 ms on R-MAT scale 23); the running best of such a
// scan; and a group's best few entries of a row (each lane's best in a
// LaneTop, merged by a TileGroup: b-suitor-gpu's proposals, b-ld-gpu's
// lists). .cu files only.
#pragma once
#include <cooperative_groups.h>

#include "lib/greedy_order.hpp"
#include "lib/types.hpp"
#include "ops/gpu/device_buffer.cuh"

namespace matchblas::gpu {

// A neighbour of some vertex and its edge weight (no_vertex: none); offer
// keeps the better of the two under neighbour_beats (the scans' running best).
template <class W>
struct BestNeighbour {
  vertex_t v = no_vertex;
  W w = W(0);
  __device__ void offer(vertex_t ov, W ow) {
    if (ov != no_vertex && (v == no_vertex || neighbour_beats(ow, ov, w, v))) {
      v = ov;
      w = ow;
    }
  }
};

// f(v, w) for each batch of Batch visited entries in row order (arrays of
// columns and weights, no_vertex past the row's end), all loaded before f
// runs.
template <int Batch, class W, class F>
__device__ void for_strided_batches(const CsrView<W>& g, vertex_t u, int first, int width, F&& f) {
  const offset_t end = g.offsets[u + 1];
  for (offset_t k = g.offsets[u] + first; k < end; k += offset_t(Batch) * width) {
    vertex_t v[Batch];
    W w[Batch];
#pragma unroll
    for (int j = 0; j < Batch; ++j) {
      const offset_t kk = k + offset_t(j) * width;
      v[j] = kk < end ? g.cols[kk] : no_vertex;
      w[j] = kk < end ? g.weights[kk] : W(0);
    }
    f(v, w);
  }
}

// f(v, w) for each visited entry (column v, weight w), in row order.
template <int Batch = 4, class W, class F>
__device__ void for_strided_entries(const CsrView<W>& g, vertex_t u, int first, int width, F&& f) {
  for_strided_batches<Batch>(g, u, first, width, [&](const vertex_t (&v)[Batch], const W (&w)[Batch]) {
#pragma unroll
    for (int j = 0; j < Batch; ++j)
      if (v[j] != no_vertex) f(v[j], w[j]);
  });
}

// A lane's best entries of a row scan (best first, under neighbour_beats),
// at most `limit` <= K of them; the caller admits an entry (and may then
// test it, e.g. with a random read) before inserting it, so that a test
// runs only for an entry that would enter the list.
//
// Registers only: every index into v and w is a constant once the loops
// unroll, and no guard compares a constant index with a runtime value for
// equality (from `if (i == size - 1) x = v[i]` the compiler rebuilds the
// load v[size - 1], and the arrays go to local memory: on the H100 that
// local traffic was most of the L2 writes of b-suitor-gpu's scans). So
// the last entry is kept apart, and a position is picked by `j <= i`
// chains (pick).
template <class T, int K>
__device__ T pick(const T (&a)[K], int i) {  // a[i], 0 <= i < K, through `j <= i` guards
  T x = a[0];
#pragma unroll
  for (int j = 1; j < K; ++j)
    if (j <= i) x = a[j];
  return x;
}

template <class W, int K>
struct LaneTop {
  vertex_t v[K] = {};
  W w[K] = {};
  int size = 0;
  vertex_t last_v = no_vertex;  // entry size - 1
  W last_w = W(0);
  __device__ bool admits(vertex_t x, W xw, int limit) const {
    return size < limit || neighbour_beats(xw, x, last_w, last_v);
  }
  __device__ void insert(vertex_t x, W xw, int limit) {  // after admits
    size = min(size + 1, limit);
    bool done = false;
#pragma unroll
    for (int i = K - 1; i >= 0; --i) {
      if (done || i >= size) continue;
      if (i > 0 && neighbour_beats(xw, x, w[i - 1], v[i - 1])) {
        v[i] = v[i - 1];
        w[i] = w[i - 1];
      } else {
        v[i] = x;
        w[i] = xw;
        done = true;
      }
    }
    last_v = pick(v, size - 1);
    last_w = pick(w, size - 1);
  }
  __device__ BestNeighbour<W> head() const {  // entry 0, or none
    return size > 0 ? BestNeighbour<W>{v[0], w[0]} : BestNeighbour<W>{};
  }
  __device__ void pop() {  // drops entry 0
#pragma unroll
    for (int i = 0; i + 1 < K; ++i) {
      v[i] = v[i + 1];
      w[i] = w[i + 1];
    }
    size = max(size - 1, 0);
  }
};

// A tile of G lanes of a warp scanning one row together. Every member
// calls each function (control flow is uniform in a tile).
template <int G>
struct TileGroup {
  static constexpr int size = G;
  cooperative_groups::thread_block_tile<G> t;
  __device__ int rank() const { return t.thread_rank(); }
  __device__ bool leader() const { return t.thread_rank() == 0; }
  template <class T>
  __device__ T from_leader(T x) const {
    return t.shfl(x, 0);
  }
  template <class W>
  __device__ BestNeighbour<W> best(BestNeighbour<W> b) const {  // butterfly: every lane ends with the best
    for (int offset = G / 2; offset > 0; offset >>= 1) b.offer(t.shfl_xor(b.v, offset), t.shfl_xor(b.w, offset));
    return b;
  }
  __device__ bool any(bool x) const { return t.any(x); }
  __device__ void sync() const { t.sync(); }  // with memory ordering among the lanes
};

// A block of B threads scanning one row together (B a multiple of 32),
// with B / 32 shared slots for its warps' bests and one shared word. Every
// thread calls each function.
template <int B, class W>
struct BlockGroup {
  static constexpr int size = B;
  vertex_t* warp_v;  // shared, B / 32 each
  W* warp_w;
  unsigned long long* word;  // shared, one
  __device__ int rank() const { return threadIdx.x; }
  __device__ bool leader() const { return threadIdx.x == 0; }
  template <class T>
  __device__ T from_leader(T x) const {
    static_assert(sizeof(T) <= sizeof(unsigned long long));
    __syncthreads();  // everyone has read the previous value
    if (leader()) memcpy(word, &x, sizeof(T));
    __syncthreads();
    memcpy(&x, word, sizeof(T));
    return x;
  }
  __device__ BestNeighbour<W> best(BestNeighbour<W> b) const {
    for (int offset = 16; offset > 0; offset >>= 1)
      b.offer(__shfl_xor_sync(0xffffffffu, b.v, offset), __shfl_xor_sync(0xffffffffu, b.w, offset));
    __syncthreads();
    if (threadIdx.x % 32 == 0) {
      warp_v[threadIdx.x / 32] = b.v;
      warp_w[threadIdx.x / 32] = b.w;
    }
    __syncthreads();
    for (int k = 0; k < B / 32; ++k) b.offer(warp_v[k], warp_w[k]);
    return b;
  }
  __device__ bool any(bool x) const { return __syncthreads_or(x) != 0; }
  __device__ void sync() const { __syncthreads(); }
};

// A group's best entries, best first, from its lanes' LaneTop lists:
// `limit` rounds of the best head, popped from its lane (entries from
// c.size on are unspecified; read them by pick). Exact: the best
// `limit` entries of the row each rank among their own lane's best
// `limit`, so each is in its lane's list. Fewer only when the lanes hold
// fewer. Valid in every lane (Group::best ends uniform).
template <class W, int K>
struct Candidates {
  vertex_t v[K];
  W w[K];
  int size = 0;
};

template <class Group, class W, int K>
__device__ Candidates<W, K> merge_candidates(const Group& group, LaneTop<W, K> mine, int limit) {
  Candidates<W, K> c;
  limit = min(limit, K);
  for (int round = 0; round < limit; ++round) {
    const BestNeighbour<W> head = mine.head();
    const BestNeighbour<W> best = group.best(head);
    if (best.v == no_vertex) break;  // uniform: every lane has the same best
    if (head.v == best.v) mine.pop();
#pragma unroll
    for (int j = 0; j < K; ++j)  // into c.size and the places after it (see LaneTop)
      if (j >= c.size) c.v[j] = best.v, c.w[j] = best.w;
    ++c.size;
  }
  return c;
}

}  // namespace matchblas::gpu
