// A warp-aggregated append to a device list: the threads of a warp that
// append together take one atomicAdd on the list's counter between them
// (its first thread adds their number, the others take consecutive slots
// after it), instead of one atomic each, which serialises millions of
// appends on one word. Order within the list is unspecified. .cu files only.
#pragma once
#include <cooperative_groups.h>

#include "lib/types.hpp"

namespace matchblas::gpu {

// Appends x to list, counted by *count; call from the threads that append
// now (those of a warp that call together share one atomic).
__device__ inline void append_by_warp(vertex_t* list, int* count, vertex_t x) {
  namespace cg = cooperative_groups;
  const cg::coalesced_group same = cg::coalesced_threads();
  int at = 0;
  if (same.thread_rank() == 0) at = atomicAdd(count, int(same.size()));
  list[same.shfl(at, 0) + same.thread_rank()] = x;
}

}  // namespace matchblas::gpu
