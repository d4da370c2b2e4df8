// Sequential Louvain, and the levels both Louvain entries share
// (louvain.hpp).
#include "matchers/community/louvain.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include "lib/interrupt.hpp"
#include "matchers/community/aggregate.hpp"
#include "matchers/community/louvain_levels.hpp"
#include "ops/modularity.hpp"

namespace matchblas {

namespace community {

Communities run_levels(const Csr<double>& input, const LouvainOptions& o, const LevelMoves& moves,
                       const FinalMoves& refine) {
  const std::optional<Csr<double>> scaled =
      scaled_to_safe_range(input, check_input(input, o.resolution, o.threads), o.threads);
  const Csr<double>& g = scaled ? *scaled : input;  // the same decisions and modularity
  Communities p;
  const vertex_t n = g.n_rows;
  p.label.resize(std::size_t(n));
  for (vertex_t u = 0; u < n; ++u) p.label[std::size_t(u)] = u;
  Csr<double> coarse;  // the graph of the current level past the first
  const Csr<double>* level_graph = &g;
  bool final_stage = false;
  double q = ops::modularity(g, p.label, o.resolution);
  for (int level = 0; level < o.max_levels && level_graph->n_rows > 0; ++level) {
    check_interrupt();
    const auto start = std::chrono::steady_clock::now();
    LouvainLevel l;
    l.vertices = level_graph->n_rows;
    l.entries = level_graph->num_entries();
    MoveState s = singletons(*level_graph, o.resolution);
    l.moved = moves(*level_graph, s, final_stage ? o.final_threshold : o.threshold, &l.passes);
    l.move_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (l.moved == 0) break;  // (a first pass moves the same at any threshold)
    l.communities = community::renumber(s.label);
    for (vertex_t& x : p.label) x = s.label[std::size_t(x)];
    const double before = q;
    q = ops::modularity(g, p.label, o.resolution);
    l.modularity = q;
    if (q - before < o.threshold) final_stage = true;
    coarse = community::aggregate(*level_graph, s.label, l.communities, o.threads);
    level_graph = &coarse;
    l.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    p.levels.push_back(l);
    p.hierarchy.push_back(std::move(s.label));
    if (l.communities == l.vertices) break;
  }
  // The input's vertices until none gains: the guarantee.
  if (o.refine) {
    const auto refine_start = std::chrono::steady_clock::now();
    MoveState s = from_labels(g, std::move(p.label), o.resolution);
    p.refine_moves = refine(g, s, &p.refine_passes);
    p.refine_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - refine_start).count();
    p.label = std::move(s.label);
  }
  p.communities = community::renumber(p.label);
  p.modularity = ops::modularity(g, p.label, o.resolution);
  return p;
}

}  // namespace community

Communities louvain(const Csr<double>& g, const LouvainOptions& options) {
  LouvainOptions one = options;
  one.threads = 1;  // the aggregation's
  return community::run_levels(
      g, one,
      [](const Csr<double>& graph, community::MoveState& s, double threshold, int* passes) {
        return community::local_moves(graph, s, threshold, passes);
      },
      [](const Csr<double>& graph, community::MoveState& s, int* passes) {
        return community::local_moves(graph, s, 0.0, passes);  // whole passes in vertex order: the reference
      });
}

std::string communities_violation(const Csr<double>& g, const Communities& c, double gamma) {
  if (c.label.size() != std::size_t(g.n_rows))
    return std::to_string(c.label.size()) + " labels for " + std::to_string(g.n_rows) + " vertices";
  std::vector<char> used(std::size_t(std::max<vertex_t>(c.communities, 0)), 0);
  for (std::size_t u = 0; u < c.label.size(); ++u) {
    if (c.label[u] < 0 || c.label[u] >= c.communities)
      return "vertex " + std::to_string(u) + " has community " + std::to_string(c.label[u]) + ", outside 0.." +
             std::to_string(c.communities - 1);
    used[std::size_t(c.label[u])] = 1;
  }
  for (vertex_t k = 0; k < c.communities; ++k)
    if (!used[std::size_t(k)]) return "community " + std::to_string(k) + " has no vertex";
  const double q = ops::modularity(g, c.label, gamma);
  if (!(std::fabs(q - c.modularity) <= 1e-9 * std::max(1.0, std::fabs(q))))
    return "it reports modularity " + std::to_string(c.modularity) + ", its labels give " + std::to_string(q);
  return "";
}

}  // namespace matchblas
