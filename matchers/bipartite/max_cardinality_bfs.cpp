// Maximum cardinality from a given matching by breadth-first phases, the
// sequential form of cardinality-gpu's search (max_cardinality_gpu.cu): each
// phase grows vertex-disjoint alternating trees from every free row at once
// (a column joins the first tree that reaches it; a tree stops at its first
// free column) and flips every path found; phases until one finds none.
//   Source: the APFB scheme of Deveci, Kaya, Ucar and Catalyurek, "GPU
//   accelerated maximum cardinality matching algorithms for bipartite
//   graphs", Euro-Par 2013, sec. 3; multi-source BFS as in Hopcroft and
//   Karp, SIAM J. Comput. 2(4), 1973 (without their layering).
//   Guarantee: cardinality (each phase finds a path whenever one exists:
//   Berge). Deterministic. Why it exists beside Pothen-Fan: its paths are
//   short, so augmenting from a heavy start keeps more of the start's
//   entries matched (awpm uses it; bench/RESULTS.md, awpm-gpu).
//   Cost: O(m + n + nnz) per phase, at most min(m, n) + 1 phases; O(m + n)
//   memory.
#include <vector>

#include "lib/error.hpp"
#include "matchers/bipartite/max_cardinality.hpp"

namespace matchblas {

template <class W>
BipartiteMates max_cardinality_bipartite_bfs(const Csr<W>& a, BipartiteMates x) {
  check_bipartite_csr(a);
  const vertex_t m = a.n_rows, n = a.n_cols;
  MATCHBLAS_EXPECTS(vertex_t(x.row_mate.size()) == m && vertex_t(x.col_mate.size()) == n,
                    "max_cardinality_bipartite_bfs: the start's mate arrays do not fit the matrix");
  std::vector<vertex_t> col_pred(static_cast<std::size_t>(n)), root_of(static_cast<std::size_t>(m)), queue, endpoints;
  std::vector<char> root_done(static_cast<std::size_t>(m));
  queue.reserve(std::size_t(m));
  while (true) {
    std::fill(col_pred.begin(), col_pred.end(), no_vertex);
    std::fill(root_done.begin(), root_done.end(), 0);
    queue.clear();
    endpoints.clear();
    for (vertex_t i = 0; i < m; ++i)
      if (x.row_mate[i] == no_vertex && a.degree(i) > 0) {
        root_of[i] = i;
        queue.push_back(i);
      }
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const vertex_t i = queue[head], root = root_of[i];
      for (offset_t k = a.offsets[i]; k < a.offsets[i + 1] && !root_done[root]; ++k) {
        const vertex_t j = a.cols[k];
        if (col_pred[j] != no_vertex) continue;
        col_pred[j] = i;
        const vertex_t mate = x.col_mate[j];
        if (mate == no_vertex) {
          root_done[root] = 1;
          endpoints.push_back(j);
        } else {
          root_of[mate] = root;
          queue.push_back(mate);
        }
      }
    }
    if (endpoints.empty()) break;
    for (vertex_t j : endpoints) flip_augmenting_path(x, col_pred, j);  // the trees are disjoint
  }
  return x;
}

template BipartiteMates max_cardinality_bipartite_bfs(const Csr<float>&, BipartiteMates);
template BipartiteMates max_cardinality_bipartite_bfs(const Csr<double>&, BipartiteMates);

}  // namespace matchblas
