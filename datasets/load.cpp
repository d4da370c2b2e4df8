// Loading a matrix as a graph under a view; see load.hpp.
#include "datasets/load.hpp"

#include "lib/error.hpp"

namespace matchblas {

GraphRef LoadedGraph::ref() const {
  return std::visit([](const auto& g) -> GraphRef { return &g; }, graph);
}

namespace {

// The view auto stands for when the header decides it: bipartite for a
// rectangular matrix, complete for a square array. A square coordinate file
// stays `automatic`: its graph decides (load_square_coordinate).
GraphView resolve_by_header(GraphView view, const MmHeader& h) {
  if (view != GraphView::automatic) return view;
  if (h.rows != h.cols) return GraphView::bipartite;
  return h.format == MmFormat::array ? GraphView::complete : GraphView::automatic;
}

// Whether the general graph g has every pair u != v as an edge: n(n-1)
// stored entries (its Csr has no diagonal, no duplicates, both directions).
template <class W>
bool has_every_pair(const Csr<W>& g) {
  return g.n_rows >= 2 && g.num_entries() == offset_t(g.n_rows) * (g.n_rows - 1);
}

// Auto on a square coordinate file: its general graph (O(entries), the graph
// auto has always built), unless the algorithm wants complete graphs only
// and that graph has every pair; then the dense graph, built from the file
// exactly as --view complete builds it. Returns the name.
template <class W>
std::string load_square_coordinate(LoadedGraph& out, const MmMatrix& a, const GraphRules& rules, unsigned wanted) {
  Csr<W> g = general_graph<W>(a, rules);
  const bool complete_only = (wanted & complete_graphs) && !(wanted & general_graphs);
  if (!complete_only || !has_every_pair(g)) {
    out.graph = std::move(g);
    out.kind = general_graphs;
    return "general graph";
  }
  g = Csr<W>{};  // freed before the n x n matrix is allocated
  out.graph = complete_graph_from_matrix<W>(a, rules);
  out.kind = complete_graphs;
  return "complete graph (every pair listed)";
}

template <class W>
LoadedGraph load_as(const MmMatrix& a, GraphView view, const GraphRules& rules, unsigned wanted) {
  const MmHeader& h = a.header;
  LoadedGraph out;
  std::string name;
  switch (resolve_by_header(view, h)) {
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
      name = load_square_coordinate<W>(out, a, rules, wanted);
      break;
  }
  const GraphRef g = out.ref();
  out.description = name + ", " + std::to_string(num_vertices(g)) + " vertices, " +
                    std::to_string(num_edges(g)) + " edges";
  return out;
}

}  // namespace

LoadedGraph graph_in_view(const MmMatrix& a, GraphView view, Precision precision, const GraphRules& rules,
                            unsigned wanted) {
  return precision == Precision::float32 ? load_as<float>(a, view, rules, wanted)
                                        : load_as<double>(a, view, rules, wanted);
}

GraphView parse_view(const std::string& name) {
  if (name == "auto") return GraphView::automatic;
  if (name == "general") return GraphView::general;
  if (name == "bipartite") return GraphView::bipartite;
  if (name == "complete") return GraphView::complete;
  throw invalid_input("unknown graph view '" + name + "' (auto, general, bipartite, complete)");
}

Precision parse_precision(const std::string& name) {
  if (name == "float") return Precision::float32;
  if (name == "double") return Precision::float64;
  throw invalid_input("unknown precision '" + name + "' (float, double)");
}

}  // namespace matchblas
