// A warp-aggregated append to a device list: the threads of a warp that
// append together take one atomicAdd on the list's counter between them
// (its first thread adds their number, the others take consecutive slots
// after it), instead of one atomic each, which serialises millions of
// appends on one word; and the same by class, into one of several lists.
// Order within a list is unspecified. .cu files only.
#pragma once
#include <cooperative_groups.h>

#include "lib/types.hpp"

namespace matchblas::gpu {

// The next free slot of a list counted by *count, for each calling thread
// (distinct slots; the threads of a warp that call together share one atomic).
__device__ inline int claim_by_warp(int* count) {
  namespace cg = cooperative_groups;
  const cg::coalesced_group same = cg::coalesced_threads();
  int at = 0;
  if (same.thread_rank() == 0) at = atomicAdd(count, int(same.size()));
  return same.shfl(at, 0) + int(same.thread_rank());
}

// Appends x to list, counted by *count; call from the threads that append
// now (those of a warp that call together share one atomic).
__device__ inline void append_by_warp(vertex_t* list, int* count, vertex_t x) { list[claim_by_warp(count)] = x; }

// Appends x to lists[cls], counted by counts[cls] (cls < 0: to none); the
// threads of a warp that append to one class together share one atomic.
template <int Classes>
__device__ void append_by_class(vertex_t* const (&lists)[Classes], int* counts, int cls, vertex_t x) {
#pragma unroll
  for (int c = 0; c < Classes; ++c)  // the threads of one class together
    if (cls == c) append_by_warp(lists[c], counts + c, x);
}

}  // namespace matchblas::gpu
