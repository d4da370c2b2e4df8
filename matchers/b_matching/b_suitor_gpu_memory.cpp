// What b-suitor-gpu holds on the device (declared in
// matchers/b_matching/b_matching.hpp), counted from b_suitor_gpu.cu's
// buffers: per vertex b (4 bytes), slot starts (8), floor and state words
// (8 + 8), cursor (4 + weight), four class lists (16), the slot caps' scan
// (4) and the result's scratch (kept counts, offsets, found lists: 20); per
// kept offer cap(v) = min(b(v), deg v) its slot word (8), found and final
// partner (4 + 4) and the segmented sort's copy (4); CUB's temporaries
// within a fixed 4 MiB. Runs on the host in every build (tests and
// benchmarks size --device-memory with it). Cost: O(n).
#include <algorithm>

#include "matchers/b_matching/b_matching.hpp"

namespace matchblas {

template <class W>
BSuitorGpuMemory b_suitor_gpu_memory(const Csr<W>& g, const std::vector<int>& b) {
  detail::expect_b(g, b, "b_suitor_gpu_memory");
  BSuitorGpuMemory m;
  std::size_t caps = 0;
  for (vertex_t v = 0; v < g.n_rows; ++v) {
    const offset_t degree = g.offsets[v + 1] - g.offsets[v];
    caps += std::size_t(std::min<offset_t>(b[std::size_t(v)], degree));
    m.longest_row = std::max(m.longest_row, degree);
  }
  const std::size_t n = std::size_t(g.n_rows);
  m.state = n * (84 + sizeof(W)) + caps * 20 + (std::size_t(4) << 20);
  m.offsets = (n + 1) * sizeof(offset_t);
  m.entries = std::size_t(g.num_entries()) * (sizeof(vertex_t) + sizeof(W));
  return m;
}

template BSuitorGpuMemory b_suitor_gpu_memory(const Csr<float>&, const std::vector<int>&);
template BSuitorGpuMemory b_suitor_gpu_memory(const Csr<double>&, const std::vector<int>&);

}  // namespace matchblas
