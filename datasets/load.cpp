// Loading a matrix as a graph under a view; see load.hpp.
#include "datasets/load.hpp"

#include "lib/error.hpp"

namespace matchblas {

GraphRef LoadedGraph::ref() const {
  return std::visit([](const auto& g) -> GraphRef { return &g; }, graph);
}

namespace {
template <class W>
LoadedGraph load_as(const MmMatrix& a, GraphView view, const GraphRules& rules) {
  const MmHeader& h = a.header;
  if (view == GraphView::automatic) {
    if (h.rows != h.cols) view = GraphView::bipartite;
    else view = h.format == MmFormat::array ? GraphView::complete : GraphView::general;
  }
  LoadedGraph out;
  std::string name;
  switch (view) {
    case GraphView::general:
      out.graph = general_graph<W>(a, rules);
      out.kind = general_graphs;
      name = "general graph";
      break;
    case GraphView::bipartite:
      out.graph = bipartite_as_general(bipartite_graph<W>(a, rules));
      out.kind = bipartite_graphs;
      out.bipartite_rows = h.rows;
      name = "bipartite graph (" + std::to_string(h.rows) + " rows + " + std::to_string(h.cols) + " columns)";
      break;
    case GraphView::complete:
      out.graph = complete_graph_from_matrix<W>(a, rules);
      out.kind = complete_graphs;
      name = "complete graph";
      break;
    case GraphView::automatic:
      break;
  }
  const GraphRef g = out.ref();
  out.description = name + ", " + std::to_string(num_vertices(g)) + " vertices, " +
                    std::to_string(num_edges(g)) + " edges";
  return out;
}
}  // namespace

LoadedGraph graph_from_file(const MmMatrix& a, GraphView view, Precision precision, const GraphRules& rules) {
  return precision == Precision::single ? load_as<float>(a, view, rules) : load_as<double>(a, view, rules);
}

GraphView parse_view(const std::string& name) {
  if (name == "auto") return GraphView::automatic;
  if (name == "general") return GraphView::general;
  if (name == "bipartite") return GraphView::bipartite;
  if (name == "complete") return GraphView::complete;
  throw invalid_input("unknown graph view '" + name + "' (auto, general, bipartite, complete)");
}

Precision parse_precision(const std::string& name) {
  if (name == "float") return Precision::single;
  if (name == "double") return Precision::dual;
  throw invalid_input("unknown precision '" + name + "' (float, double)");
}

}  // namespace matchblas
