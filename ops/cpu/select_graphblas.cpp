// select_free_entries on a GraphBlasGraph, the graphblas backend of
// ops/select.hpp: C = A(F, F) with F the free vertices (mate == -1), by one
// GrB_Matrix_extract. The result keeps A's shape: the handle remembers the
// original ids of the rows and columns it holds (ops/cpu/graphblas.hpp), and
// the keys carry the original column, so nothing is renumbered for the
// caller; C's GraphBLAS matrix is |F| x |F|, and the next ops on it work on
// the free vertices only.
// Source: "Parallel graph matching", a course project on handshaking
// matching (keep the edges between unmatched vertices; the
// compaction is GraphBLAS's). Guarantee: the entries of A whose endpoints
// are both free, as select_free_entries on A.to_csr() (tests/ops/test_select.cpp).
// Cost: O(local rows + local columns) to list F, plus the extract:
// O(entries of the free rows) in GraphBLAS. The column view, when A has
// made it, is extracted with it.
#include "lib/error.hpp"
#include "ops/cpu/graphblas.hpp"
#include "ops/select.hpp"

namespace matchblas::ops {

namespace {

// The local indices i < n whose original vertex id(i) is free.
template <class Id>
grb::Buffer<GrB_Index> free_locals(GrB_Index n, Id id, std::span<const vertex_t> mate) {
  grb::Buffer<GrB_Index> kept(n);
  std::size_t count = 0;
  for (GrB_Index i = 0; i < n; ++i)
    if (mate[std::size_t(id(i))] == no_vertex) kept[count++] = i;
  kept.shrink(count);
  return kept;
}

// A(I, J) (GrB_ALL for a full list) of the logical matrix of view a.
grb::View extract(const grb::View& a, GrB_Index rows, GrB_Index cols, const grb::Buffer<GrB_Index>& i,
                  const grb::Buffer<GrB_Index>& j, const grb::Context& ctx) {
  grb::Matrix c = grb::new_matrix(GrB_UINT64, i.size(), j.size());
  if (!i.empty() && !j.empty())
    MATCHBLAS_GRB_TRY(GrB_Matrix_extract(c.get(), nullptr, nullptr, a.get(), i.size() == rows ? GrB_ALL : i.data(),
                                         i.size(), j.size() == cols ? GrB_ALL : j.data(), j.size(),
                                         ctx.desc(a.transposed)));
  MATCHBLAS_GRB_TRY(GrB_Matrix_wait(c.get(), GrB_MATERIALIZE));
  return grb::own(std::move(c));
}

}  // namespace

template <class W>
GraphBlasGraph<W> select_free_entries(const GraphBlasGraph<W>& g, std::span<const vertex_t> mate, Backend backend) {
  detail::expect_graphblas_backend(backend, "select_free_entries");
  if (g.n_rows() != g.n_cols() || mate.size() != std::size_t(g.n_rows()))
    throw shape_error("select_free_entries: needs a square matrix and one mate per vertex; got " +
                      std::to_string(g.n_rows()) + " x " + std::to_string(g.n_cols()) + " and " +
                      std::to_string(mate.size()) + " mates");
  const grb::Context ctx;
  const auto& a = g.impl();
  const grb::Buffer<GrB_Index> i = free_locals(a.local_rows, [&](GrB_Index r) { return a.row_id(r); }, mate);
  const grb::Buffer<GrB_Index> j = free_locals(a.local_cols, [&](GrB_Index c) { return a.col_id(c); }, mate);
  auto c = std::make_unique<typename GraphBlasGraph<W>::Impl>();
  c->codes = a.codes;
  c->local_rows = i.size();
  c->local_cols = j.size();
  if (i.size() != a.local_rows || !a.row_ids.empty())
    for (std::size_t k = 0; k < i.size(); ++k) c->row_ids.push_back(a.row_id(i[k]));
  if (j.size() != a.local_cols || !a.col_ids.empty())
    for (std::size_t k = 0; k < j.size(); ++k) c->col_ids.push_back(a.col_id(j[k]));
  c->rows_view = extract(a.rows_view, a.local_rows, a.local_cols, i, j, ctx);
  c->entries = grb::nvals(c->rows_view.get());
  if (const grb::View k2 = a.cols_view_if_made()) c->set_cols_view(extract(k2, a.local_rows, a.local_cols, i, j, ctx));
  return GraphBlasGraph<W>(g.n_rows(), g.n_cols(), std::move(c));
}

template GraphBlasGraph<float> select_free_entries(const GraphBlasGraph<float>&, std::span<const vertex_t>, Backend);
template GraphBlasGraph<double> select_free_entries(const GraphBlasGraph<double>&, std::span<const vertex_t>,
                                                    Backend);

}  // namespace matchblas::ops
