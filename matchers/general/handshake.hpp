// Handshaking matching (the handshaking course project, "Parallel Graph Matching"): every vertex
// extends a hand to its strongest neighbour (heaviest edge, smallest index on
// ties); vertices that shake hands (choose each other) are matched; edges with
// a matched endpoint are filtered out and the edge list is compacted by an
// exclusive prefix sum; repeat until no edge is left.
// Written with the ops: argmax (strongest neighbour), assign (update
// matches), select + compaction (keep-edges, prefix sum, filter), each on
// `backend`; graphblas keeps the remaining edges resident in
// SuiteSparse:GraphBLAS (ops/graphblas_graph.hpp), imported once.
// Guarantee: each pass matches every locally dominant edge of the remaining
// graph, so the result is exactly Greedy's matching (docs/ARCHITECTURE.md
// "The greedy order"); hence
// 1/2-approximate, and independent of the thread count.
// Cost: O(passes x remaining entries) work; passes <= n/2, typically few.
#pragma once
#include "lib/csr.hpp"
#include "lib/matching.hpp"
#include "ops/argmax.hpp"
#include "ops/gpu/device_graph.hpp"

namespace matchblas {

template <class W>
Matching handshake(const Csr<W>& g, int threads = 0, ops::Backend backend = ops::Backend::automatic);

// handshake-gpu: the same pipeline on the device ops (matchers/general/handshake_gpu.cu);
// on a DeviceGraph, opt.device must be the graph's.
template <class W>
Matching handshake_gpu(const Csr<W>& g, const GpuOptions& opt = {}, GpuTimes* times = nullptr);
template <class W>
Matching handshake_gpu(const DeviceGraph<W>& g, const GpuOptions& opt = {}, GpuTimes* times = nullptr);

}  // namespace matchblas
