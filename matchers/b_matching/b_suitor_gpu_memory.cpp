// What b-suitor-gpu holds on the device (declared in
// matchers/b_matching/b_matching.hpp), counted from b_suitor_gpu.cu's
// buffers: per vertex b (4 bytes), slot starts (8), floor and state words
// (8 + 8), cursor (4 + weight), four class lists (16), the slot caps' scan
// (4) and the result's scratch (kept counts, offsets, found lists: 20); per
// kept offer cap(v) = min(b(v), deg v) its slot word (8), found and final
// partner (4 + 4) and the segmented sort's copy (4); CUB's temporaries
// within a fixed 4 MiB. A rank's block over several ranks adds its two
// boxes of 16-byte messages (a round's proposals to other ranks' vertices
// and drops: one per kept offer of its rows, plus one per row). Runs on the host in every build (tests and
// benchmarks size --device-memory with it). Cost: O(n).
#include <algorithm>
#include <span>

#include "lib/error.hpp"
#include "matchers/b_matching/b_matching.hpp"

namespace matchblas {

namespace {

// Rows [first, end) held (resident or streamed), the state over all n
// vertices with weight words of weight_size bytes.
BSuitorGpuMemory memory_of(std::span<const offset_t> offsets, const std::vector<int>& b, vertex_t first, vertex_t end,
                           std::size_t weight_size) {
  BSuitorGpuMemory m;
  const std::size_t n = offsets.size() - 1;
  std::size_t caps = 0;
  for (std::size_t v = 0; v < n; ++v) {
    const offset_t degree = offsets[v + 1] - offsets[v];
    caps += std::size_t(std::min<offset_t>(b[v], degree));
    if (vertex_t(v) >= first && vertex_t(v) < end) m.longest_row = std::max(m.longest_row, degree);
  }
  m.state = n * (84 + weight_size) + caps * 20 + (std::size_t(4) << 20);
  m.offsets = (n + 1) * sizeof(offset_t);
  m.entries = std::size_t(offsets[std::size_t(end)] - offsets[std::size_t(first)]) * (sizeof(vertex_t) + weight_size);
  return m;
}

}  // namespace

template <class W>
BSuitorGpuMemory b_suitor_gpu_memory(const Csr<W>& g, const std::vector<int>& b) {
  detail::expect_b(g, b, "b_suitor_gpu_memory");
  return memory_of(std::span(g.offsets), b, 0, g.n_rows, sizeof(W));
}

BSuitorGpuMemory b_suitor_gpu_memory(std::span<const offset_t> offsets, const std::vector<int>& b, vertex_t first,
                                     vertex_t end) {
  MATCHBLAS_EXPECTS(b.size() + 1 == offsets.size() && first >= 0 && first <= end &&
                        std::size_t(end) < offsets.size(),
                    "b_suitor_gpu_memory: sizes");
  BSuitorGpuMemory m = memory_of(offsets, b, first, end, sizeof(float));
  std::size_t kept = 0;
  for (vertex_t v = first; v < end; ++v)
    kept += std::size_t(std::min<offset_t>(b[std::size_t(v)], offsets[std::size_t(v) + 1] - offsets[std::size_t(v)]));
  m.state += 2 * sizeof(BSuitorMessage) * (kept + std::size_t(end - first) + 1);
  return m;
}

template BSuitorGpuMemory b_suitor_gpu_memory(const Csr<float>&, const std::vector<int>&);
template BSuitorGpuMemory b_suitor_gpu_memory(const Csr<double>&, const std::vector<int>&);

}  // namespace matchblas
