// Path growing (PGA) and PGA' with dynamic programming; see pga.hpp.
#include "matchers/general/pga.hpp"

#include <cstdint>
#include <vector>

#include "lib/error.hpp"
#include "lib/greedy_order.hpp"
#include "matchers/general/path_dp.hpp"

namespace matchblas {

namespace {

// Grows the vertex-disjoint paths of Drake and Hougardy and calls
// on_path(verts, w) for each path of at least one edge, in the order grown:
// verts[0..k] are its vertices in growing order, w[i] the weight of edge
// {verts[i], verts[i + 1]}.
template <class W, class OnPath>
void grow_paths(const Csr<W>& g, OnPath&& on_path) {
  const vertex_t n = g.n_rows;
  std::vector<std::uint8_t> removed(static_cast<std::size_t>(n), 0);
  std::vector<vertex_t> verts;
  std::vector<double> w;
  for (vertex_t start = 0; start < n; ++start) {
    if (removed[start]) continue;
    verts.assign(1, start);
    w.clear();
    for (vertex_t x = start;;) {
      const auto [best, best_w] = best_neighbour(g, x, [&](vertex_t y, W) { return !removed[y] && y != x; });
      removed[x] = 1;
      if (best == no_vertex) break;
      verts.push_back(best);
      w.push_back(static_cast<double>(best_w));
      x = best;
    }
    if (!w.empty()) on_path(verts, w);
  }
}

}  // namespace

template <class W>
Matching pga(const Csr<W>& g, int /*threads*/) {
  MATCHBLAS_EXPECTS(g.n_rows == g.n_cols, "pga needs a general (square) graph");
  Matching m1(g.n_rows), m2(g.n_rows);
  double w1 = 0, w2 = 0;
  bool into_first = true;  // Drake-Hougardy's i, never reset between paths
  grow_paths(g, [&](const std::vector<vertex_t>& verts, const std::vector<double>& w) {
    for (std::size_t i = 0; i < w.size(); ++i) {
      (into_first ? m1 : m2).match(verts[i], verts[i + 1]);
      (into_first ? w1 : w2) += w[i];
      into_first = !into_first;
    }
  });
  return w2 > w1 ? m2 : m1;
}

template <class W>
Matching pga_dp(const Csr<W>& g, int /*threads*/) {
  MATCHBLAS_EXPECTS(g.n_rows == g.n_cols, "pga_dp needs a general (square) graph");
  Matching m(g.n_rows);
  std::vector<std::uint8_t> take;
  grow_paths(g, [&](const std::vector<vertex_t>& verts, const std::vector<double>& w) {
    take.resize(w.size());
    path_max_matching(w, take);
    for (std::size_t i = 0; i < w.size(); ++i)
      if (take[i]) m.match(verts[i], verts[i + 1]);
  });
  return m;
}

template Matching pga(const Csr<float>&, int);
template Matching pga(const Csr<double>&, int);
template Matching pga_dp(const Csr<float>&, int);
template Matching pga_dp(const Csr<double>&, int);

}  // namespace matchblas
