// Louvain with the moves of a round decided in parallel (louvain.hpp;
// Lu, Halappanavar, Kalyanaraman 2015, sec. 4-5).
//
// A round: every vertex, on its own thread, picks the community of the
// largest gain from the round's start (labels and community degree sums),
// a vertex alone moving to another community of one only when that one's
// label is smaller (the minimum-label rule: two singletons never swap);
// then all move at once and the sums are recomputed. A round that lowers
// modularity is undone and ends the level; otherwise rounds go on until
// one gains less than the threshold. Each vertex's sums run in its
// entries' order and the community sums in vertex order, so the partition
// is the same at any thread count.
#include <algorithm>
#include <utility>
#include <vector>

#include "lib/interrupt.hpp"
#include "lib/omp_threads.hpp"
#include "matchers/community/aggregate.hpp"
#include "matchers/community/louvain.hpp"
#include "matchers/community/louvain_levels.hpp"
#include "ops/modularity.hpp"

namespace matchblas {

namespace {

using community::MoveState;

vertex_t parallel_rounds(const Csr<double>& g, MoveState& s, double threshold, int* passes, int threads) {
  const vertex_t n = g.n_rows;
  if (s.two_m <= 0) return 0;
  const int t = threads > 0 ? threads : omp_get_max_threads();
  std::vector<vertex_t> next(static_cast<std::size_t>(n)), size(static_cast<std::size_t>(n), 0);
  vertex_t moves = 0;
  double q = ops::modularity(g, s.label, s.gamma);
  for (;;) {
    check_interrupt();
    ++*passes;
    std::fill(size.begin(), size.end(), 0);
    for (vertex_t l : s.label) ++size[std::size_t(l)];
    vertex_t moved = 0;
    AllocationGuard guard;
#pragma omp parallel num_threads(t) reduction(+ : moved)
    {
      std::vector<std::pair<vertex_t, double>> to;  // (community, weight) per entry, then summed
#pragma omp for schedule(dynamic, 1024)
      for (vertex_t u = 0; u < n; ++u) guard.run([&] {
        const vertex_t own = s.label[std::size_t(u)];
        const double ku = s.k[std::size_t(u)];
        to.clear();
        for (offset_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e)
          if (g.cols[e] != u) to.emplace_back(s.label[std::size_t(g.cols[e])], g.weights[e]);
        std::stable_sort(to.begin(), to.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        const auto gain = [&](vertex_t c, double w) {  // times 2m: exact for integer weights and gamma
          const double tot = s.tot[std::size_t(c)] - (c == own ? ku : 0.0);
          return w * s.two_m - s.gamma * tot * ku;
        };
        double stay = gain(own, 0.0), best_gain = 0;
        vertex_t best = no_vertex;
        for (std::size_t i = 0; i < to.size();) {
          const vertex_t c = to[i].first;
          double w = 0;
          for (; i < to.size() && to[i].first == c; ++i) w += to[i].second;
          if (c == own) {
            stay = gain(own, w);
            continue;
          }
          const double x = gain(c, w);
          if (best == no_vertex || x > best_gain) {  // ascending labels: ties keep the smallest
            best = c;
            best_gain = x;
          }
        }
        vertex_t choice = own;
        if (best != no_vertex && best_gain > stay + 1e-12 * std::max(1.0, s.gamma) * ku * s.two_m &&
            !(size[std::size_t(own)] == 1 && size[std::size_t(best)] == 1 && best > own))
          choice = best;
        next[std::size_t(u)] = choice;
        moved += choice != own;
      });
    }
    guard.rethrow();
    if (moved == 0) break;
    std::swap(s.label, next);
    const double before = q;
    q = ops::modularity(g, s.label, s.gamma);
    if (q < before) {  // the simultaneous moves lost: undo them, end the level
      std::swap(s.label, next);
      q = before;
      break;
    }
    std::fill(s.tot.begin(), s.tot.end(), 0.0);
    for (vertex_t u = 0; u < n; ++u) s.tot[std::size_t(s.label[std::size_t(u)])] += s.k[std::size_t(u)];
    moves += moved;
    if (q - before < threshold) break;
  }
  return moves;
}

}  // namespace

Communities louvain_omp(const Csr<double>& g, const LouvainOptions& options) {
  const int threads = options.threads;
  return community::run_levels(g, options, [threads](const Csr<double>& graph, MoveState& s, double threshold,
                                                     int* passes) {
    return parallel_rounds(graph, s, threshold, passes, threads);
  });
}

}  // namespace matchblas
