// Maximum cardinality from a given matching by breadth-first phases, the
// CPU form of cardinality-gpu's search (max_cardinality_gpu.cu): each phase
// grows vertex-disjoint alternating trees from every free row at once
// (a column joins the first tree that reaches it; a tree stops at its first
// free column) and flips every path found; phases until one finds none.
//   Source: the APFB scheme of Deveci, Kaya, Ucar and Catalyurek, "GPU
//   accelerated maximum cardinality matching algorithms for bipartite
//   graphs", Euro-Par 2013, sec. 3; multi-source BFS as in Hopcroft and
//   Karp, SIAM J. Comput. 2(4), 1973 (without their layering).
//   Guarantee: cardinality (each phase finds a path whenever one exists:
//   Berge). The same matching on any number of threads. Why it exists
//   beside Pothen-Fan: its paths are short, so augmenting from a heavy
//   start keeps more of the start's entries matched (awpm uses it;
//   bench/RESULTS.md, awpm-gpu).
//   How: one queue of rows in first-in first-out order, which lists the
//   trees' levels one after the other. A level is read by one thread in
//   queue order, or, when it is large and the team has at least
//   bfs_team_threads threads, on the team in three passes with the same
//   outcome: (1) the free columns its rows reach, settled in queue order
//   (the first row of a tree still growing takes one and ends its tree
//   there), (2) every other column offered to the smallest queue place of
//   a row that reaches it before its tree ended (an atomic minimum), (3)
//   the winners take their columns, their mates listed in queue order
//   (static blocks in thread order).
//   Cost: O(m + n + nnz) per phase, at most min(m, n) + 1 phases, depth
//   O(levels x (max degree + nnz / threads)) per phase on the team; O(m +
//   n) memory. A row is a chain of cache misses (its start, its entries,
//   their columns' words); the rows ahead in the queue are fetched ahead,
//   so that the chains overlap.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "lib/error.hpp"
#include "lib/omp_threads.hpp"
#include "lib/prefetch.hpp"
#include "matchers/bipartite/max_cardinality.hpp"

namespace matchblas {

namespace {

// How far ahead in the queue the rows are fetched: 4 and 8 were alike on
// 300k-1M-row solver matrices, 1 and 2 slower (bench/RESULTS.md).
constexpr std::size_t bfs_ahead = 4;
// A level goes to the team from this many rows, on teams of at least this
// many threads. A team level reads its rows three times: on the H200
// machine's 16-core host, awpm's maximum-cardinality step on 300k-1M-row
// solver matrices took 1.0-1.6x the one-thread reading's time on 4 threads,
// 0.55-1.2x on 8 and 0.43-0.87x on 16; on the 2-core dev machine 1.2-2.1x
// on 2 (bench/RESULTS.md).
constexpr std::size_t bfs_team_rows = 4096;
constexpr int bfs_team_threads = 8;

void claim_min(vertex_t& word, vertex_t value) {
  std::atomic_ref<vertex_t> w(word);
  vertex_t seen = w.load(std::memory_order_relaxed);
  while (value < seen && !w.compare_exchange_weak(seen, value, std::memory_order_relaxed)) {
  }
}

}  // namespace

namespace detail {

template <class W>
BipartiteMates max_cardinality_bipartite_bfs(const Csr<W>& a, BipartiteMates x, std::size_t team_rows,
                                             int team_threads) {
  check_bipartite_csr(a);
  const vertex_t m = a.n_rows, n = a.n_cols;
  MATCHBLAS_EXPECTS(vertex_t(x.row_mate.size()) == m && vertex_t(x.col_mate.size()) == n,
                    "max_cardinality_bipartite_bfs: the start's mate arrays do not fit the matrix");
  for (vertex_t i = 0; i < m; ++i)
    if (const vertex_t j = x.row_mate[i]; j != no_vertex && (j < 0 || j >= n || x.col_mate[j] != i))
      throw invalid_input("max_cardinality_bipartite_bfs: the start is not a matching: row " + std::to_string(i) +
                          "'s mate " + std::to_string(j) + " does not name it back");
  for (vertex_t j = 0; j < n; ++j)
    if (const vertex_t i = x.col_mate[j]; i != no_vertex && (i < 0 || i >= m || x.row_mate[i] != j))
      throw invalid_input("max_cardinality_bipartite_bfs: the start is not a matching: column " + std::to_string(j) +
                          "'s mate " + std::to_string(i) + " does not name it back");
  constexpr std::size_t growing = std::numeric_limits<std::size_t>::max();
  const int team = omp_get_max_threads();
  const bool teams = team >= team_threads;
  // col_pred[j]: the row whose tree took column j this phase. A tree ends
  // at queue place end_place[root], entry end_entry[root] (its free
  // column), or is still growing. claim[j]: the smallest queue place of a
  // row offering column j (team levels only).
  std::vector<vertex_t> col_pred(static_cast<std::size_t>(n)), root_of(static_cast<std::size_t>(m)), queue,
      endpoints, claim(teams ? static_cast<std::size_t>(n) : 0);
  std::vector<std::size_t> end_place(static_cast<std::size_t>(m));
  std::vector<offset_t> end_entry(static_cast<std::size_t>(m));
  std::vector<std::vector<std::pair<std::size_t, offset_t>>> reached(teams ? std::size_t(team) : 0);
  std::vector<std::vector<vertex_t>> listed(teams ? std::size_t(team) : 0);
  queue.reserve(std::size_t(m));
  const vertex_t* const cols = a.cols.data();
  const offset_t* const off = a.offsets.data();
  // The queue is known ahead: the misses of its next rows (start, entries,
  // their columns' words; at most 64 entries of a hub's row) overlap the
  // current row's (lib/prefetch.hpp).
  const auto fetch_ahead = [&](std::size_t head) {
    const auto ahead = [&](std::size_t d) { return head + d < queue.size() ? queue[head + d] : no_vertex; };
    if (const vertex_t next = ahead(bfs_ahead); next != no_vertex) {
      const offset_t start = off[next], stop = std::min(off[next + 1], start + 64);
      for (offset_t k = start; k < stop; ++k) {
        prefetch(x.col_mate.data() + cols[k]);
        if (teams) prefetch(claim.data() + cols[k]);
      }
      prefetch(root_of.data() + next);
    }
    prefetch_rows_ahead(a, col_pred.data(), ahead(bfs_ahead), ahead(2 * bfs_ahead), ahead(4 * bfs_ahead), 64);
  };
  // The end of the entries of the row at queue place p that its tree reads:
  // all while it grows, those before its free column in the row that ended
  // it, none after.
  const auto read_until = [&](std::size_t p, vertex_t i, vertex_t root) {
    const std::size_t e = end_place[root];
    return e == growing || e > p ? off[i + 1] : e == p ? end_entry[root] : off[i];
  };
  // One row read in queue order.
  const auto read_row = [&](std::size_t p) {
    fetch_ahead(p);
    const vertex_t i = queue[p], root = root_of[i];
    if (end_place[root] != growing) return;
    for (offset_t k = off[i]; k < off[i + 1]; ++k) {
      const vertex_t j = cols[k];
      if (col_pred[j] != no_vertex) continue;
      col_pred[j] = i;
      if (const vertex_t mate = x.col_mate[j]; mate == no_vertex) {
        end_place[root] = p;
        end_entry[root] = k;
        endpoints.push_back(j);
        return;
      } else {
        root_of[mate] = root;
        queue.push_back(mate);
      }
    }
  };
  // A level, queue places [begin, end), on the team: the same outcome.
  const auto read_level_on_team = [&](std::size_t begin, std::size_t end) {
    for (auto& list : reached) list.clear();  // here: a smaller team leaves some untouched
    for (auto& list : listed) list.clear();
    AllocationGuard guard;  // the lists grow inside the region: no memory throws after it
#pragma omp parallel num_threads(team)
    {
      auto& free_reached = reached[std::size_t(omp_get_thread_num())];
#pragma omp for schedule(static)
      for (std::size_t p = begin; p < end; ++p) {
        fetch_ahead(p);
        const vertex_t i = queue[p];
        if (end_place[root_of[i]] != growing) continue;
        for (offset_t k = off[i]; k < off[i + 1]; ++k)
          if (col_pred[cols[k]] == no_vertex && x.col_mate[cols[k]] == no_vertex) {
            guard.run([&] { free_reached.emplace_back(p, k); });  // the row's first: O(rows) memory
            break;
          }
      }
      // In queue order (the threads' blocks in turn), each such row reads on
      // from its first free column, as the one-thread reading would: the
      // first one no earlier row took ends its tree (matched columns never
      // come free in a phase, so only these events decide).
#pragma omp single
      guard.run([&] {
        for (const auto& list : reached)
          for (const auto& [p, first] : list) {
            const vertex_t i = queue[p], root = root_of[i];
            if (end_place[root] != growing) continue;
            for (offset_t k = first; k < off[i + 1]; ++k)
              if (const vertex_t j = cols[k]; col_pred[j] == no_vertex && x.col_mate[j] == no_vertex) {
                col_pred[j] = i;
                end_place[root] = p;
                end_entry[root] = k;
                endpoints.push_back(j);
                break;
              }
          }
      });
#pragma omp for schedule(static)
      for (std::size_t p = begin; p < end; ++p) {
        fetch_ahead(p);
        const vertex_t i = queue[p], root = root_of[i];
        for (offset_t k = off[i], stop = read_until(p, i, root); k < stop; ++k)
          if (col_pred[cols[k]] == no_vertex) claim_min(claim[cols[k]], vertex_t(p));
      }
      auto& mates = listed[std::size_t(omp_get_thread_num())];
#pragma omp for schedule(static)
      for (std::size_t p = begin; p < end; ++p) {
        const vertex_t i = queue[p], root = root_of[i];
        for (offset_t k = off[i], stop = read_until(p, i, root); k < stop; ++k) {
          const vertex_t j = cols[k];
          if (claim[j] != vertex_t(p) || col_pred[j] != no_vertex) continue;
          col_pred[j] = i;
          root_of[x.col_mate[j]] = root;
          guard.run([&] { mates.push_back(x.col_mate[j]); });
        }
      }
    }
    guard.rethrow();
    for (const auto& list : listed) queue.insert(queue.end(), list.begin(), list.end());
  };
  while (true) {
    std::fill(col_pred.begin(), col_pred.end(), no_vertex);
    std::fill(claim.begin(), claim.end(), std::numeric_limits<vertex_t>::max());
    queue.clear();
    endpoints.clear();
    for (vertex_t i = 0; i < m; ++i)
      if (x.row_mate[i] == no_vertex && a.degree(i) > 0) {
        root_of[i] = i;
        end_place[i] = growing;
        queue.push_back(i);
      }
    for (std::size_t begin = 0, end = queue.size(); begin < end; begin = end, end = queue.size()) {
      if (teams && end - begin >= team_rows) {
        read_level_on_team(begin, end);
      } else {
        for (std::size_t p = begin; p < end; ++p) read_row(p);
      }
    }
    if (endpoints.empty()) break;
    for (vertex_t j : endpoints) flip_augmenting_path(x, col_pred, j);  // the trees are disjoint
  }
  return x;
}

template BipartiteMates max_cardinality_bipartite_bfs(const Csr<float>&, BipartiteMates, std::size_t, int);
template BipartiteMates max_cardinality_bipartite_bfs(const Csr<double>&, BipartiteMates, std::size_t, int);

}  // namespace detail

template <class W>
BipartiteMates max_cardinality_bipartite_bfs(const Csr<W>& a, BipartiteMates x) {
  return detail::max_cardinality_bipartite_bfs(a, std::move(x), bfs_team_rows, bfs_team_threads);
}

template BipartiteMates max_cardinality_bipartite_bfs(const Csr<float>&, BipartiteMates);
template BipartiteMates max_cardinality_bipartite_bfs(const Csr<double>&, BipartiteMates);

}  // namespace matchblas
