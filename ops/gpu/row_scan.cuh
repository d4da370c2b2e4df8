// The strided row scan the GPU ops and matchers share: a lane of a group of
// `width` lanes visits entries first, first + width, ... of row u in order,
// with Batch entries loaded before any is visited, so that a lane has Batch
// loads in flight instead of one (on the H100 this took suitor-gpu, the
// GPU-Suitor of M. Naim, F. Manne, M. Halappanavar, A. Tumeo, J. Langguth,
// "Optimizing approximate weighted matching on Nvidia Kepler K40", HiPC 2015,
// from 11.9 to 4.9 ms on R-MAT scale 23); and the running best of such a
// scan. .cu files only.
#pragma once
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

// f(v, w) for each visited entry (column v, weight w), in row order.
template <int Batch = 4, class W, class F>
__device__ void for_strided_entries(const CsrView<W>& g, vertex_t u, int first, int width, F&& f) {
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
#pragma unroll
    for (int j = 0; j < Batch; ++j)
      if (v[j] != no_vertex) f(v[j], w[j]);
  }
}

}  // namespace matchblas::gpu
