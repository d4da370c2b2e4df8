// The device level of cardinality-gpu (max_cardinality_gpu.cu), for the GPU
// entries that need a maximum matching of a matrix already on the device
// (awpm-gpu, max-sum-gpu). .cu files only.
#pragma once
#include "lib/types.hpp"
#include "matchers/bipartite/max_cardinality.hpp"
#include "ops/gpu/gpu_session.cuh"

namespace matchblas::gpu {

// A maximal matching of the m x n pattern offsets / cols into row_mate /
// col_mate (device arrays, all -1 on entry), on session's stream: each row
// takes the first free column from its middle entry on (compare-and-swap).
void greedy_start(const StreamSession& session, vertex_t m, const offset_t* offsets, const vertex_t* cols,
                  vertex_t* row_mate, vertex_t* col_mate);

// Augments row_mate / col_mate (device arrays: a valid matching of the m x n
// pattern offsets / cols, -1 where unmatched) to a maximum matching by
// phases of alternating BFS from every free row (APFB), all on session's
// stream; waits for the stream and returns the phases and levels searched.
GpuSearchCounts augment_to_maximum(const StreamSession& session, vertex_t m, vertex_t n, const offset_t* offsets,
                                   const vertex_t* cols, vertex_t* row_mate, vertex_t* col_mate);

}  // namespace matchblas::gpu
