// The 1D edge-balanced partition and one rank's part (dist_graph.hpp).
#include "matchers/distributed/dist_graph.hpp"

#include <algorithm>
#include <numeric>

#include "lib/error.hpp"
#include "lib/greedy_order.hpp"

namespace matchblas {

int DistGraph::owner(vertex_t v) const {
  // The last boundary <= v; empty blocks share their boundary with the next.
  return int(std::upper_bound(first.begin(), first.end() - 1, v) - first.begin()) - 1;
}

std::size_t DistGraph::bytes() const {
  return first.size() * sizeof(vertex_t) + offsets.size() * sizeof(offset_t) + cols.size() * sizeof(vertex_t) +
         weights.size() * sizeof(double) + ghosts.size() * sizeof(vertex_t);
}

std::vector<vertex_t> edge_balanced_blocks(const std::vector<offset_t>& offsets, int ranks) {
  MATCHBLAS_EXPECTS(ranks >= 1, "edge_balanced_blocks: ranks must be at least 1");
  MATCHBLAS_EXPECTS(!offsets.empty(), "edge_balanced_blocks: offsets must hold n + 1 entries");
  const vertex_t n = vertex_t(offsets.size() - 1);
  const double total = double(offsets.back()) + double(n);
  std::vector<vertex_t> first(std::size_t(ranks) + 1, n);
  first[0] = 0;
  for (int r = 1; r < ranks; ++r) {
    const double target = total * r / ranks;
    // The first u with offsets[u] + u >= target (a monotone sequence).
    vertex_t lo = first[r - 1], hi = n;
    while (lo < hi) {
      const vertex_t mid = lo + (hi - lo) / 2;
      if (double(offsets[mid]) + double(mid) >= target) hi = mid;
      else lo = mid + 1;
    }
    first[r] = lo;
  }
  return first;
}

template <class W>
DistGraph distribute(const Csr<W>& g, int rank, int ranks) {
  MATCHBLAS_EXPECTS(g.n_rows == g.n_cols, "distribute: a general graph is square");
  MATCHBLAS_EXPECTS(ranks >= 1 && rank >= 0 && rank < ranks, "distribute: rank must be in 0..ranks-1");
  DistGraph d;
  d.rank = rank;
  d.ranks = ranks;
  d.n = g.n_rows;
  d.edges = num_edges(g);
  d.first = edge_balanced_blocks(g.offsets, ranks);
  const vertex_t begin = d.begin(), count = d.count();
  d.offsets.assign(std::size_t(count) + 1, 0);
  for (vertex_t i = 0; i < count; ++i) d.offsets[i + 1] = d.offsets[i] + g.degree(begin + i);
  d.cols.resize(std::size_t(d.offsets[count]));
  d.weights.resize(d.cols.size());
  std::vector<offset_t> order;
  for (vertex_t i = 0; i < count; ++i) {
    const vertex_t u = begin + i;
    const offset_t lo = g.offsets[u], deg = g.degree(u);
    order.resize(std::size_t(deg));
    std::iota(order.begin(), order.end(), lo);
    std::sort(order.begin(), order.end(), [&](offset_t a, offset_t b) {
      return neighbour_beats(g.weights[a], g.cols[a], g.weights[b], g.cols[b]);
    });
    for (offset_t k = 0; k < deg; ++k) {
      const vertex_t v = g.cols[order[k]];
      d.cols[d.offsets[i] + k] = v;
      d.weights[d.offsets[i] + k] = double(g.weights[order[k]]);  // float -> double keeps the order
      if (!d.owns(v)) {
        ++d.cross_entries;
        d.ghosts.push_back(v);
      }
    }
  }
  std::sort(d.ghosts.begin(), d.ghosts.end());
  d.ghosts.erase(std::unique(d.ghosts.begin(), d.ghosts.end()), d.ghosts.end());
  d.ghosts.shrink_to_fit();
  return d;
}

template DistGraph distribute(const Csr<float>&, int, int);
template DistGraph distribute(const Csr<double>&, int, int);

}  // namespace matchblas
