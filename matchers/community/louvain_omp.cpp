// Louvain with the moves decided in parallel (louvain.hpp; Lu,
// Halappanavar, Kalyanaraman 2015, sec. 4-5).
//
// A round visits the vertices in classes: with coloring (the default), the
// colour classes of a greedy distance-1 colouring of the level's graph, so
// no two neighbours decide at once; without it, one class of every vertex, and
// the minimum-label rule (a vertex alone moves to another community of one
// only when that one's label is smaller: two singletons never swap). In a
// class every vertex, on its own thread, picks the community of the largest
// gain from the class's start (labels and community degree sums); then the
// class's moves are applied in vertex order. A round that lowers modularity
// is undone and ends the level; otherwise rounds go on until one gains less
// than the threshold. With a colouring the round's modularity follows from
// its moves (community::ModularityChange: no pass over the edges; ER 2^18's
// second level on 2 threads 0.50 -> 0.41 s); without one it is recomputed.
// Every sum runs in a fixed order, so the partition is the same at any
// thread count. The input's colouring is made once, for level 0 and the
// final moves (community::moves_to_local_optimum: checked moves by colour
// class). The design, the guarantee's argument, the cost and the numbers:
// docs/algorithms/louvain_omp.md.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "lib/interrupt.hpp"
#include "lib/omp_threads.hpp"
#include "lib/prefetch.hpp"
#include "matchers/community/aggregate.hpp"
#include "matchers/community/louvain.hpp"
#include "matchers/community/louvain_levels.hpp"
#include "ops/modularity.hpp"

namespace matchblas {

namespace {

using community::MoveState;
using community::NeighbourWeights;

// A round's moves, kept until the round's modularity is known and undone
// exactly when it lost: each changed tot restored from its value before
// the round (not recomputed: a sum taken back need not give the same bits),
// each mover's label and its communities' sizes put back. O(moves) a round,
// where copies of every label, tot and size cost O(n) a round (and fresh
// pages for each copy).
class RoundUndo {
 public:
  explicit RoundUndo(vertex_t n) : tots_(n) {}
  // Before u moves from own to `to` (each vertex moves at most once a round).
  void moving(const MoveState& s, vertex_t u, vertex_t own, vertex_t to) {
    tots_.note(s, own);
    tots_.note(s, to);
    movers_.emplace_back(u, own);
  }
  void undo(MoveState& s, std::vector<vertex_t>& size) {
    for (auto it = movers_.rbegin(); it != movers_.rend(); ++it) {  // (last first: exact for repeated movers too)
      const auto& [u, own] = *it;
      --size[std::size_t(s.label[std::size_t(u)])];
      ++size[std::size_t(own)];
      s.label[std::size_t(u)] = own;
    }
    tots_.restore(s);
    movers_.clear();
  }
  void keep() {
    tots_.clear();
    movers_.clear();
  }

 private:
  community::TotLog tots_;
  std::vector<std::pair<vertex_t, vertex_t>> movers_;  // (vertex, its community before)
};

// Weights: the threads' tables of the weight into each neighbouring
// community (NeighbourWeights, or DenseWeights where the level is small):
// the same sums either way.
// colouring: the level's graph's (community::greedy_colouring), or null
// for one class of every vertex and the minimum-label rule.
template <class Weights>
vertex_t parallel_rounds(const Csr<double>& g, MoveState& s, double threshold, int* passes, int t,
                         const community::Colouring* colouring, std::vector<Weights>& tables) {
  const vertex_t n = g.n_rows;
  const bool coloring = colouring != nullptr;
  std::vector<std::vector<vertex_t>> everyone;
  if (!coloring) {
    everyone.emplace_back(static_cast<std::size_t>(n));
    for (vertex_t u = 0; u < n; ++u) everyone[0][std::size_t(u)] = u;
  }
  const std::vector<std::vector<vertex_t>>& classes = coloring ? colouring->classes : everyone;
  // Each class's entries: a class runs on the team when it has work for it
  // (a vertex count would leave the late levels' classes of a few hundred
  // heavy rows on one thread: ER 2^18's second level, 69653 vertices and
  // 8M entries, took 2.3 s at two threads that way).
  std::vector<offset_t> class_entries;
  for (const std::vector<vertex_t>& cls : classes) {
    offset_t entries = 0;
    for (vertex_t u : cls) entries += g.offsets[u + 1] - g.offsets[u];
    class_entries.push_back(entries);
  }
  std::vector<vertex_t> next(static_cast<std::size_t>(n)), size(static_cast<std::size_t>(n), 0);
  // A mover's edge weight into the community it joins less that into the
  // one it leaves (with a colouring the round's modularity follows from it).
  std::vector<double> w_gained(coloring ? std::size_t(n) : 0);
  for (vertex_t l : s.label) ++size[std::size_t(l)];
  vertex_t moves = 0;
  double q = ops::modularity(g, s.label, s.gamma);
  RoundUndo undo(n);
  for (;;) {
    check_interrupt();
    ++*passes;
    vertex_t moved = 0;
    community::ModularityChange change;
    for (std::size_t c = 0; c < classes.size(); ++c) {
      const std::vector<vertex_t>& cls = classes[c];
      AllocationGuard guard;
      const std::int64_t count = std::int64_t(cls.size());
      // (A class of little work runs on one thread: a team's start costs more.)
      const std::int64_t chunk = std::clamp<std::int64_t>(count / (8 * std::int64_t(t)), 1, 512);
#pragma omp parallel if (class_entries[c] >= 32768 && count > 1) num_threads(t)
      {
        Weights& to = tables[std::size_t(omp_get_thread_num())];
#pragma omp for schedule(dynamic, chunk)
        for (std::int64_t i = 0; i < count; ++i) guard.run([&] {
          // The next rows' misses overlapped with this row's: the labels of
          // the next row's neighbours (its first 64), the entries of the one
          // after, the start of the fourth (ER 2^20's level 0 on one thread,
          // dev: 8.7-9.7 -> 7.5-7.8 s).
          const auto ahead = [&](std::int64_t k) { return i + k < count ? cls[std::size_t(i + k)] : no_vertex; };
          prefetch_rows_ahead(g, s.label.data(), ahead(1), ahead(2), ahead(4), 64);
          const vertex_t u = cls[std::size_t(i)], own = s.label[std::size_t(u)];
          const double ku = s.k[std::size_t(u)];
          to.start(g.offsets[u + 1] - g.offsets[u]);
          for (offset_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e)
            if (g.cols[e] != u) to.add(s.label[std::size_t(g.cols[e])], g.weights[e]);
          const auto gain = [&](vertex_t c, double w) { return community::gain_times_2m(s, own, ku, c, w); };
          double stay = gain(own, 0.0), best_gain = 0, w_own = 0, w_best = 0;
          vertex_t best = no_vertex;
          to.each([&](vertex_t c, double w) {
            if (c == own) {
              stay = gain(own, w);
              w_own = w;
              return;
            }
            const double x = gain(c, w);
            if (best == no_vertex || x > best_gain || (x == best_gain && c < best)) {
              best = c;
              best_gain = x;
              w_best = w;
            }
          });
          vertex_t choice = own;
          if (best != no_vertex && community::beats_staying(s, ku, best_gain, stay) &&
              (coloring || !(size[std::size_t(own)] == 1 && size[std::size_t(best)] == 1 && best > own)))
            choice = best;
          next[std::size_t(u)] = choice;
          if (coloring && choice != own) w_gained[std::size_t(u)] = w_best - w_own;
        });
      }
      guard.rethrow();
      for (vertex_t u : cls) {  // the class's moves, in vertex order
        const vertex_t own = s.label[std::size_t(u)], to = next[std::size_t(u)];
        if (to == own) continue;
        if (coloring)
          change.move(w_gained[std::size_t(u)], s.k[std::size_t(u)], s.tot[std::size_t(own)], s.tot[std::size_t(to)]);
        undo.moving(s, u, own, to);
        s.tot[std::size_t(own)] -= s.k[std::size_t(u)];
        s.tot[std::size_t(to)] += s.k[std::size_t(u)];
        --size[std::size_t(own)];
        ++size[std::size_t(to)];
        s.label[std::size_t(u)] = to;
        ++moved;
      }
    }
    if (moved == 0) break;
    const double before = q;
    q = coloring ? before + change.value(s.two_m, s.gamma) : ops::modularity(g, s.label, s.gamma);
    if (q < before) {  // the round lost: undo it, end the level
      undo.undo(s, size);
      q = before;
      break;
    }
    undo.keep();
    moves += moved;
    if (q - before < threshold) break;
  }
  return moves;
}

// A level's rounds with a table per thread, kept between classes
// (community::with_thread_tables: dense or hashed).
vertex_t parallel_rounds(const Csr<double>& g, MoveState& s, double threshold, int* passes, int threads,
                         const community::Colouring* colouring) {
  if (s.two_m <= 0) return 0;
  const int t = threads > 0 ? threads : omp_get_max_threads();
  return community::with_thread_tables(
      g.n_rows, t, [&](auto& tables) { return parallel_rounds(g, s, threshold, passes, t, colouring, tables); });
}

}  // namespace

Communities louvain_omp(const Csr<double>& g, const LouvainOptions& options) {
  const int threads = options.threads;
  const bool coloring = options.coloring;
  // The input's colouring: made once, for level 0's rounds (which run on g
  // itself) and the final moves.
  community::Colouring input;
  const auto input_colouring = [&]() -> const community::Colouring& {
    if (input.colour.size() != std::size_t(g.n_rows)) input = community::greedy_colouring(g, threads);
    return input;
  };
  return community::run_levels(
      g, options,
      [&](const Csr<double>& graph, MoveState& s, double threshold, int* passes) {
        if (!coloring) return parallel_rounds(graph, s, threshold, passes, threads, nullptr);
        // Level 0's graph is g or run_levels' scaled copy of it (the same
        // rows): the only level with g's vertex count, later ones have fewer.
        if (graph.n_rows == g.n_rows) return parallel_rounds(graph, s, threshold, passes, threads, &input_colouring());
        const community::Colouring level = community::greedy_colouring(graph, threads);
        return parallel_rounds(graph, s, threshold, passes, threads, &level);
      },
      // (Rounds at the final threshold before it took 3.8 s instead of 2.2
      // on ER 2^18 at two threads: 22 rounds.)
      [&](const Csr<double>& graph, MoveState& s, int* passes) {
        return community::moves_to_local_optimum(graph, s, threads, input_colouring(), passes);
      });
}

}  // namespace matchblas
