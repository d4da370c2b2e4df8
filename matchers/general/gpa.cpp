// Global Paths Algorithm; see gpa.hpp.
#include "matchers/general/gpa.hpp"

#include <algorithm>
#include <vector>

#include "lib/error.hpp"
#include "lib/edge_order.hpp"
#include "matchers/general/maximal_fill.hpp"
#include "matchers/general/path_dp.hpp"

namespace matchblas {

namespace {

// Union-find over the vertices; each root knows whether its path has an odd
// number of edges.
class PathForest {
 public:
  explicit PathForest(vertex_t n) : parent_(static_cast<std::size_t>(n)), odd_(parent_.size(), 0) {
    for (vertex_t v = 0; v < n; ++v) parent_[v] = v;
  }
  vertex_t find(vertex_t v) {
    while (parent_[v] != v) v = parent_[v] = parent_[parent_[v]];  // path halving
    return v;
  }
  bool odd(vertex_t root) const { return odd_[root] != 0; }
  // Joins two paths (roots a != b) by one edge.
  void join(vertex_t a, vertex_t b) {
    parent_[b] = a;
    odd_[a] = static_cast<std::uint8_t>(odd_[a] ^ odd_[b] ^ 1);
  }

 private:
  std::vector<vertex_t> parent_;
  std::vector<std::uint8_t> odd_;
};

}  // namespace

template <class W>
Matching gpa(const Csr<W>& g, int threads) {
  MATCHBLAS_EXPECTS(g.n_rows == g.n_cols, "gpa needs a general (square) graph");
  const vertex_t n = g.n_rows;
  const std::vector<WeightedEdge<W>> edges = edges_in_greedy_order(g, threads);

  // The paths and even cycles: two neighbour slots per vertex.
  std::vector<vertex_t> nbr(2 * static_cast<std::size_t>(n), no_vertex);
  std::vector<W> nbr_w(nbr.size(), W{});
  std::vector<std::uint8_t> degree(static_cast<std::size_t>(n), 0);
  PathForest forest(n);
  for (const WeightedEdge<W>& e : edges) {
    if (degree[e.u] == 2 || degree[e.v] == 2) continue;  // not an endpoint
    const vertex_t ru = forest.find(e.u), rv = forest.find(e.v);
    if (ru == rv) {
      if (!forest.odd(ru)) continue;  // would close an odd cycle
      // closes an even cycle; all its vertices now have degree 2
    } else {
      forest.join(ru, rv);
    }
    nbr[2 * e.u + degree[e.u]] = e.v;
    nbr_w[2 * e.u + degree[e.u]++] = e.w;
    nbr[2 * e.v + degree[e.v]] = e.u;
    nbr_w[2 * e.v + degree[e.v]++] = e.w;
  }

  Matching m(n);
  match_paths_and_cycles<W>(nbr, nbr_w, m);
  fill_maximal(g, m);
  return m;
}

template Matching gpa(const Csr<float>&, int);
template Matching gpa(const Csr<double>&, int);

}  // namespace matchblas
