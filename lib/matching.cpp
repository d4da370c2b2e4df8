// Weight, cardinality and validation of a matching against a graph.
#include "lib/matching.hpp"

#include <algorithm>

#include "lib/error.hpp"

namespace matchblas {

namespace {

// The weight of edge {u, v} in a general graph, or nothing when it is absent
// (binary search in u's sorted row).
template <class W>
std::optional<W> edge_weight(const Csr<W>& g, vertex_t u, vertex_t v) {
  const auto cols = g.row_cols(u);
  const auto it = std::lower_bound(cols.begin(), cols.end(), v);
  if (it == cols.end() || *it != v) return std::nullopt;
  return g.weights[g.offsets[u] + (it - cols.begin())];
}

// The checks shared by every graph kind: size, range, symmetry, no self-match.
std::string mate_array_violation(vertex_t n, const Matching& m) {
  if (m.size() != n)
    return "the mate array has " + std::to_string(m.size()) + " entries for a graph of " +
           std::to_string(n) + " vertices";
  for (vertex_t u = 0; u < n; ++u) {
    const vertex_t v = m.mate[u];
    if (v == no_vertex) continue;
    if (v < 0 || v >= n)
      return "vertex " + std::to_string(u) + " has mate " + std::to_string(v) + ", outside 0.." +
             std::to_string(n - 1);
    if (v == u) return "vertex " + std::to_string(u) + " is matched to itself";
    if (m.mate[v] != u)
      return "vertex " + std::to_string(u) + " has mate " + std::to_string(v) + " but " +
             std::to_string(v) + " has mate " + std::to_string(m.mate[v]);
  }
  return {};
}

}  // namespace

offset_t cardinality(const Matching& m) {
  offset_t c = 0;
  for (vertex_t v : m.mate) c += v != no_vertex;
  return c / 2;
}

template <class W>
double matching_weight(const Csr<W>& g, const Matching& m) {
  MATCHBLAS_EXPECTS(m.size() == g.n_rows, "matching and graph differ in size");
  double sum = 0;
  for (vertex_t u = 0; u < m.size(); ++u) {
    const vertex_t v = m.mate[u];
    if (v == no_vertex || v < u) continue;
    const auto w = edge_weight(g, u, v);
    if (!w)
      throw invalid_input("matched pair (" + std::to_string(u) + ", " + std::to_string(v) +
                          ") is not an edge");
    sum += static_cast<double>(*w);
  }
  return sum;
}

template <class W>
double matching_weight(const Dense<W>& g, const Matching& m) {
  MATCHBLAS_EXPECTS(m.size() == g.n, "matching and graph differ in size");
  double sum = 0;
  for (vertex_t u = 0; u < m.size(); ++u)
    if (m.mate[u] != no_vertex && m.mate[u] > u) sum += static_cast<double>(g(u, m.mate[u]));
  return sum;
}

template <class W>
std::string matching_violation(const Csr<W>& g, const Matching& m) {
  if (g.n_rows != g.n_cols) return "the graph is not square";
  if (auto why = mate_array_violation(g.n_rows, m); !why.empty()) return why;
  for (vertex_t u = 0; u < g.n_rows; ++u) {
    const vertex_t v = m.mate[u];
    if (v != no_vertex && !edge_weight(g, u, v))
      return "matched pair (" + std::to_string(u) + ", " + std::to_string(v) + ") is not an edge";
  }
  return {};
}

template <class W>
std::string matching_violation(const Dense<W>& g, const Matching& m) {
  return mate_array_violation(g.n, m);
}

template <class W>
bool is_maximal(const Csr<W>& g, const Matching& m) {
  for (vertex_t u = 0; u < g.n_rows; ++u)
    if (m.is_free(u))
      for (vertex_t v : g.row_cols(u))
        if (m.is_free(v)) return false;
  return true;
}

#define MATCHBLAS_INSTANTIATE(W)                                               \
  template double matching_weight(const Csr<W>&, const Matching&);             \
  template double matching_weight(const Dense<W>&, const Matching&);           \
  template std::string matching_violation(const Csr<W>&, const Matching&);     \
  template std::string matching_violation(const Dense<W>&, const Matching&);   \
  template bool is_maximal(const Csr<W>&, const Matching&);
MATCHBLAS_INSTANTIATE(float)
MATCHBLAS_INSTANTIATE(double)
#undef MATCHBLAS_INSTANTIATE

}  // namespace matchblas
