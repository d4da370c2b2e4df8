// argmax per row, the SuiteSparse:GraphBLAS backend: the reference path
// (ops/argmax.hpp states the semantics), on a resident GraphBlasGraph whose
// entries are keys code(w) << 32 | (2^32 - 1 - v) (ops/cpu/graphblas.hpp),
// so the argmax with the smallest-index tie rule is one built-in MAX
// reduction (7.4 has no GxB_IndexBinaryOp; DESIGN.md "Dependency facts"):
//
//   no column mask    w<r> = reduce_rows(K, MAX)                 r: the active rows
//   eligible columns  w<r> = K MAX.TIMES x,  x(v) = 1 eligible, 0 not
//   a floor           Kr = K(r, :), Kr2 = K2(r, :) (row extracts; the whole
//                     matrices when every row is active), then
//                     Q = Kr2 ANY.ISGT diag(f)   Q(u,v) = 1 when u beats v's floor
//                     T = Kr .* Q  (TIMES)       failing entries become key 0
//                     w = reduce_rows(T, MAX)
//                     f(v) = the floor key of (floor_weight[v], floor_vertex[v]),
//                     or all ones for an ineligible v; K2 is the column view
//                     (keys with u), made once per matrix. Skipped when no
//                     floor can exclude a pickable entry (every floor -inf).
//   best[u] = the column of w(u), best_weight[u] = its weight; -1 and 0 where
//   w(u) is absent or has a code no argmax picks (key 0: nothing qualified;
//   NaN, -inf).
// r is a structural mask (a sparse vector: SuiteSparse's masked dot product
// touches only the active rows). Every operator is built-in: user operators
// run through 7.4's generic kernels, measured 5-10x slower (bench/RESULTS.md).
//
// Source: seed 003 (strongest neighbour, smallest index on ties), DESIGN.md
// "The ops" (the MAX reduction with a tie-break). Guarantee: the plain
// backend's result for every input (tests/ops/test_argmax.cpp, against the
// executable specification). Cost: O(local rows + local columns) for the
// masks and the output, plus O(entries of the active rows) in GraphBLAS: one
// reduction without a floor; two extracts, a scaling, a product and a
// reduction with one. Threads: omp_get_max_threads() (grb::Context).
#include <algorithm>

#include "lib/error.hpp"
#include "ops/argmax.hpp"
#include "ops/cpu/graphblas.hpp"

namespace matchblas::ops {

namespace {

// K(rows, :) as a new matrix.
grb::Matrix extract_rows(GrB_Matrix k, const std::vector<GrB_Index>& rows, GrB_Index cols, const grb::Context& ctx) {
  grb::Matrix out = grb::new_matrix(GrB_UINT64, rows.size(), cols);
  MATCHBLAS_GRB_TRY(GrB_Matrix_extract(out.get(), nullptr, nullptr, k, rows.data(), rows.size(), GrB_ALL, cols,
                                       ctx.plain()));
  return out;
}

}  // namespace

template <class W>
void argmax_rows(const GraphBlasGraph<W>& g, const ArgmaxMasks<W>& masks, std::span<vertex_t> best,
                 std::span<W> best_weight, Backend backend) {
  detail::expect_graphblas_backend(backend, "argmax_rows");
  detail::expect_argmax_lengths(g.n_rows(), g.n_cols(), masks, best.size(), best_weight.size());
  std::fill(best.begin(), best.end(), no_vertex);
  std::fill(best_weight.begin(), best_weight.end(), W(0));
  const auto& a = g.impl();
  if (a.entries == 0) return;
  const grb::Context ctx;
  const GrB_Index rows = a.local_rows, cols = a.local_cols;
  const auto local_cols = std::int64_t(cols);

  // The active local rows (all: no mask).
  std::vector<GrB_Index> active;
  bool all_rows = true;
  if (!masks.active_rows.empty()) {
    for (GrB_Index r = 0; r < rows; ++r)
      if (masks.active_rows[std::size_t(a.row_id(r))] != 0) active.push_back(r);
    if (active.empty()) return;
    all_rows = active.size() == rows;
  }

  // Per local column: the floor key (ineligible: nothing beats it), or the
  // eligibility as 1 / 0.
  const bool eligible_mask = !masks.eligible_cols.empty(), floor_mask = !masks.floor_weight.empty();
  std::vector<std::uint64_t> col_value;
  bool floor_excludes = false, some_ineligible = false;
  if (floor_mask || eligible_mask) {
    col_value.resize(cols);
    const grb::WeightCodes<W>& codes = *a.codes;
    const std::uint32_t unpicked = codes.last_unpicked();
#pragma omp parallel for schedule(static) reduction(|| : floor_excludes, some_ineligible)
    for (std::int64_t c = 0; c < local_cols; ++c) {
      const vertex_t v = a.col_id(GrB_Index(c));
      const bool eligible = !eligible_mask || masks.eligible_cols[std::size_t(v)] != 0;
      some_ineligible = some_ineligible || !eligible;
      if (floor_mask) {
        const std::uint64_t f =
            eligible ? codes.floor_key(masks.floor_weight[std::size_t(v)], masks.floor_vertex[std::size_t(v)])
                     : ~std::uint64_t(0);
        floor_excludes = floor_excludes || grb::key_code(f) > unpicked;  // else every pickable weight beats it
        col_value[std::size_t(c)] = f;
      } else {
        col_value[std::size_t(c)] = eligible ? 1 : 0;
      }
    }
    if (floor_mask && !floor_excludes) col_value.clear();  // no floor excludes anything: every column is eligible
  }

  grb::Vector w;
  const bool extracted = floor_excludes && !all_rows;
  MATCHBLAS_GRB_TRY(GrB_Vector_new(w.out(), GrB_UINT64, extracted ? GrB_Index(active.size()) : rows));
  if (floor_excludes) {
    grb::Matrix kr, kr2;
    GrB_Matrix k = a.rows_view.get(), k2 = a.cols_view(ctx);
    if (extracted) {
      kr = extract_rows(k, active, cols, ctx);
      kr2 = extract_rows(k2, active, cols, ctx);
      k = kr.get();
      k2 = kr2.get();
    }
    const GrB_Index out_rows = extracted ? GrB_Index(active.size()) : rows;
    const grb::Vector floor_vector = grb::full_vector(col_value, ctx);
    grb::Matrix diag;
    MATCHBLAS_GRB_TRY(GrB_Matrix_diag(diag.out(), floor_vector.get(), 0));
    grb::Matrix beats = grb::new_matrix(GrB_UINT64, out_rows, cols);
    MATCHBLAS_GRB_TRY(GrB_mxm(beats.get(), nullptr, nullptr, GxB_ANY_ISGT_UINT64, k2, diag.get(), ctx.plain()));
    kr2.reset();
    grb::Matrix kept = grb::new_matrix(GrB_UINT64, out_rows, cols);
    MATCHBLAS_GRB_TRY(
        GrB_Matrix_eWiseMult_BinaryOp(kept.get(), nullptr, nullptr, GrB_TIMES_UINT64, k, beats.get(), ctx.plain()));
    beats.reset();
    kr.reset();
    MATCHBLAS_GRB_TRY(
        GrB_Matrix_reduce_Monoid(w.get(), nullptr, nullptr, GrB_MAX_MONOID_UINT64, kept.get(), ctx.plain()));
  } else {
    grb::Vector mask;  // structural: its values do not matter
    if (!all_rows) {
      grb::Scalar one;
      MATCHBLAS_GRB_TRY(GrB_Scalar_new(one.out(), GrB_BOOL));
      MATCHBLAS_GRB_TRY(GrB_Scalar_setElement_BOOL(one.get(), true));
      MATCHBLAS_GRB_TRY(GrB_Vector_new(mask.out(), GrB_BOOL, rows));
      MATCHBLAS_GRB_TRY(GxB_Vector_build_Scalar(mask.get(), active.data(), one.get(), active.size()));
    }
    if (eligible_mask && some_ineligible) {
      const grb::Vector x = grb::full_vector(col_value, ctx);
      MATCHBLAS_GRB_TRY(
          GrB_mxv(w.get(), mask.get(), nullptr, GxB_MAX_TIMES_UINT64, a.rows_view.get(), x.get(), ctx.structural_mask()));
    } else {
      MATCHBLAS_GRB_TRY(GrB_Matrix_reduce_Monoid(w.get(), mask.get(), nullptr, GrB_MAX_MONOID_UINT64,
                                                 a.rows_view.get(), ctx.structural_mask()));
    }
  }

  // Decode: the local row of w's entry k, its original row, column and weight.
  GrB_Index n = 0;
  MATCHBLAS_GRB_TRY(GrB_Vector_nvals(&n, w.get()));
  std::vector<GrB_Index> at(n);
  std::vector<std::uint64_t> keys(n);
  MATCHBLAS_GRB_TRY(GrB_Vector_extractTuples_UINT64(at.data(), keys.data(), &n, w.get()));
  const grb::WeightCodes<W>& codes = *a.codes;
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < std::int64_t(n); ++k) {
    const std::uint64_t key = keys[std::size_t(k)];
    if (grb::key_code(key) <= codes.last_unpicked()) continue;  // nothing qualified, or only NaN / -inf weights
    const GrB_Index r = extracted ? active[std::size_t(at[std::size_t(k)])] : at[std::size_t(k)];
    const auto u = std::size_t(a.row_id(r));
    best[u] = grb::key_id(key);
    best_weight[u] = codes.weight(grb::key_code(key));
  }
}

template void argmax_rows<float>(const GraphBlasGraph<float>&, const ArgmaxMasks<float>&, std::span<vertex_t>,
                                 std::span<float>, Backend);
template void argmax_rows<double>(const GraphBlasGraph<double>&, const ArgmaxMasks<double>&, std::span<vertex_t>,
                                  std::span<double>, Backend);

}  // namespace matchblas::ops
