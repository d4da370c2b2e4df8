// atomicFlip (seed 000 Alg. 7), shared by the ROMA GPU matchers
// (matchers/roma_gpu_thesis.cu, matchers/roma_gpu.cu). .cu files only.
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

#include "lib/types.hpp"

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
    if (mate[u] == v && mate[v] == u && mate[x] == y && mate[y] == x && accept()) {
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

}  // namespace matchblas::roma_gpu_detail
