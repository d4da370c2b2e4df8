// Maximum-cardinality matching of an m-by-n bipartite graph on the GPU (MC64
// job 1; registry entry cardinality-gpu, twin of cardinality).
//   Algorithm: a greedy start (every row claims the first free column from
//   its middle entry on by compare-and-swap: a maximal matching), then
//   phases of alternating breadth-first search from every free row at
//   once, one kernel per level:
//   a column is claimed by the first row that reaches it (its predecessor),
//   a matched column's row joins the next level carrying its root, so the
//   search trees are vertex-disjoint; the first tree to reach a free column
//   ends its root's search with an augmenting path. Every path found in a
//   phase is then flipped in parallel (disjoint trees: no conflicts). The
//   scheme is APFB of Deveci, Kaya, Ucar and Catalyurek, "GPU accelerated
//   maximum cardinality matching algorithms for bipartite graphs", Euro-Par
//   2013, sec. 3 (full BFS per phase, roots pruned once they found a path).
//   Guarantee: cardinality. A phase finds a path whenever one exists (the
//   columns the forest visits are exactly those reachable from a free row by
//   an alternating path, and the first free one reached ends a path of a
//   root that had none), so the loop ends at a maximum matching (Berge).
//   Which maximum matching depends on the schedule: not deterministic.
//   Cost: O(nnz) work per phase, at most min(m, n) + 1 phases (in practice
//   few). All phases run in one cooperative launch with a grid-wide barrier
//   per level, so a level costs a barrier, not a host round trip.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "lib/error.hpp"
#include "matchers/bipartite/max_cardinality.hpp"
#include "matchers/bipartite/max_cardinality_gpu.cuh"
#include "ops/gpu/gpu_session.cuh"
#include "ops/gpu/cuda_check.hpp"
#include "ops/gpu/device.hpp"
#include "ops/gpu/device_buffer.cuh"
#include "ops/gpu/launch.cuh"

namespace matchblas {
namespace {

namespace cg = cooperative_groups;

constexpr int block_size = 256;  // not tuned: the kernels are grid-stride loops over rows

// The greedy start: row i takes the first column no row holds yet
// (compare-and-swap on col_mate), trying its entries from the middle one
// on (wrapping round): a maximal matching. In a row of a matrix with a
// band or a mesh's pattern, its columns sorted, the middle entry is the
// diagonal or next to it whatever the rows' order, so the rows left free
// and the columns left free are near each other and the augmenting paths
// short; from the first entry every row leans the same way and the free
// rows end at one side of the mesh, the free columns at the other.
__global__ void greedy_claims(vertex_t m, const offset_t* offsets, const vertex_t* cols, vertex_t* row_mate,
                              vertex_t* col_mate) {
  for (long long i = gpu::grid_thread(); i < m; i += gpu::grid_threads()) {
    const offset_t begin = offsets[i], degree = offsets[i + 1] - begin;
    for (offset_t t = 0; t < degree; ++t) {
      const offset_t k = begin + (degree / 2 + t) % degree;
      const vertex_t j = cols[k];
      if (col_mate[j] == no_vertex && atomicCAS(&col_mate[j], no_vertex, vertex_t(i)) == no_vertex) {
        row_mate[i] = j;
        break;
      }
    }
  }
}

// The search state of one call, in device memory (a view passed by value).
struct SearchState {
  vertex_t m, n;
  const offset_t* offsets;
  const vertex_t* cols;
  vertex_t* row_mate;
  vertex_t* col_mate;
  vertex_t* col_pred;   // the row that claimed the column this phase, or -1
  vertex_t* root_of;    // the free row whose tree a row joined
  int* root_done;       // 1 once the root's tree reached a free column
  vertex_t* frontier[2];
  unsigned* counts;     // [0..2] level sizes (rotating), [3] paths, [4] phases, [5] levels
  vertex_t* endpoints;  // the free column ending each path found
};

// One BFS level: each frontier row whose root has no path yet scans its
// columns; a column it claims first (col_pred) either is free, which ends
// the root's search (root_done claimed: the endpoint is recorded), or leads
// to its mate row, which joins the next level under the same root.
__device__ void bfs_level(const SearchState& st, const vertex_t* frontier, unsigned size, vertex_t* next,
                          unsigned* next_count) {
  for (long long t = gpu::grid_thread(); t < size; t += gpu::grid_threads()) {
    const vertex_t i = frontier[t];
    const vertex_t root = st.root_of[i];
    for (offset_t k = st.offsets[i]; k < st.offsets[i + 1]; ++k) {
      if (st.root_done[root]) break;
      const vertex_t j = st.cols[k];
      if (st.col_pred[j] != no_vertex || atomicCAS(&st.col_pred[j], no_vertex, i) != no_vertex) continue;
      const vertex_t mate = st.col_mate[j];
      if (mate == no_vertex) {
        if (atomicCAS(&st.root_done[root], 0, 1) == 0) st.endpoints[atomicAdd(&st.counts[3], 1u)] = j;
        break;
      }
      st.root_of[mate] = root;
      next[atomicAdd(next_count, 1u)] = mate;
    }
  }
}

// Every phase in one cooperative launch, a grid-wide barrier between steps
// (no host round trip per level): reset the phase's marks; the roots (every
// free row with an entry); BFS levels until the forest stops growing, the
// level sizes in three rotating counters (the one two levels ahead is zeroed
// while no thread touches it); then each path found flipped, from its free
// column back to its root. Ends at a phase without roots or without paths.
__global__ void augmenting_phases(SearchState st) {
  cg::grid_group grid = cg::this_grid();
  const long long first = gpu::grid_thread(), stride = gpu::grid_threads();
  while (true) {
    for (long long j = first; j < st.n; j += stride) st.col_pred[j] = no_vertex;
    for (long long i = first; i < st.m; i += stride) st.root_done[i] = 0;
    if (first == 0) {
      st.counts[0] = st.counts[1] = st.counts[2] = st.counts[3] = 0;
      ++st.counts[4];
    }
    grid.sync();
    for (long long i = first; i < st.m; i += stride)
      if (st.row_mate[i] == no_vertex && st.offsets[i + 1] > st.offsets[i]) {
        st.root_of[i] = vertex_t(i);
        st.frontier[0][atomicAdd(&st.counts[0], 1u)] = vertex_t(i);
      }
    grid.sync();
    if (st.counts[0] == 0) return;  // every thread reads the same value
    for (unsigned level = 0;; ++level) {
      const unsigned size = st.counts[level % 3];
      if (size == 0) break;
      if (first == 0) {
        st.counts[(level + 2) % 3] = 0;
        ++st.counts[5];
      }
      // The frontiers by a select: indexing the parameter's array at a
      // runtime position would copy the whole state to local memory.
      const bool odd = level % 2 != 0;
      bfs_level(st, odd ? st.frontier[1] : st.frontier[0], size, odd ? st.frontier[0] : st.frontier[1],
                &st.counts[(level + 1) % 3]);
      grid.sync();
    }
    const unsigned paths = st.counts[3];
    if (paths == 0) return;
    for (long long t = first; t < paths; t += stride) {
      vertex_t j = st.endpoints[t];
      while (true) {  // paths are vertex-disjoint: no other thread touches these
        const vertex_t i = st.col_pred[j];
        const vertex_t previous = st.row_mate[i];
        st.row_mate[i] = j;
        st.col_mate[j] = i;
        if (previous == no_vertex) break;
        j = previous;
      }
    }
    grid.sync();
  }
}

}  // namespace

namespace gpu {

void greedy_start(const StreamSession& session, vertex_t m, const offset_t* offsets, const vertex_t* cols,
                  vertex_t* row_mate, vertex_t* col_mate) {
  if (m == 0) return;
  greedy_claims<<<grid_for(m, block_size, max_blocks_per_sm * session.sms()), block_size, 0, session.stream()>>>(
      m, offsets, cols, row_mate, col_mate);
  MATCHBLAS_CUDA_CHECK_LAUNCH();
}

GpuSearchCounts augment_to_maximum(const StreamSession& session, vertex_t m, vertex_t n, const offset_t* offsets,
                                   const vertex_t* cols, vertex_t* row_mate, vertex_t* col_mate) {
  if (m == 0 || n == 0) return {};
  const cudaStream_t s = session.stream();
  DeviceBuffer<vertex_t> col_pred(std::size_t(n), s), root_of(std::size_t(m), s), frontier0(std::size_t(m), s),
      frontier1(std::size_t(m), s), endpoints(std::size_t(m), s);
  DeviceBuffer<int> root_done(std::size_t(m), s);
  DeviceBuffer<unsigned> counts(6, s);
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(counts.data(), 0, sizeof(unsigned) * 6, s));
  SearchState st{m,         n,          offsets,          cols, row_mate, col_mate, col_pred.data(), root_of.data(),
                 root_done.data(), {frontier0.data(), frontier1.data()}, counts.data(), endpoints.data()};
  launch_cooperative(augmenting_phases, block_size, session.device(), session.sms(), s, st);
  unsigned host_counts[6] = {};
  MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(host_counts, counts.data(), sizeof host_counts, cudaMemcpyDeviceToHost, s));
  session.synchronize();
  return {host_counts[4], host_counts[5]};
}

}  // namespace gpu

BipartiteMates max_cardinality_bipartite_gpu(const Csr<double>& a, const GpuOptions& opt, GpuTimes* times,
                                             GpuSearchCounts* counts_out) {
  check_bipartite_csr(a);
  check_gpu_options(opt);
  gpu::use_device("cardinality-gpu", opt.device);
  const vertex_t m = a.n_rows, n = a.n_cols;
  BipartiteMates out;
  out.row_mate.assign(std::size_t(m), no_vertex);
  out.col_mate.assign(std::size_t(n), no_vertex);
  if (m == 0 || n == 0 || a.num_entries() == 0) return out;

  gpu::StreamSession session(opt.device, opt.stream);
  const cudaStream_t s = session.stream();
  gpu::Event start, uploaded, matched, done;
  start.record(s);
  const auto offsets = gpu::DeviceBuffer<offset_t>::from_host(std::span<const offset_t>(a.offsets), s);
  const auto cols = gpu::DeviceBuffer<vertex_t>::from_host(std::span<const vertex_t>(a.cols), s);
  uploaded.record(s);
  gpu::DeviceBuffer<vertex_t> row_mate(std::size_t(m), s), col_mate(std::size_t(n), s);
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(row_mate.data(), 0xff, sizeof(vertex_t) * m, s));
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(col_mate.data(), 0xff, sizeof(vertex_t) * n, s));
  gpu::greedy_start(session, m, offsets.data(), cols.data(), row_mate.data(), col_mate.data());
  const GpuSearchCounts counts =
      gpu::augment_to_maximum(session, m, n, offsets.data(), cols.data(), row_mate.data(), col_mate.data());
  matched.record(s);
  row_mate.to_host(std::span(out.row_mate), s);
  col_mate.to_host(std::span(out.col_mate), s);
  done.record(s);
  session.synchronize();
  out.matched = vertex_t(std::count_if(out.row_mate.begin(), out.row_mate.end(), [](vertex_t j) { return j != no_vertex; }));
  if (counts_out) *counts_out = counts;
  if (times) {
    times->upload_s = uploaded.since(start);
    times->match_s = matched.since(uploaded);
    times->download_s = done.since(matched);
  }
  return out;
}

}  // namespace matchblas
