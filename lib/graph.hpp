// The three graph kinds (general, complete, bipartite view; docs/ARCHITECTURE.md
// "Graphs"), the views a matrix can be read in, the weights' precision, and a
// non-owning handle to a graph of any kind and weight type.
#pragma once
#include <string>
#include <variant>

#include "lib/csr.hpp"
#include "lib/dense.hpp"

namespace matchblas {

// Graph kinds as a bit set (a matcher accepts several).
enum GraphKind : unsigned {
  general_graphs = 1,    // square Csr, both directions stored
  complete_graphs = 2,   // Dense
  bipartite_graphs = 4,  // the bipartite view of a matrix, as a general graph on m + n vertices
};

// How a matrix becomes a graph (datasets/load.hpp says what each view does).
enum class GraphView { automatic, general, bipartite, complete };
// The weights' type: float or double.
enum class Precision { float32, float64 };

// "general,complete" for a bit set of GraphKind.
std::string kinds_string(unsigned kinds);

// A graph of any kind and weight type, not owned.
using GraphRef = std::variant<const Csr<float>*, const Csr<double>*, const Dense<float>*, const Dense<double>*>;

inline vertex_t num_vertices(GraphRef g) {
  return std::visit([](const auto* graph) {
    if constexpr (requires { graph->n_rows; }) return graph->n_rows;
    else return graph->n;
  }, g);
}

inline offset_t num_edges(GraphRef g) {
  return std::visit([](const auto* graph) -> offset_t {
    if constexpr (requires { graph->n_rows; }) return num_edges(*graph);
    else return graph->num_edges();
  }, g);
}

}  // namespace matchblas
