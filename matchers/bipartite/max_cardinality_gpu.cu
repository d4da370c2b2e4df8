// Maximum-cardinality matching of an m-by-n bipartite graph on the GPU (MC64
// job 1; registry entry cardinality-gpu, twin of cardinality).
//   Algorithm: a greedy start (every row claims its first free column by
//   compare-and-swap: a maximal matching), then phases of alternating
//   breadth-first search from every free row at once, one kernel per level:
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
//   few); each BFS level costs a 4-byte read back for the next level's size.
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "lib/error.hpp"
#include "matchers/bipartite/max_cardinality.hpp"
#include "matchers/gpu_session.cuh"
#include "ops/gpu/cuda_check.hpp"
#include "ops/gpu/device.hpp"
#include "ops/gpu/device_buffer.cuh"
#include "ops/gpu/launch.cuh"

namespace matchblas {
namespace {

constexpr int block_size = 256;  // not tuned: the kernels are grid-stride loops over rows

// The greedy start: row i takes the first column of its row that no row
// holds yet (compare-and-swap on col_mate): a maximal matching.
__global__ void greedy_start(vertex_t m, const offset_t* offsets, const vertex_t* cols, vertex_t* row_mate,
                             vertex_t* col_mate) {
  for (long long i = gpu::grid_thread(); i < m; i += gpu::grid_threads()) {
    for (offset_t k = offsets[i]; k < offsets[i + 1]; ++k) {
      const vertex_t j = cols[k];
      if (col_mate[j] == no_vertex && atomicCAS(&col_mate[j], no_vertex, vertex_t(i)) == no_vertex) {
        row_mate[i] = j;
        break;
      }
    }
  }
}

// The phase's roots: every free row with an entry, each its own root.
__global__ void free_rows(vertex_t m, const offset_t* offsets, const vertex_t* row_mate, vertex_t* root_of,
                          vertex_t* frontier, unsigned* count) {
  for (long long i = gpu::grid_thread(); i < m; i += gpu::grid_threads())
    if (row_mate[i] == no_vertex && offsets[i + 1] > offsets[i]) {
      root_of[i] = vertex_t(i);
      frontier[atomicAdd(count, 1u)] = vertex_t(i);
    }
}

// One BFS level: each frontier row whose root has no path yet scans its
// columns; a column it claims first (col_pred) either is free, which ends
// the root's search (root_done claimed: the endpoint is recorded), or leads
// to its mate row, which joins the next level under the same root.
__global__ void bfs_level(const vertex_t* frontier, unsigned size, const offset_t* offsets, const vertex_t* cols,
                          const vertex_t* col_mate, vertex_t* col_pred, vertex_t* root_of, int* root_done,
                          vertex_t* next, unsigned* next_count, vertex_t* endpoints, unsigned* endpoint_count) {
  for (long long t = gpu::grid_thread(); t < size; t += gpu::grid_threads()) {
    const vertex_t i = frontier[t];
    const vertex_t root = root_of[i];
    for (offset_t k = offsets[i]; k < offsets[i + 1]; ++k) {
      if (root_done[root]) break;
      const vertex_t j = cols[k];
      if (col_pred[j] != no_vertex || atomicCAS(&col_pred[j], no_vertex, i) != no_vertex) continue;
      const vertex_t mate = col_mate[j];
      if (mate == no_vertex) {
        if (atomicCAS(&root_done[root], 0, 1) == 0) endpoints[atomicAdd(endpoint_count, 1u)] = j;
        break;
      }
      root_of[mate] = root;
      next[atomicAdd(next_count, 1u)] = mate;
    }
  }
}

// Flips each path found, from its free column back to its root (a free row).
__global__ void augment(const vertex_t* endpoints, unsigned count, const vertex_t* col_pred, vertex_t* row_mate,
                        vertex_t* col_mate) {
  for (long long t = gpu::grid_thread(); t < count; t += gpu::grid_threads()) {
    vertex_t j = endpoints[t];
    while (true) {
      const vertex_t i = col_pred[j];
      const vertex_t previous = row_mate[i];
      row_mate[i] = j;
      col_mate[j] = i;
      if (previous == no_vertex) break;
      j = previous;
    }
  }
}

unsigned read_count(const gpu::DeviceBuffer<unsigned>& d, cudaStream_t s) {
  unsigned h = 0;
  MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(&h, d.data(), sizeof h, cudaMemcpyDeviceToHost, s));
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
  return h;
}

}  // namespace

BipartiteMates max_cardinality_bipartite_gpu(const Csr<double>& a, const GpuOptions& opt, GpuTimes* times) {
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
  gpu::DeviceBuffer<vertex_t> row_mate(std::size_t(m), s), col_mate(std::size_t(n), s), col_pred(std::size_t(n), s),
      root_of(std::size_t(m), s), frontier(std::size_t(m), s), next(std::size_t(m), s), endpoints(std::size_t(m), s);
  gpu::DeviceBuffer<int> root_done(std::size_t(m), s);
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(row_mate.data(), 0xff, sizeof(vertex_t) * m, s));
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(col_mate.data(), 0xff, sizeof(vertex_t) * n, s));
  const long long cap = gpu::max_blocks_per_sm * session.sms();
  const auto grid = [&](long long items) { return gpu::grid_for(items, block_size, cap); };

  greedy_start<<<grid(m), block_size, 0, s>>>(m, offsets.data(), cols.data(), row_mate.data(), col_mate.data());
  MATCHBLAS_CUDA_CHECK_LAUNCH();
  gpu::DeviceBuffer<unsigned> next_count(1, s), endpoint_count(1, s), root_count(1, s);
  while (true) {
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(col_pred.data(), 0xff, sizeof(vertex_t) * n, s));
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(root_done.data(), 0, sizeof(int) * m, s));
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(root_count.data(), 0, sizeof(unsigned), s));
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(endpoint_count.data(), 0, sizeof(unsigned), s));
    free_rows<<<grid(m), block_size, 0, s>>>(m, offsets.data(), row_mate.data(), root_of.data(), frontier.data(),
                                             root_count.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    unsigned size = read_count(root_count, s);
    if (size == 0) break;
    while (size > 0) {
      MATCHBLAS_CUDA_TRY(cudaMemsetAsync(next_count.data(), 0, sizeof(unsigned), s));
      bfs_level<<<grid(size), block_size, 0, s>>>(frontier.data(), size, offsets.data(), cols.data(), col_mate.data(),
                                                  col_pred.data(), root_of.data(), root_done.data(), next.data(),
                                                  next_count.data(), endpoints.data(), endpoint_count.data());
      MATCHBLAS_CUDA_CHECK_LAUNCH();
      size = read_count(next_count, s);
      std::swap(frontier, next);
    }
    const unsigned paths = read_count(endpoint_count, s);
    if (paths == 0) break;
    augment<<<grid(paths), block_size, 0, s>>>(endpoints.data(), paths, col_pred.data(), row_mate.data(),
                                               col_mate.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
  }
  matched.record(s);
  row_mate.to_host(std::span(out.row_mate), s);
  col_mate.to_host(std::span(out.col_mate), s);
  done.record(s);
  session.synchronize();
  out.matched = vertex_t(std::count_if(out.row_mate.begin(), out.row_mate.end(), [](vertex_t j) { return j != no_vertex; }));
  if (times) {
    times->upload_s = uploaded.since(start);
    times->match_s = matched.since(uploaded);
    times->download_s = done.since(matched);
  }
  return out;
}

}  // namespace matchblas
