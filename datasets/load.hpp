// Loading a Matrix Market file as a graph, choosing the view:
//   auto       a rectangular file -> bipartite view; a square array file ->
//              complete graph; a square coordinate file -> general graph,
//              unless the caller's algorithm takes complete graphs and not
//              general ones (`wanted`, e.g. ROMA's) and that graph has every
//              pair u != v as an edge (n(n-1) stored entries, n >= 2, after
//              the rules: an explicit zero or a cancelling duplicate leaves
//              its pair out), which makes it the complete graph that --view
//              complete builds, weights (pattern files' drawn ones too)
//              identical. The check is
//              O(entries), on the general graph; the n x n matrix is only
//              allocated after it passed. Description: "complete graph
//              (every pair listed), ...".
//   general    square only (shape_error otherwise)
//   bipartite  rows and columns as two sides, as a general graph on m + n
//              vertices: row i is vertex i, column j is vertex m + j
//   complete   square only, as a dense complete graph
// The rules are lib/graph_from_matrix.hpp's.
#pragma once
#include <string>
#include <variant>

#include "lib/graph_from_matrix.hpp"
#include "lib/mmio.hpp"
#include "lib/graph.hpp"

namespace matchblas {


struct LoadedGraph {
  std::variant<Csr<float>, Csr<double>, Dense<float>, Dense<double>> graph;
  GraphKind kind = general_graphs;
  vertex_t bipartite_rows = 0;  // m for the bipartite view (vertices >= m are columns)
  std::string description;      // "general graph, 494 vertices, 586 edges"

  GraphRef ref() const;
};

// `wanted`: the GraphKind bits of the algorithm the graph is for (auto's
// choice for a complete graph written as coordinates, above).
LoadedGraph graph_in_view(const MmMatrix& a, GraphView view, Precision precision,
                            const GraphRules& rules = {},
                            unsigned wanted = general_graphs | complete_graphs | bipartite_graphs);

GraphView parse_view(const std::string& name);        // throws invalid_input
Precision parse_precision(const std::string& name);   // "float" | "double"

}  // namespace matchblas
