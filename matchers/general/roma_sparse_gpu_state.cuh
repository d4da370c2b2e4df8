// What roma-sparse-gpu's kernels share (matchers/general/roma_sparse_gpu.cu,
// the 2-augmentations; roma_sparse_gpu_long.cuh, the longer ones): the
// matching on the device, read at L2 while other threads change it; the
// vertex locks, taken all or none in increasing order (Hovland's atomicFlip
// discipline, Hovland 2020, Alg. 7, for any number of vertices); a phase's
// order of items; a weight looked up in a row. .cu files only.
#pragma once
#include <cuda_runtime.h>

#include <cmath>

#include "lib/types.hpp"
#include "ops/gpu/device_buffer.cuh"
#include "ops/gpu/warp_append.cuh"

namespace matchblas::roma_sparse_gpu_detail {

struct State {
  vertex_t* mate;
  double* mw;     // the weight of each vertex's matching edge, 0 when free
  int* lock;
  char* changed;  // set for each vertex whose mate an applied augmentation changed
  vertex_t* retry;
  int* retry_count;
  unsigned long long* flips;

  // Queues v to be searched again (it lost a race or a mate moved).
  __device__ void again(vertex_t v) const { gpu::append_by_warp(retry, retry_count, v); }
};

__device__ inline vertex_t mate_of(const State& s, vertex_t a) { return __ldcg(s.mate + a); }
__device__ inline double matched_of(const State& s, vertex_t a) { return __ldcg(s.mw + a); }

// w(a, b) by binary search in a's row (columns ascending); NaN when absent.
template <class W>
__device__ double weight_in_row(const gpu::CsrView<W>& g, vertex_t a, vertex_t b) {
  offset_t lo = g.offsets[a], hi = g.offsets[a + 1];
  while (lo < hi) {
    const offset_t mid = lo + (hi - lo) / 2;
    if (g.cols[mid] < b) lo = mid + 1;
    else hi = mid;
  }
  return lo < g.offsets[a + 1] && g.cols[lo] == b ? double(g.weights[lo]) : nan("");
}

// Sorts set[0, size) and moves its distinct real vertices (no_vertex
// dropped) to its front; returns their count. size is small (at most 2 L + 2).
__device__ inline int distinct_vertices(vertex_t* set, int size) {
  for (int i = 1; i < size; ++i)  // insertion sort
    for (int j = i; j > 0 && set[j - 1] > set[j]; --j) {
      const vertex_t t = set[j];
      set[j] = set[j - 1];
      set[j - 1] = t;
    }
  int count = 0;
  for (int i = 0; i < size; ++i)
    if (set[i] != no_vertex && (count == 0 || set[count - 1] != set[i])) set[count++] = set[i];
  return count;
}

// Locks set[0, count) (distinct, increasing) by atomicCAS, or none of them:
// at the first one taken, those held are released and false returned.
// Followed by a fence, so that the caller reads what the last holder wrote.
__device__ inline bool lock_all(int* lock, const vertex_t* set, int count) {
  int held = 0;
  for (; held < count; ++held)
    if (atomicCAS(lock + set[held], 0, 1) != 0) break;
  if (held < count) {
    for (int i = 0; i < held; ++i) atomicExch(lock + set[i], 0);
    return false;
  }
  __threadfence();
  return true;
}

// Releases what lock_all took, after a fence that publishes the writes made
// under the locks.
__device__ inline void unlock_all(int* lock, const vertex_t* set, int count) {
  __threadfence();
  for (int i = 0; i < count; ++i) atomicExch(lock + set[i], 0);
}

// Under the locks of a and of its mate: both made free.
__device__ inline void unmatch_locked(const State& s, vertex_t a) {
  volatile vertex_t* mate = s.mate;
  volatile double* mw = s.mw;
  const vertex_t b = mate[a];
  if (b == no_vertex) return;
  mate[a] = no_vertex, mate[b] = no_vertex;
  mw[a] = 0, mw[b] = 0;
}
// Under the locks of a and b (both free): paired by an edge of weight w.
__device__ inline void match_locked(const State& s, vertex_t a, vertex_t b, double w) {
  volatile vertex_t* mate = s.mate;
  volatile double* mw = s.mw;
  mate[a] = b, mate[b] = a;
  mw[a] = w, mw[b] = w;
}

// The order of a phase's items: item i of count is (a i + b) mod count, a
// coprime to count (a bijection), itself or list's entry at that place when
// list is set.
struct Order {
  const vertex_t* list = nullptr;
  unsigned long long a = 1, b = 0;
  __device__ vertex_t operator()(long long i, vertex_t count) const {
    const auto at = vertex_t((a * (unsigned long long)i + b) % (unsigned long long)count);
    return list ? list[at] : at;
  }
};

}  // namespace matchblas::roma_sparse_gpu_detail
