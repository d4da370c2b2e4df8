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
//   memory. A row is a chain of cache misses (its start, its entries, their
//   columns' words); the queue's next rows are fetched ahead, so that the
//   chains overlap.
#include <algorithm>
#include <vector>

#include "lib/error.hpp"
#include "lib/prefetch.hpp"
#include "matchers/bipartite/max_cardinality.hpp"

namespace matchblas {

// How far ahead in the queue the rows are fetched: 4 and 8 were alike on
// 300k-1M-row solver matrices, 1 and 2 slower (bench/RESULTS.md).
constexpr std::size_t bfs_ahead = 4;

template <class W>
BipartiteMates max_cardinality_bipartite_bfs(const Csr<W>& a, BipartiteMates x) {
  check_bipartite_csr(a);
  const vertex_t m = a.n_rows, n = a.n_cols;
  MATCHBLAS_EXPECTS(vertex_t(x.row_mate.size()) == m && vertex_t(x.col_mate.size()) == n,
                    "max_cardinality_bipartite_bfs: the start's mate arrays do not fit the matrix");
  std::vector<vertex_t> col_pred(static_cast<std::size_t>(n)), root_of(static_cast<std::size_t>(m)), queue, endpoints;
  std::vector<char> root_done(static_cast<std::size_t>(m));
  queue.reserve(std::size_t(m));
  // The queue is known ahead: the misses of its next rows (start, entries,
  // their columns' words; at most 64 entries of a hub's row) overlap the
  // current row's (lib/prefetch.hpp).
  const auto fetch_ahead = [&](std::size_t head) {
    const auto ahead = [&](std::size_t d) { return head + d < queue.size() ? queue[head + d] : no_vertex; };
    if (const vertex_t next = ahead(bfs_ahead); next != no_vertex) {
      const offset_t start = a.offsets[next], stop = std::min(a.offsets[next + 1], start + 64);
      for (offset_t k = start; k < stop; ++k) prefetch(x.col_mate.data() + a.cols[k]);
      prefetch(root_of.data() + next);
    }
    prefetch_rows_ahead(a, col_pred.data(), ahead(bfs_ahead), ahead(2 * bfs_ahead), ahead(4 * bfs_ahead), 64);
  };
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
      fetch_ahead(head);
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
