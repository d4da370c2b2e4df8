// transpose of a GraphBlasGraph, the graphblas backend of ops/transpose.hpp:
// C = A' by GrB_transpose of A's column view (ops/cpu/graphblas.hpp: keys
// that carry the original row, which is C's column), so C's row view needs
// no fixing; C's rows and columns are A's columns and rows.
// Source: DESIGN.md "The ops" (transpose / format change, GraphBLAS on the
// CPU). Guarantee: transpose(A.to_csr()) (tests/ops/test_transpose.cpp).
// Cost: the column view of A once (two passes over A's entries, kept for
// later calls), then one GraphBLAS transpose: O(rows + cols + entries).
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
  c->rows_view = grb::new_matrix(GrB_UINT64, c->local_rows, c->local_cols);
  if (a.entries > 0)
    MATCHBLAS_GRB_TRY(GrB_transpose(c->rows_view.get(), nullptr, nullptr, a.cols_view(ctx), ctx.plain()));
  MATCHBLAS_GRB_TRY(GrB_Matrix_wait(c->rows_view.get(), GrB_MATERIALIZE));
  return GraphBlasGraph<W>(g.n_cols(), g.n_rows(), std::move(c));
}

template GraphBlasGraph<float> transpose(const GraphBlasGraph<float>&, Backend);
template GraphBlasGraph<double> transpose(const GraphBlasGraph<double>&, Backend);

}  // namespace matchblas::ops
