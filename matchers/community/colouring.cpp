// The greedy colouring in vertex order, in rounds on the threads and one
// pass (colouring.hpp).
#include "matchers/community/colouring.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "lib/interrupt.hpp"
#include "lib/omp_threads.hpp"

namespace matchblas::community {

namespace {

// The rest of the greedy colouring in one pass in vertex order: each vertex
// not yet coloured takes the smallest colour its coloured neighbours leave
// free (its lower neighbours are coloured by then; its higher ones are not,
// as a vertex is coloured only after all its lower neighbours).
void colour_in_order(const Csr<double>& g, std::vector<vertex_t>& colour) {
  std::vector<vertex_t> seen_by;  // seen_by[c] == u: colour c is taken for u
  for (vertex_t u = 0; u < g.n_rows; ++u) {
    if (u % 65536 == 0) check_interrupt();
    if (colour[std::size_t(u)] != no_vertex) continue;
    for (offset_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      const vertex_t c = colour[std::size_t(g.cols[e])];
      if (c == no_vertex) continue;
      if (std::size_t(c) >= seen_by.size()) seen_by.resize(std::size_t(c) + 1, no_vertex);
      seen_by[std::size_t(c)] = u;
    }
    vertex_t c = 0;
    while (std::size_t(c) < seen_by.size() && seen_by[std::size_t(c)] == u) ++c;
    colour[std::size_t(u)] = c;
  }
}

// The greedy colouring's first vertices in rounds on t threads: a vertex in
// the round after its last lower neighbour, while a round has at least
// parallel_from vertices; the rest stay no_vertex.
void colour_in_rounds(const Csr<double>& g, int t, std::vector<vertex_t>& colour) {
  constexpr std::size_t parallel_from = 4096;
  const vertex_t n = g.n_rows;
  // pending[v]: v's entries to lower vertices not yet coloured.
  std::vector<vertex_t> pending(static_cast<std::size_t>(n));
#pragma omp parallel for num_threads(t) schedule(dynamic, 4096)
  for (vertex_t v = 0; v < n; ++v) {
    vertex_t lower = 0;
    for (offset_t e = g.offsets[v]; e < g.offsets[v + 1]; ++e) lower += vertex_t(g.cols[e] < v);
    pending[std::size_t(v)] = lower;
  }
  std::vector<vertex_t> frontier;
  for (vertex_t v = 0; v < n; ++v)
    if (pending[std::size_t(v)] == 0) frontier.push_back(v);
  // Per thread: the vertices its colourings made ready, and its seen_by.
  std::vector<std::vector<vertex_t>> ready(static_cast<std::size_t>(t)), seen_by(static_cast<std::size_t>(t));
  AllocationGuard guard;
  while (frontier.size() >= parallel_from) {
    check_interrupt();
    const std::int64_t count = std::int64_t(frontier.size());
#pragma omp parallel num_threads(t)
    {
      const std::size_t me = std::size_t(omp_get_thread_num());
      std::vector<vertex_t>& mine = ready[me];
      std::vector<vertex_t>& seen = seen_by[me];
#pragma omp for schedule(dynamic, 256)
      for (std::int64_t i = 0; i < count; ++i) guard.run([&] {
        const vertex_t u = frontier[std::size_t(i)];
        for (offset_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
          const vertex_t w = g.cols[e];
          if (w >= u) continue;
          const vertex_t cw = colour[std::size_t(w)];  // coloured in an earlier round (a symmetric graph)
          if (cw == no_vertex) continue;
          if (std::size_t(cw) >= seen.size()) seen.resize(std::size_t(cw) + 1, no_vertex);
          seen[std::size_t(cw)] = u;
        }
        std::size_t c = 0;
        while (c < seen.size() && seen[c] == u) ++c;
        colour[std::size_t(u)] = vertex_t(c);
        for (offset_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
          const vertex_t w = g.cols[e];
          if (w <= u) continue;
          vertex_t left;
#pragma omp atomic capture
          left = --pending[std::size_t(w)];
          if (left == 0) mine.push_back(w);
        }
      });
    }
    guard.rethrow();
    frontier.clear();
    for (std::vector<vertex_t>& part : ready) {
      frontier.insert(frontier.end(), part.begin(), part.end());
      part.clear();
    }
  }
}

}  // namespace

Colouring greedy_colouring(const Csr<double>& g, int threads) {
  const vertex_t n = g.n_rows;
  const int t = threads > 0 ? threads : omp_get_max_threads();
  Colouring out;
  out.colour.assign(static_cast<std::size_t>(n), no_vertex);
  if (t >= rounds_from_threads) colour_in_rounds(g, t, out.colour);
  colour_in_order(g, out.colour);
  // The classes in vertex order.
  vertex_t colours = 0;
  for (vertex_t c : out.colour) colours = std::max(colours, c + 1);
  std::vector<std::size_t> size(static_cast<std::size_t>(colours), 0);
  for (vertex_t c : out.colour) ++size[std::size_t(c)];
  out.classes.resize(std::size_t(colours));
  for (vertex_t c = 0; c < colours; ++c) out.classes[std::size_t(c)].reserve(size[std::size_t(c)]);
  for (vertex_t u = 0; u < n; ++u) out.classes[std::size_t(out.colour[std::size_t(u)])].push_back(u);
  return out;
}

}  // namespace matchblas::community
