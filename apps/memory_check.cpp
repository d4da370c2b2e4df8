// The commands' memory checks; see memory_check.hpp.
#include "apps/memory_check.hpp"

#include <algorithm>

#include "lib/error.hpp"
#include "lib/graph_from_matrix.hpp"
#include "lib/memory_budget.hpp"

namespace matchblas::cli {

namespace {

std::string count(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

// Vertices and edges (at most) of the graph of `kind` from header h.
struct GraphSize {
  double vertices = 0, edges = 0;
};
GraphSize graph_size(const MmHeader& h, GraphKind kind) {
  const double rows = h.rows, cols = h.cols;
  const double stored = h.format == MmFormat::array ? rows * cols : double(h.entries);
  if (kind == complete_graphs) return {rows, rows * (rows - 1) / 2};
  if (kind == bipartite_graphs) return {rows + cols, stored * (h.symmetry != MmSymmetry::general ? 2 : 1)};
  return {rows, h.format == MmFormat::array ? rows * (rows - 1) / 2 : stored};
}

double matcher_bytes(const MatcherInfo* m, double vertices, double edges) {
  return m ? m->memory.per_vertex * vertices + m->memory.per_edge * edges : 0.0;
}

void refuse_unless_fits(const std::string& file, double bytes, const std::string& what) {
  try {
    require_memory(bytes, what);
  } catch (const out_of_memory& e) {
    const std::string name = file == "-" ? "<stdin>" : file;  // as the readers call it
    throw out_of_memory(name.empty() ? std::string(e.what()) : name + ": " + e.what());
  }
}

}  // namespace

GraphKind expected_kind(const MmHeader& h, GraphView view, unsigned kinds) {
  switch (view) {
    case GraphView::general: return general_graphs;
    case GraphView::bipartite: return bipartite_graphs;
    case GraphView::complete: return complete_graphs;
    case GraphView::automatic: break;
  }
  if (h.rows != h.cols) return bipartite_graphs;
  if (h.format == MmFormat::array) return complete_graphs;
  const double n = h.rows, pairs = h.symmetry == MmSymmetry::general ? n * (n - 1) : n * (n - 1) / 2;
  const bool complete_only = (kinds & complete_graphs) && !(kinds & general_graphs);
  return complete_only && n >= 2 && double(h.entries) >= pairs ? complete_graphs : general_graphs;
}

double graph_command_bytes(const MmHeader& h, GraphKind kind, Precision precision, const MatcherInfo* m,
                           double extra_per_vertex) {
  const std::size_t w = precision == Precision::float32 ? sizeof(float) : sizeof(double);
  const GraphSize g = graph_size(h, kind);
  const double read = matrix_market_bytes(h);
  const GraphBuild build = kind == complete_graphs ? GraphBuild::complete
                           : kind == bipartite_graphs ? GraphBuild::bipartite
                                                      : GraphBuild::general;
  // An automatic complete graph from coordinates is built as a general graph first.
  double building = graph_build_bytes(h, build, w);
  if (kind == complete_graphs && h.format == MmFormat::coordinate)
    building = std::max(building, graph_build_bytes(h, GraphBuild::general, w));
  const double graph = kind == complete_graphs ? g.vertices * g.vertices * double(w)
                                               : 8 * (g.vertices + 1) + 2 * g.edges * (sizeof(vertex_t) + w);
  const double running = graph + extra_per_vertex * g.vertices + matcher_bytes(m, g.vertices, g.edges);
  return std::max({read, read + building, running});
}

void check_graph_memory(const std::string& file, const MmHeader& h, GraphView view, Precision precision,
                        const MatcherInfo& m, double extra_per_vertex) {
  const GraphKind kind = expected_kind(h, view, m.kinds);
  const GraphSize g = graph_size(h, kind);
  refuse_unless_fits(file, graph_command_bytes(h, kind, precision, &m, extra_per_vertex),
                     "'" + m.name + "' on its " + kinds_string(kind) + " graph (" + count(g.vertices) +
                         " vertices, up to " + count(g.edges) + " edges)");
}

void check_prepass_memory(const std::string& file, const MmHeader& h, const MatcherInfo& m) {
  const double rows = h.rows, cols = h.cols;
  const double entries = h.format == MmFormat::array ? rows * cols
                                                     : double(h.entries) * (h.symmetry != MmSymmetry::general ? 2 : 1);
  const double read = matrix_market_bytes(h);
  const double matrix = 8 * (rows + 1) + entries * (sizeof(vertex_t) + sizeof(double));
  const double running = matrix + matcher_bytes(&m, rows + cols, entries);
  const double bytes = std::max({read, read + graph_build_bytes(h, GraphBuild::as_given, sizeof(double)), running});
  refuse_unless_fits(file, bytes,
                     "'" + m.name + "' on the " + count(rows) + " x " + count(cols) + " matrix with up to " +
                         count(entries) + " entries");
}

void check_community_memory(const std::string& file, const MmHeader& h, const MatcherInfo& m) {
  const double n = h.rows;
  const double entries = h.format == MmFormat::array ? n * double(h.cols)
                                                     : double(h.entries) * (h.symmetry != MmSymmetry::general ? 2 : 1);
  const double read = matrix_market_bytes(h);
  // The graph has both directions of each entry at most; the entry counts
  // an undirected edge once (MatcherInfo::memory).
  const double graph = 8 * (n + 1) + 2 * entries * (sizeof(vertex_t) + sizeof(double));
  const double running = graph + matcher_bytes(&m, n, 2 * entries);
  const double bytes = std::max(read + graph_build_bytes(h, GraphBuild::general, sizeof(double)), running);
  refuse_unless_fits(file, bytes,
                     "'" + m.name + "' on the " + count(n) + "-vertex graph with up to " + count(entries) + " edges");
}

void check_marriage_memory(const std::string& file, vertex_t men, vertex_t women, double entries,
                           const MatcherInfo& m) {
  const double people = double(men) + double(women);
  // The instance (offsets and lists of both sides), then its ranked lists
  // beside it (offsets, women and ranks of the men's lists).
  const double instance = 8 * (people + 2) + sizeof(vertex_t) * entries;
  const double ranked = 8 * (double(men) + 1) + 8 * entries;
  refuse_unless_fits(file, instance + ranked + matcher_bytes(&m, people, entries),
                     "'" + m.name + "' on " + count(men) + " men and " + count(women) + " women" +
                         (entries > 0 ? " with " + count(entries) + " list entries" : ""));
}

void check_gen_memory(const GeneratorKind& kind, vertex_t n, const GenOptions& opt) {
  const GeneratedSize s = kind.size(n, opt);
  // The Matrix Market copy of a sparse graph (one triangle: row, column,
  // value per edge) is made beside the graph; a complete graph's weights
  // are moved into it.
  const double graph = kind.complete ? 8 * s.vertices * s.vertices : 8 * (s.vertices + 1) + 24 * s.edges;
  const double bytes = std::max(s.peak_bytes, graph + (kind.complete ? 0 : 16 * s.edges));
  refuse_unless_fits("", bytes,
                     "gen " + kind.name + " " + std::to_string(n) + " (" + count(s.vertices) + " vertices, " +
                         (kind.complete ? "complete" : "up to " + count(s.edges) + " edges") + ")");
}

}  // namespace matchblas::cli
