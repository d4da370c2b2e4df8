// Loading a Matrix Market file as a graph, choosing the view:
//   auto       a square array file -> complete graph; a square coordinate
//              file -> general graph; a rectangular file -> bipartite view
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

enum class GraphView { automatic, general, bipartite, complete };
enum class Precision { single, dual };  // float or double weights

struct LoadedGraph {
  std::variant<Csr<float>, Csr<double>, Dense<float>, Dense<double>> graph;
  GraphKind kind = general_graphs;
  vertex_t bipartite_rows = 0;  // m for the bipartite view (vertices >= m are columns)
  std::string description;      // "general graph, 494 vertices, 586 edges"

  GraphRef ref() const;
};

LoadedGraph graph_from_file(const MmMatrix& a, GraphView view, Precision precision,
                            const GraphRules& rules = {});

GraphView parse_view(const std::string& name);        // throws invalid_input
Precision parse_precision(const std::string& name);   // "float" | "double"

}  // namespace matchblas
