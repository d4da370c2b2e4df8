// The graph-from-matrix rules; see graph_from_matrix.hpp.
#include "lib/graph_from_matrix.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "lib/counter_rng.hpp"
#include "lib/csr_build.hpp"
#include "lib/error.hpp"

namespace matchblas {

namespace {

// Calls f(row, col, value) for every stored entry of a, in file order,
// with pattern entries given their seeded weight.
template <class F>
void for_each_entry(const MmMatrix& a, const GraphRules& rules, F&& f) {
  const MmHeader& h = a.header;
  if (h.format == MmFormat::array) {
    for (vertex_t r = 0; r < h.rows; ++r)
      for (vertex_t c = 0; c < h.cols; ++c) f(r, c, a.val[static_cast<std::size_t>(r) * h.cols + c]);
    return;
  }
  const bool pattern = h.field == MmField::pattern;
  for (std::size_t k = 0; k < a.row.size(); ++k) {
    const vertex_t r = a.row[k], c = a.col[k];
    const double v = pattern ? rng::uniform_open_closed(rules.pattern_seed, std::min(r, c), std::max(r, c))
                             : a.val[k];
    f(r, c, v);
  }
}

// Coordinate symmetric and skew-symmetric files store one triangle; the
// other is implied (array files are already expanded by the reader).
bool implies_transpose(const MmHeader& h) {
  return h.format == MmFormat::coordinate && h.symmetry != MmSymmetry::general;
}

// A's stored entries, duplicates summed, in a double Csr (zeros kept).
Csr<double> summed_entries(const MmMatrix& a, const GraphRules& rules, bool skip_diagonal) {
  Triples<double> t;
  t.reserve(a.header.format == MmFormat::array ? a.val.size() : a.row.size() * (implies_transpose(a.header) ? 2 : 1));
  const bool transpose = implies_transpose(a.header);
  const double sign = a.header.symmetry == MmSymmetry::skew_symmetric ? -1.0 : 1.0;
  for_each_entry(a, rules, [&](vertex_t r, vertex_t c, double v) {
    if (skip_diagonal && r == c) return;
    t.push_back(r, c, v);
    if (transpose && r != c) t.push_back(c, r, sign * v);
  });
  return csr_from_triples(a.header.rows, a.header.cols, t, Duplicates::sum, /*drop_zeros=*/false);
}

template <class W>
W checked_weight(double v, vertex_t r, vertex_t c) {
  const W w = static_cast<W>(std::fabs(v));
  if (!std::isfinite(w))
    throw invalid_input("entry (" + std::to_string(r + 1) + ", " + std::to_string(c + 1) +
                        ") sums to " + std::to_string(v) + ", which the weight type cannot hold");
  return w;
}

template <class W>
Csr<W> cast_abs(const Csr<double>& a) {
  Csr<W> b;
  b.n_rows = a.n_rows;
  b.n_cols = a.n_cols;
  b.offsets = a.offsets;
  b.cols = a.cols;
  b.weights.resize(a.weights.size());
  for (vertex_t r = 0; r < a.n_rows; ++r)
    for (offset_t k = a.offsets[r]; k < a.offsets[r + 1]; ++k) b.weights[k] = checked_weight<W>(a.weights[k], r, a.cols[k]);
  return b;
}

}  // namespace

template <class W>
Csr<W> general_graph(const MmMatrix& a, const GraphRules& rules) {
  const MmHeader& h = a.header;
  if (h.rows != h.cols)
    throw shape_error("a general graph needs a square matrix, this one is " + std::to_string(h.rows) +
                      " x " + std::to_string(h.cols) + " (use the bipartite view)");
  const Csr<double> summed = summed_entries(a, rules, /*skip_diagonal=*/true);
  // w(u, v) = max(|a_uv|, |a_vu|): every summed entry speaks for both directions.
  Triples<double> t;
  t.reserve(2 * summed.cols.size());
  for (vertex_t r = 0; r < summed.n_rows; ++r)
    for (offset_t k = summed.offsets[r]; k < summed.offsets[r + 1]; ++k) {
      const double w = std::fabs(summed.weights[k]);
      t.push_back(r, summed.cols[k], w);
      t.push_back(summed.cols[k], r, w);
    }
  return cast_abs<W>(csr_from_triples(h.rows, h.cols, t, Duplicates::max, /*drop_zeros=*/true));
}

template <class W>
Csr<W> bipartite_graph(const MmMatrix& a, const GraphRules& rules) {
  const Csr<double> summed = summed_entries(a, rules, /*skip_diagonal=*/false);
  Triples<double> t;  // the nonzero sums only
  t.reserve(summed.cols.size());
  for (vertex_t r = 0; r < summed.n_rows; ++r)
    for (offset_t k = summed.offsets[r]; k < summed.offsets[r + 1]; ++k)
      if (summed.weights[k] != 0) t.push_back(r, summed.cols[k], summed.weights[k]);
  return cast_abs<W>(csr_from_triples(summed.n_rows, summed.n_cols, t, Duplicates::sum, true));
}

template <class W>
Csr<W> bipartite_as_general(const Csr<W>& b) {
  const std::int64_t n = std::int64_t(b.n_rows) + b.n_cols;
  MATCHBLAS_EXPECTS(n <= std::numeric_limits<vertex_t>::max(),
                    "the bipartite graph has " + std::to_string(n) + " vertices, more than int32 ids allow");
  Triples<W> t;
  t.reserve(2 * b.cols.size());
  for (vertex_t r = 0; r < b.n_rows; ++r)
    for (offset_t k = b.offsets[r]; k < b.offsets[r + 1]; ++k) {
      t.push_back(r, b.n_rows + b.cols[k], b.weights[k]);
      t.push_back(b.n_rows + b.cols[k], r, b.weights[k]);
    }
  return csr_from_triples(static_cast<vertex_t>(n), static_cast<vertex_t>(n), t, Duplicates::max, true);
}

template <class W>
Dense<W> complete_graph_from_matrix(const MmMatrix& a) {
  const MmHeader& h = a.header;
  if (h.rows != h.cols)
    throw shape_error("a complete graph needs a square matrix, this one is " + std::to_string(h.rows) +
                      " x " + std::to_string(h.cols));
  std::vector<double> sum(static_cast<std::size_t>(h.rows) * h.cols, 0.0);
  const bool transpose = implies_transpose(h);
  for_each_entry(a, GraphRules{}, [&](vertex_t r, vertex_t c, double v) {
    sum[static_cast<std::size_t>(r) * h.cols + c] += v;
    if (transpose && r != c) sum[static_cast<std::size_t>(c) * h.cols + r] += v;
  });
  Dense<W> d(h.rows);
  for (vertex_t u = 0; u < h.rows; ++u)
    for (vertex_t v = 0; v < h.rows; ++v)
      if (u != v)
        d(u, v) = checked_weight<W>(std::max(std::fabs(sum[static_cast<std::size_t>(u) * h.cols + v]),
                                             std::fabs(sum[static_cast<std::size_t>(v) * h.cols + u])), u, v);
  return d;
}

#define MATCHBLAS_INSTANTIATE(W)                                                   \
  template Csr<W> general_graph<W>(const MmMatrix&, const GraphRules&);            \
  template Csr<W> bipartite_graph<W>(const MmMatrix&, const GraphRules&);          \
  template Csr<W> bipartite_as_general<W>(const Csr<W>&);                          \
  template Dense<W> complete_graph_from_matrix<W>(const MmMatrix&);
MATCHBLAS_INSTANTIATE(float)
MATCHBLAS_INSTANTIATE(double)
#undef MATCHBLAS_INSTANTIATE

}  // namespace matchblas
