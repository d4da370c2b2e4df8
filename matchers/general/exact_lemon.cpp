// Maximum weight (perfect) matching of a general graph given as an edge list,
// by LEMON 1.3.1 MaxWeightedMatching / MaxWeightedPerfectMatching
// (lemon/matching.h: "an efficient implementation of Edmond's maximum weighted
// matching algorithm ... based on extensive use of priority queues"; the
// primal-dual blossom algorithm of Edmonds, 1965).
// Guarantee: exact. With double weights LEMON compares sums of weights with no
// tolerance, so the weight is optimal up to rounding; the matching itself is
// always valid (mate symmetry and, for perfect, no free vertex are checked here).
// Cost: O(n m log n) time, O(n + m) memory (a SmartGraph and an edge map).
// Compiled as C++17 (LEMON's headers break under C++20); see exact_lemon.hpp.
#include "matchers/general/exact_lemon.hpp"

#include <lemon/matching.h>
#include <lemon/smart_graph.h>

#include <cstddef>
#include <string>

#include "lib/error.hpp"

namespace matchblas::detail {

bool lemon_available() noexcept { return true; }

namespace {

// Reads LEMON's mate map into an array and checks that it is symmetric.
template <class Algo>
std::vector<int> mates(const lemon::SmartGraph& graph, const Algo& algo, int n) {
  std::vector<int> mate(static_cast<std::size_t>(n), -1);
  for (int x = 0; x < n; ++x) {
    const lemon::SmartGraph::Node y = algo.mate(graph.nodeFromId(x));
    if (y != lemon::INVALID) mate[x] = graph.id(y);
  }
  for (int x = 0; x < n; ++x)
    if (mate[x] != -1 && (mate[x] == x || mate[mate[x]] != x))
      throw error("LEMON returned an inconsistent matching at vertex " + std::to_string(x));
  return mate;
}

}  // namespace

std::vector<int> lemon_max_weight_matching(int n, const std::vector<int>& u,
                                           const std::vector<int>& v,
                                           const std::vector<double>& w, bool perfect) {
  lemon::SmartGraph graph;
  graph.reserveNode(n);
  graph.reserveEdge(static_cast<int>(u.size()));
  for (int x = 0; x < n; ++x) graph.addNode();
  lemon::SmartGraph::EdgeMap<double> weight(graph);
  for (std::size_t k = 0; k < u.size(); ++k) {
    const lemon::SmartGraph::Edge e = graph.addEdge(graph.nodeFromId(u[k]), graph.nodeFromId(v[k]));
    weight[e] = w[k];
  }
  if (!perfect) {
    lemon::MaxWeightedMatching<lemon::SmartGraph, lemon::SmartGraph::EdgeMap<double>> algo(graph,
                                                                                           weight);
    algo.run();
    return mates(graph, algo, n);
  }
  lemon::MaxWeightedPerfectMatching<lemon::SmartGraph, lemon::SmartGraph::EdgeMap<double>> algo(
      graph, weight);
  if (!algo.run()) throw error("exact perfect matching: the graph has no perfect matching");
  std::vector<int> mate = mates(graph, algo, n);
  for (int x = 0; x < n; ++x)
    if (mate[x] == -1)
      throw error("LEMON returned an imperfect matching: vertex " + std::to_string(x) + " is free");
  return mate;
}

}  // namespace matchblas::detail
