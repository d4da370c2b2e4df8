// Exact maximum weight matchings (exact.hpp): input checks and conversion to
// an edge list, then LEMON through the C++17 wrapper of exact_lemon.hpp.
// Source: LEMON 1.3 MaxWeightedMatching / MaxWeightedPerfectMatching (Edmonds'
// blossom algorithm with dual variables).
// Guarantee: exact (up to rounding of double sums); the result is a valid
// matching, perfect for exact_perfect_matching.
// Cost: O(n m log n) time in LEMON, plus O(n + entries) here.
// Preconditions: exact_matching takes a square Csr holding both directions of
// every edge (only the upper triangle u < v is read; the diagonal is ignored);
// exact_perfect_matching reads the upper triangle of a Dense of even order.
// Weights must be finite; float weights are widened to double.
#include "matchers/general/exact.hpp"

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "lib/error.hpp"
#include "matchers/general/exact_lemon.hpp"

namespace matchblas {

bool have_exact() noexcept { return detail::lemon_available(); }

namespace {

Matching to_matching(const std::vector<int>& mate) {
  Matching m(static_cast<vertex_t>(mate.size()));
  for (std::size_t x = 0; x < mate.size(); ++x) m.mate[x] = mate[x];
  return m;
}

std::string at(vertex_t u, vertex_t v) {
  return " at (" + std::to_string(u) + ", " + std::to_string(v) + ")";
}

}  // namespace

template <class W>
Matching exact_matching(const Csr<W>& g) {
  // Check inputs.
  if (g.n_rows != g.n_cols)
    throw shape_error("exact_matching needs a square (general graph) Csr, got " +
                      std::to_string(g.n_rows) + " x " + std::to_string(g.n_cols));
  const vertex_t n = g.n_rows;
  MATCHBLAS_EXPECTS(n >= 0 && g.offsets.size() == static_cast<std::size_t>(n) + 1 &&
                        g.cols.size() == static_cast<std::size_t>(g.num_entries()) &&
                        g.weights.size() == g.cols.size(),
                    "exact_matching: inconsistent Csr arrays");
  // Collect the upper triangle as an edge list.
  std::vector<int> eu, ev;
  std::vector<double> ew;
  eu.reserve(g.cols.size() / 2);
  ev.reserve(g.cols.size() / 2);
  ew.reserve(g.cols.size() / 2);
  for (vertex_t u = 0; u < n; ++u)
    for (offset_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) {
      const vertex_t v = g.cols[k];
      const double w = static_cast<double>(g.weights[k]);
      if (v < 0 || v >= n) throw invalid_input("exact_matching: column out of range" + at(u, v));
      if (!std::isfinite(w)) throw invalid_input("exact_matching: weight not finite" + at(u, v));
      if (u < v) {
        eu.push_back(u);
        ev.push_back(v);
        ew.push_back(w);
      }
    }
  // Compute.
  return to_matching(detail::lemon_max_weight_matching(n, eu, ev, ew, false));
}

template <class W>
Matching exact_perfect_matching(const Dense<W>& g) {
  // Check inputs.
  const vertex_t n = g.n;
  MATCHBLAS_EXPECTS(n >= 0 && g.values.size() == static_cast<std::size_t>(n) * n,
                    "exact_perfect_matching: dense matrix is not n x n");
  if (n % 2 != 0)
    throw invalid_input("exact_perfect_matching: a perfect matching needs an even number of "
                        "vertices, got " + std::to_string(n) + " (see padded_to_even)");
  if (n == 0) return Matching(0);
  // The complete graph as an edge list (upper triangle).
  const std::size_t m = static_cast<std::size_t>(g.num_edges());
  std::vector<int> eu, ev;
  std::vector<double> ew;
  eu.reserve(m);
  ev.reserve(m);
  ew.reserve(m);
  for (vertex_t u = 0; u < n; ++u)
    for (vertex_t v = u + 1; v < n; ++v) {
      const double w = static_cast<double>(g(u, v));
      if (!std::isfinite(w))
        throw invalid_input("exact_perfect_matching: weight not finite" + at(u, v));
      eu.push_back(u);
      ev.push_back(v);
      ew.push_back(w);
    }
  // Compute.
  return to_matching(detail::lemon_max_weight_matching(n, eu, ev, ew, true));
}

template Matching exact_matching(const Csr<float>&);
template Matching exact_matching(const Csr<double>&);
template <class W>
Matching exact_complete_matching(const Dense<W>& g) {
  if (g.n % 2 == 0) return exact_perfect_matching(g);
  Matching m = exact_perfect_matching(padded_to_even(g));
  if (m.mate[g.n] != no_vertex) m.mate[m.mate[g.n]] = no_vertex;
  m.mate.resize(g.n);
  return m;
}

template Matching exact_complete_matching(const Dense<float>&);
template Matching exact_complete_matching(const Dense<double>&);
template Matching exact_perfect_matching(const Dense<float>&);
template Matching exact_perfect_matching(const Dense<double>&);

}  // namespace matchblas
