// GraphBlasGraph: a sparse matrix resident in SuiteSparse:GraphBLAS, the
// operand of the graphblas backend of the ops (what DeviceGraph is to the
// GPU ones). Built once per graph by one import; the ops on it
// (argmax_rows, select_free_entries, transpose: ops/argmax.hpp,
// select.hpp, transpose.hpp) run GraphBLAS operations on it and import
// nothing, so a matcher's rounds pay for the import once.
//
//   GraphBlasGraph<W> g(a);   g holds A (a copy: a may go away)
//   g.to_csr()                A again, rows sorted (-0 weights read back as +0)
//
// An opaque handle: no GraphBLAS type appears here (its body is
// ops/cpu/graphblas.hpp's GraphImpl), so CPU code that includes this builds
// without GraphBLAS.h. Move-only; const use from several threads is safe.
// W in {float, double}.
// Errors: invalid_input when a is not a consistent CSR (lengths, offsets,
// a column outside [0, n_cols), the same column twice in a row: GraphBLAS
// matrices hold at most one entry per position) or, for double weights,
// has more than 2^31 - 2 distinct weights that are not all floats;
// matchblas::error in a build without GraphBLAS; out_of_memory.
// Cost of the import: O(rows + entries) (plus sorting the rows that are not
// sorted, and for double weights that are not all floats, sorting the
// distinct weights), 16 bytes per entry in GraphBLAS.
#pragma once
#include <memory>

#include "lib/csr.hpp"
#include "lib/types.hpp"
#include "ops/backend.hpp"

namespace matchblas::ops {

// What an import makes: the row view (keys carrying the column; always),
// and the column view too (keys carrying the row), which transpose needs
// and would otherwise make on first use by two GraphBLAS passes over the
// entries: worth importing for a matrix that is about to be transposed.
enum class GraphBlasViews { rows, rows_and_columns };

template <class W>
class GraphBlasGraph {
 public:
  explicit GraphBlasGraph(const Csr<W>& a, GraphBlasViews views = GraphBlasViews::rows);
  ~GraphBlasGraph();
  GraphBlasGraph(GraphBlasGraph&&) noexcept;
  GraphBlasGraph& operator=(GraphBlasGraph&&) noexcept;

  vertex_t n_rows() const noexcept { return n_rows_; }
  vertex_t n_cols() const noexcept { return n_cols_; }
  offset_t num_entries() const noexcept { return entries_; }
  Csr<W> to_csr() const;

  // The body, for the backend's files (ops/cpu/*_graphblas.cpp).
  struct Impl;
  GraphBlasGraph(vertex_t n_rows, vertex_t n_cols, std::unique_ptr<Impl> impl);
  const Impl& impl() const noexcept { return *impl_; }

 private:
  vertex_t n_rows_ = 0, n_cols_ = 0;
  offset_t entries_ = 0;
  std::unique_ptr<Impl> impl_;
};

// What a matcher written with the ops runs its rounds on: f(g) on the
// plain and gpu backends, f(GraphBlasGraph(g)) (an rvalue, imported once) on
// the graphblas backend. f takes either (a generic lambda).
template <class W, class F>
auto with_backend_graph(const Csr<W>& g, Backend backend, F&& f) {
  if (backend == Backend::graphblas) return f(GraphBlasGraph<W>(g));
  return f(g);
}

}  // namespace matchblas::ops
