// b-matching: b_greedy, validation, weight, and the helpers b-Suitor shares
// (matchers/b_matching/b_suitor.cpp), b-suitor-gpu's placement names; see
// b_matching.hpp.
#include "matchers/b_matching/b_matching.hpp"

#include <algorithm>
#include <numeric>

#include "lib/edge_order.hpp"
#include "lib/error.hpp"

namespace matchblas {

namespace detail {

void expect_b(vertex_t n, const std::vector<int>& b, const char* who) {
  if (b.size() != std::size_t(n))
    throw invalid_input(std::string(who) + ": b has " + std::to_string(b.size()) + " entries, the graph " +
                        std::to_string(n) + " vertices");
  for (vertex_t v = 0; v < n; ++v)
    if (b[v] < 0) throw invalid_input(std::string(who) + ": b(" + std::to_string(v) + ") = " + std::to_string(b[v]) + " < 0");
}

template <class W>
void expect_b(const Csr<W>& g, const std::vector<int>& b, const char* who) {
  MATCHBLAS_EXPECTS(g.n_rows == g.n_cols, std::string(who) + " needs a general (square) graph");
  expect_b(g.n_rows, b, who);
}

// The CSR of partner lists from per-vertex lists (sorted here).
BMatching from_lists(std::vector<std::vector<vertex_t>>& lists) {
  BMatching m;
  m.offsets.assign(lists.size() + 1, 0);
  for (std::size_t v = 0; v < lists.size(); ++v) m.offsets[v + 1] = m.offsets[v] + offset_t(lists[v].size());
  m.partners.reserve(std::size_t(m.offsets.back()));
  for (auto& l : lists) {
    std::sort(l.begin(), l.end());
    m.partners.insert(m.partners.end(), l.begin(), l.end());
  }
  return m;
}

template void expect_b(const Csr<float>&, const std::vector<int>&, const char*);
template void expect_b(const Csr<double>&, const std::vector<int>&, const char*);

}  // namespace detail

std::vector<int> constant_b(vertex_t n, int value) {
  MATCHBLAS_EXPECTS(n >= 0 && value >= 0, "constant_b: n and b must be >= 0");
  return std::vector<int>(std::size_t(n), value);
}

template <class W>
BMatching b_greedy(const Csr<W>& g, const std::vector<int>& b) {
  detail::expect_b(g, b, "b_greedy");
  std::vector<std::vector<vertex_t>> lists(static_cast<std::size_t>(g.n_rows));
  for (const WeightedEdge<W>& e : edges_in_greedy_order(g, 0))
    if (int(lists[e.u].size()) < b[e.u] && int(lists[e.v].size()) < b[e.v]) {
      lists[e.u].push_back(e.v);
      lists[e.v].push_back(e.u);
    }
  return detail::from_lists(lists);
}

template <class W>
double b_matching_weight(const Csr<W>& g, const BMatching& m) {
  double sum = 0;
  for (vertex_t u = 0; u < m.n(); ++u)
    for (offset_t i = m.offsets[u]; i < m.offsets[u + 1]; ++i) {
      const vertex_t v = m.partners[i];
      if (u >= v) continue;
      const auto first = g.cols.begin() + g.offsets[u], last = g.cols.begin() + g.offsets[u + 1];
      const auto it = std::lower_bound(first, last, v);
      if (it != last && *it == v) sum += double(g.weights[it - g.cols.begin()]);
    }
  return sum;
}

template <class W>
std::string b_matching_violation(const Csr<W>& g, const std::vector<int>& b, const BMatching& m) {
  if (m.n() != g.n_rows || b.size() != std::size_t(g.n_rows)) return "sizes differ from the graph's";
  const auto has = [](const std::vector<vertex_t>& p, offset_t lo, offset_t hi, vertex_t v) {
    return std::binary_search(p.begin() + lo, p.begin() + hi, v);
  };
  for (vertex_t u = 0; u < g.n_rows; ++u) {
    const offset_t lo = m.offsets[u], hi = m.offsets[u + 1];
    if (hi - lo > b[u])
      return "vertex " + std::to_string(u) + " has " + std::to_string(hi - lo) + " partners, b = " + std::to_string(b[u]);
    for (offset_t i = lo; i < hi; ++i) {
      const vertex_t v = m.partners[i];
      if (i > lo && m.partners[i - 1] >= v) return "partners of " + std::to_string(u) + " not strictly ascending";
      if (v < 0 || v >= g.n_rows || v == u) return "vertex " + std::to_string(u) + " has partner " + std::to_string(v);
      if (!std::binary_search(g.cols.begin() + g.offsets[u], g.cols.begin() + g.offsets[u + 1], v))
        return "edge " + std::to_string(u) + "-" + std::to_string(v) + " is not in the graph";
      if (!has(m.partners, m.offsets[v], m.offsets[v + 1], u))
        return std::to_string(u) + " lists " + std::to_string(v) + " but not the other way";
    }
  }
  return "";
}

BSuitorPlacement parse_b_suitor_placement(std::string_view name) {
  if (name == "atomic") return BSuitorPlacement::atomic;
  if (name == "sorted") return BSuitorPlacement::sorted;
  throw invalid_input("unknown b-suitor-gpu placement '" + std::string(name) + "' (known: atomic, sorted)");
}

std::string to_string(BSuitorPlacement p) { return p == BSuitorPlacement::sorted ? "sorted" : "atomic"; }

template BMatching b_greedy(const Csr<float>&, const std::vector<int>&);
template BMatching b_greedy(const Csr<double>&, const std::vector<int>&);
template double b_matching_weight(const Csr<float>&, const BMatching&);
template double b_matching_weight(const Csr<double>&, const BMatching&);
template std::string b_matching_violation(const Csr<float>&, const std::vector<int>&, const BMatching&);
template std::string b_matching_violation(const Csr<double>&, const std::vector<int>&, const BMatching&);

}  // namespace matchblas
