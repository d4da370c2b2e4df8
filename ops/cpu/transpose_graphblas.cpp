// transpose of a GraphBlasGraph, the graphblas backend of ops/transpose.hpp:
// C = A' as a transposed view (ops/cpu/graphblas.hpp): C's row view is A's
// column view (keys that carry A's row, which is C's column) read with
// GrB_INP0 = GrB_TRAN, and C's column view is A's row view, read the same
// way; C shares A's GraphBLAS matrices. The ops on C pass the transpose to
// GraphBLAS, which evaluates it as it sees fit (a row reduction of C, say,
// becomes a column reduction of A: a saxpy, no transpose).
// Source: the ops' transpose / format change for bipartite views, GraphBLAS
// on the CPU (docs/ARCHITECTURE.md "The ops (CPU backend)").
// Guarantee: transpose(A.to_csr()) (tests/ops/test_transpose.cpp).
// Cost: O(1), once A's column view exists (two passes over A's entries
// when A has not made it: kept for later calls).
#include "ops/cpu/graphblas.hpp"
#include "ops/transpose.hpp"

namespace matchblas::ops {

template <class W>
GraphBlasGraph<W> transpose(const GraphBlasGraph<W>& g, Backend backend) {
  detail::expect_graphblas_backend(backend, "transpose");
  const grb::Context ctx;
  const auto& a = g.impl();
  auto c = std::make_unique<typename GraphBlasGraph<W>::Impl>();
  c->codes = a.codes;
  c->local_rows = a.local_cols;
  c->local_cols = a.local_rows;
  c->row_ids = a.col_ids;
  c->col_ids = a.row_ids;
  c->entries = a.entries;
  c->rows_view = a.cols_view(ctx).flipped();
  c->set_cols_view(a.rows_view.flipped());
  return GraphBlasGraph<W>(g.n_cols(), g.n_rows(), std::move(c));
}

template GraphBlasGraph<float> transpose(const GraphBlasGraph<float>&, Backend);
template GraphBlasGraph<double> transpose(const GraphBlasGraph<double>&, Backend);

}  // namespace matchblas::ops
