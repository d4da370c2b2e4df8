// The graph-from-matrix rules; see graph_from_matrix.hpp.
#include "lib/graph_from_matrix.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "lib/counter_rng.hpp"
#include "lib/csr_build.hpp"
#include "lib/error.hpp"
#include "lib/memory_budget.hpp"
#include "lib/interrupt.hpp"

namespace matchblas {

namespace {

// Calls f(row, col, value) for every stored entry of a, in file order,
// with pattern entries given their seeded weight (rules null: the value 1).
template <class F>
void for_each_entry(const MmMatrix& a, const GraphRules* rules, F&& f) {
  const MmHeader& h = a.header;
  if (h.format == MmFormat::array) {
    for (vertex_t r = 0; r < h.rows; ++r)
      for (vertex_t c = 0; c < h.cols; ++c) f(r, c, a.val[static_cast<std::size_t>(r) * h.cols + c]);
    return;
  }
  const bool pattern = h.field == MmField::pattern;
  for (std::size_t k = 0; k < a.row.size(); ++k) {
    const vertex_t r = a.row[k], c = a.col[k];
    const double v = !pattern ? a.val[k]
                     : rules  ? rng::uniform_open_closed(rules->pattern_seed, std::min(r, c), std::max(r, c))
                              : 1.0;
    f(r, c, v);
  }
}

// Coordinate symmetric and skew-symmetric files store one triangle; the
// other is implied (array files are already expanded by the reader).
bool implies_transpose(const MmHeader& h) {
  return h.format == MmFormat::coordinate && h.symmetry != MmSymmetry::general;
}

// "%g" of v: short, one line, exponent form for huge or tiny values.
std::string short_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// Peak bytes of the row-indexed vectors of the Csr builds (count, cursors,
// survivors, offsets of the input and the output Csr) and of the per-entry
// arrays (triples, sorted entries, output columns and weights), per entry
// of the triples the build sorts: csr_from_triples on E entries holds the
// triples (16 E), its entries (16 E) and its output (12 E); general_graph
// sorts E summed entries, then 2E directed ones beside the summed Csr.
constexpr double row_bytes = 6 * sizeof(offset_t);
constexpr double entry_bytes = 112;

// Stored entries of a file with this header, counting the transposes that
// symmetric files imply (an array file is read as the full matrix).
double expanded_entries(const MmHeader& h) {
  if (h.format == MmFormat::array) return double(h.rows) * double(h.cols);
  return double(h.entries) * (h.symmetry != MmSymmetry::general ? 2 : 1);
}

// A's stored entries, duplicates summed, in a double Csr (zeros kept unless
// drop_zeros; rules null: pattern entries 1).
Csr<double> summed_entries(const MmMatrix& a, const GraphRules* rules, bool skip_diagonal, bool drop_zeros) {
  Triples<double> t;
  t.reserve(static_cast<std::size_t>(expanded_entries(a.header)));
  const bool transpose = implies_transpose(a.header);
  const double sign = a.header.symmetry == MmSymmetry::skew_symmetric ? -1.0 : 1.0;
  for_each_entry(a, rules, [&](vertex_t r, vertex_t c, double v) {
    if (skip_diagonal && r == c) return;
    t.push_back(r, c, v);
    if (transpose && r != c) t.push_back(c, r, sign * v);
  });
  check_interrupt();  // between the steps of a long build (lib/interrupt.hpp)
  return csr_from_triples(a.header.rows, a.header.cols, t, Duplicates::sum, drop_zeros);
}


std::string dims(const MmHeader& h) { return std::to_string(h.rows) + " x " + std::to_string(h.cols); }
std::string entries(const MmHeader& h) {
  return std::to_string(h.entries) + (h.entries == 1 ? " entry" : " entries");
}

// |a| with weights of type W (a's structure moved, not copied); summed:
// whether a's weights may be sums of duplicates (not from an array). A weight that
// underflows to zero in W is dropped, as every zero weight is (both
// directions of an edge carry the same double, so both go).
template <class W>
Csr<W> cast_abs(Csr<double> a, int shown_base, bool summed) {
  Csr<W> b;
  b.n_rows = a.n_rows;
  b.n_cols = a.n_cols;
  b.weights.resize(a.weights.size());
  bool zeros = false;
  for (vertex_t r = 0; r < a.n_rows; ++r)
    for (offset_t k = a.offsets[r]; k < a.offsets[r + 1]; ++k) {
      b.weights[k] = checked_weight<W>(a.weights[k], r, a.cols[k], shown_base, summed);
      zeros |= b.weights[k] == W(0);
    }
  b.offsets = std::move(a.offsets);
  b.cols = std::move(a.cols);
  if (zeros) {  // compact in place, rows in order
    offset_t out = 0;
    for (vertex_t r = 0; r < b.n_rows; ++r) {
      const offset_t first = b.offsets[r], last = b.offsets[r + 1];
      b.offsets[r] = out;
      for (offset_t k = first; k < last; ++k)
        if (b.weights[k] != W(0)) {
          b.cols[out] = b.cols[k];
          b.weights[out++] = b.weights[k];
        }
    }
    b.offsets[b.n_rows] = out;
    b.cols.resize(static_cast<std::size_t>(out));
    b.weights.resize(static_cast<std::size_t>(out));
  }
  return b;
}

// "(r, c)" numbered from `base`, as the builders' messages show an entry.
std::string entry_at(vertex_t r, vertex_t c, int base) {
  return "(" + std::to_string(std::int64_t(r) + base) + ", " + std::to_string(std::int64_t(c) + base) + ")";
}
}  // namespace

template <class W>
W checked_weight(double v, vertex_t r, vertex_t c, int shown_base, bool summed) {
  const W w = static_cast<W>(std::fabs(v));
  if (!std::isfinite(w))
    throw invalid_input("entry " + entry_at(r, c, shown_base) + " has the weight " + short_number(v) +
                        (summed ? " (duplicates summed)" : "") + ", which a " + (sizeof(W) == 4 ? "float" : "double") +
                        " weight cannot hold" + (sizeof(W) == 4 ? ": use double weights" : ""));
  return w;
}

double graph_build_bytes(const MmHeader& h, GraphBuild build, std::size_t weight_bytes) {
  // The bipartite view's rows are the matrix's rows and columns.
  const double rows = double(h.rows) + 1, e = expanded_entries(h);
  switch (build) {
    case GraphBuild::general: return rows * row_bytes + e * entry_bytes;
    case GraphBuild::bipartite: return (rows + double(h.cols)) * row_bytes + e * entry_bytes;
    case GraphBuild::as_given: return rows * row_bytes + e * entry_bytes / 2;
    case GraphBuild::complete:
      return double(h.rows) * double(h.rows) * double(weight_bytes) +
             (h.format == MmFormat::array ? 0.0 : rows * row_bytes + e * entry_bytes / 2);
  }
  return 0;
}

namespace {
// The square matrix's general graph in doubles: w(u, v) = max(|a_uv|,
// |a_vu|) (or of the values themselves when !modulus) after duplicates are
// summed, the diagonal ignored, zeros dropped (rules null: pattern entries 1).
// `what` names the graph in the errors.
Csr<double> symmetric_max(const MmMatrix& a, const GraphRules* rules, bool modulus, const std::string& what) {
  const MmHeader& h = a.header;
  if (h.rows != h.cols)
    throw shape_error(what + " needs a square matrix, this one is " + dims(h) +
                      (rules ? " (use the bipartite view)" : ""));  // community detection has no other view
  require_memory(graph_build_bytes(h, GraphBuild::general, sizeof(double)),
                 what + " of a " + dims(h) + " matrix with " + entries(h));
  const Csr<double> summed = summed_entries(a, rules, /*skip_diagonal=*/true, /*drop_zeros=*/false);
  check_interrupt();
  // Every summed entry speaks for both directions.
  Triples<double> t;
  t.reserve(2 * summed.cols.size());
  for (vertex_t r = 0; r < summed.n_rows; ++r)
    for (offset_t k = summed.offsets[r]; k < summed.offsets[r + 1]; ++k) {
      const double w = modulus ? std::fabs(summed.weights[k]) : summed.weights[k];
      if (!(w >= 0))
        throw invalid_input("entry " + entry_at(r, summed.cols[k], a.shown_base) + " is " + short_number(w) + ": " +
                            what + " needs non-negative weights");
      t.push_back(r, summed.cols[k], w);
      t.push_back(summed.cols[k], r, w);
    }
  check_interrupt();
  return csr_from_triples(h.rows, h.cols, t, Duplicates::max, /*drop_zeros=*/true);
}
}  // namespace

template <class W>
Csr<W> general_graph(const MmMatrix& a, const GraphRules& rules) {
  return cast_abs<W>(symmetric_max(a, &rules, /*modulus=*/true, "a general graph"), a.shown_base,
                     a.header.format != MmFormat::array);
}

Csr<double> community_graph(const MmMatrix& a) {
  Csr<double> g = symmetric_max(a, nullptr, /*modulus=*/false, "community detection");
  for (vertex_t r = 0; r < g.n_rows; ++r)
    for (offset_t k = g.offsets[r]; k < g.offsets[r + 1]; ++k)
      if (!std::isfinite(g.weights[k]))
        throw invalid_input("entry " + entry_at(r, g.cols[k], a.shown_base) + " sums to " +
                            short_number(g.weights[k]) + ", which a double cannot hold");
  return g;
}

template <class W>
Csr<W> bipartite_graph(const MmMatrix& a, const GraphRules& rules) {
  const MmHeader& h = a.header;
  require_memory(graph_build_bytes(h, GraphBuild::as_given, sizeof(W)),
                 "the bipartite graph of a " + dims(h) + " matrix with " + entries(h));
  // Sum first, drop the zero sums, then take |.| (abs before the sum would
  // keep entries that cancel).
  return cast_abs<W>(summed_entries(a, &rules, /*skip_diagonal=*/false, /*drop_zeros=*/true), a.shown_base,
                     a.header.format != MmFormat::array);
}

Csr<double> matrix_as_given(const MmMatrix& a) {
  const MmHeader& h = a.header;
  require_memory(graph_build_bytes(h, GraphBuild::as_given, sizeof(double)),
                 "the " + dims(h) + " matrix with " + entries(h));
  Csr<double> s = summed_entries(a, nullptr, /*skip_diagonal=*/false, /*drop_zeros=*/false);
  for (vertex_t r = 0; r < s.n_rows; ++r)
    for (offset_t k = s.offsets[r]; k < s.offsets[r + 1]; ++k)
      if (!std::isfinite(s.weights[k]))
        throw invalid_input("entry " + entry_at(r, s.cols[k], a.shown_base) + " sums to " +
                            short_number(s.weights[k]) + ", which a double cannot hold");
  return s;
}

template <class W>
Csr<W> bipartite_as_general(const Csr<W>& b) {
  const std::int64_t n = std::int64_t(b.n_rows) + b.n_cols;
  MATCHBLAS_EXPECTS(n <= std::numeric_limits<vertex_t>::max(),
                    "the bipartite graph has " + std::to_string(n) + " vertices, more than int32 ids allow");
  require_memory((double(n) + 1) * row_bytes + double(b.cols.size()) * entry_bytes,
                 "the bipartite graph on " + std::to_string(n) + " vertices (" + std::to_string(b.n_rows) +
                    " rows + " + std::to_string(b.n_cols) + " columns)");
  Triples<W> t;
  t.reserve(2 * b.cols.size());
  for (vertex_t r = 0; r < b.n_rows; ++r)
    for (offset_t k = b.offsets[r]; k < b.offsets[r + 1]; ++k) {
      t.push_back(r, b.n_rows + b.cols[k], b.weights[k]);
      t.push_back(b.n_rows + b.cols[k], r, b.weights[k]);
    }
  check_interrupt();
  return csr_from_triples(static_cast<vertex_t>(n), static_cast<vertex_t>(n), t, Duplicates::max, true);
}

template <class W>
Dense<W> complete_graph_from_matrix(const MmMatrix& a, const GraphRules& rules) {
  const MmHeader& h = a.header;
  if (h.rows != h.cols) throw shape_error("a complete graph needs a square matrix, this one is " + dims(h));
  const bool array = h.format == MmFormat::array;
  require_memory(graph_build_bytes(h, GraphBuild::complete, sizeof(W)), "the complete graph of a " + dims(h) + " matrix");
  Dense<W> d(h.rows);
  if (array) {  // the reader expanded the values to the full row-major n x n; no duplicates
    const std::size_t n = std::size_t(h.rows);
    for (std::size_t u = 0; u < n; ++u)
      for (std::size_t v = u + 1; v < n; ++v) {
        const W w = checked_weight<W>(std::max(std::fabs(a.val[u * n + v]), std::fabs(a.val[v * n + u])),
                                      vertex_t(u), vertex_t(v), a.shown_base, false);
        d.values[u * n + v] = d.values[v * n + u] = w;
      }
    return d;
  }
  // Coordinate: duplicates summed (and symmetric files expanded) first.
  const Csr<double> summed = summed_entries(a, &rules, /*skip_diagonal=*/true, /*drop_zeros=*/false);
  for (vertex_t r = 0; r < summed.n_rows; ++r)
    for (offset_t k = summed.offsets[r]; k < summed.offsets[r + 1]; ++k) {
      const vertex_t c = summed.cols[k];
      const W w = checked_weight<W>(summed.weights[k], r, c, a.shown_base);
      d(r, c) = std::max(d(r, c), w);
      d(c, r) = std::max(d(c, r), w);
    }
  return d;
}

#define MATCHBLAS_INSTANTIATE(W)                                                   \
  template W checked_weight<W>(double, vertex_t, vertex_t, int, bool);                         \
  template Csr<W> general_graph<W>(const MmMatrix&, const GraphRules&);            \
  template Csr<W> bipartite_graph<W>(const MmMatrix&, const GraphRules&);          \
  template Csr<W> bipartite_as_general<W>(const Csr<W>&);                          \
  template Dense<W> complete_graph_from_matrix<W>(const MmMatrix&, const GraphRules&);
MATCHBLAS_INSTANTIATE(float)
MATCHBLAS_INSTANTIATE(double)
#undef MATCHBLAS_INSTANTIATE

}  // namespace matchblas
