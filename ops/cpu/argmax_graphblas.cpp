// argmax per row, the SuiteSparse:GraphBLAS backend: the reference path
// (ops/argmax.hpp states the semantics), on a resident GraphBlasGraph whose
// entries are keys code(w) << 32 | (2^32 - 1 - v) (ops/cpu/graphblas.hpp),
// so the argmax with the smallest-index tie rule is one built-in MAX
// reduction (SuiteSparse:GraphBLAS 7.4 has no GxB_IndexBinaryOp):
//
//   1. w<r> = reduce_rows(K, MAX)             no column mask; r: the active rows
//      w<r> = K MAX.TIMES x                   x(v) = 1 for an eligible column, else 0
//   2. with a floor: a row whose best eligible entry beats its column's
//      floor is done (nothing better qualifies). The other rows R are
//      recomputed on their own entries of weight at least the floor's:
//        Kr = K(R, :)                   a row extract
//        Q = Kr ANY.ISGT diag(f')       f'(v) = (code(fw) << 32) - 1: Q(u,v) = 1
//                                       when w(u,v) >= v's floor weight
//        T = Kr .* Q  (TIMES)           the others become key 0
//        w(R) = reduce_rows(T, MAX)
//      and the rows whose best there ties with the floor and loses the tie
//      (u >= fv) exactly: the same on Kr2 = (Kr BAND code bits) +
//      diag(2^32 - 1 - u), their column view (keys with u), against f(v) =
//      the floor key of (floor_weight[v], floor_vertex[v]). Ineligible
//      columns get all ones. Step 2 is skipped when no floor excludes a
//      pickable entry (every floor -inf, as in Suitor's first round).
//   best[u] = the column of w(u), best_weight[u] = its weight; -1 and 0 where
//   w(u) is absent or has a code no argmax picks (key 0: nothing qualified;
//   NaN, -inf).
// r is a structural mask (a sparse vector: SuiteSparse's masked dot product
// touches only the active rows). Every operator is built-in: user operators
// run through 7.4's generic kernels, measured 3-7x slower (bench/RESULTS.md).
//
// Source: "Parallel graph matching", a course project on handshaking
// matching (the strongest neighbour, smallest index on ties); docs/ARCHITECTURE.md
// "The ops (CPU backend)" (the MAX reduction with a tie-break); step 2's "test the best
// first" is best_neighbour's early exit (lib/greedy_order.hpp) in bulk.
// Guarantee: the plain backend's result for every input
// (tests/ops/test_argmax.cpp, test_graphblas_graph.cpp). Cost: O(local rows
// + local columns) for the masks and the output, plus in GraphBLAS one
// reduction over the active rows' entries and, with a floor, four passes
// over the entries of the rows whose best entry fails its floor (six for
// the rows of a lost tie).
// Threads: omp_get_max_threads() (grb::Context).
#include <algorithm>

#include "lib/error.hpp"
#include "ops/argmax.hpp"
#include "ops/cpu/graphblas.hpp"

namespace matchblas::ops {

namespace {

// w<mask> = the best key of each row of k (MAX.TIMES x when x is given).
void best_keys(GrB_Vector w, GrB_Vector mask, const grb::View& k, GrB_Vector x, const grb::Context& ctx) {
  const GrB_Descriptor d = ctx.desc(k.transposed, /*structural=*/true);
  if (x != nullptr)
    MATCHBLAS_GRB_TRY(GrB_mxv(w, mask, nullptr, GxB_MAX_TIMES_UINT64, k.get(), x, d));
  else
    MATCHBLAS_GRB_TRY(GrB_Matrix_reduce_Monoid(w, mask, nullptr, GrB_MAX_MONOID_UINT64, k.get(), d));
}

// The entries (index, key) of w.
struct Tuples {
  grb::Buffer<GrB_Index> at;
  grb::Buffer<std::uint64_t> keys;
};
Tuples tuples(GrB_Vector w) {
  GrB_Index n = 0;
  MATCHBLAS_GRB_TRY(GrB_Vector_nvals(&n, w));
  Tuples t{grb::Buffer<GrB_Index>(n), grb::Buffer<std::uint64_t>(n)};
  MATCHBLAS_GRB_TRY(GrB_Vector_extractTuples_UINT64(t.at.data(), t.keys.data(), &n, w));
  return t;
}

// The best key of each row `rows` of K (local ids) among the entries whose
// key, in the column view when `exact` (keys with the row) and the row view
// otherwise, is above their column's value in `above` (by local column):
//   Kr = K(rows, :); [Kr2 = (Kr BAND code bits) + diag(2^32 - 1 - u)];
//   T = Kr .* (Kr[2] ANY.ISGT diag(above)); w = reduce_rows(T, MAX).
template <class W>
grb::Vector best_above(const grb::GraphImpl<W>& a, const grb::Buffer<GrB_Index>& rows,
                       grb::Buffer<std::uint64_t>&& above, bool exact, const grb::Context& ctx) {
  const GrB_Index n = rows.size(), cols = a.local_cols;
  grb::Matrix kr = grb::new_matrix(GrB_UINT64, n, cols);
  MATCHBLAS_GRB_TRY(GrB_Matrix_extract(kr.get(), nullptr, nullptr, a.rows_view.get(), rows.data(), n, GrB_ALL, cols,
                                       ctx.desc(a.rows_view.transposed)));
  grb::Matrix beats = grb::new_matrix(GrB_UINT64, n, cols), above_diag;
  {
    const grb::Vector above_vector = grb::full_vector(std::move(above), ctx);
    MATCHBLAS_GRB_TRY(GrB_Matrix_diag(above_diag.out(), above_vector.get(), 0));
  }
  if (exact) {
    grb::Matrix codes = grb::new_matrix(GrB_UINT64, n, cols), row_diag;
    MATCHBLAS_GRB_TRY(GrB_Matrix_apply_BinaryOp2nd_UINT64(codes.get(), nullptr, nullptr, GrB_BAND_UINT64, kr.get(),
                                                          ~grb::low_bits, ctx.plain()));
    grb::Buffer<std::uint64_t> low(n);
    for (GrB_Index k = 0; k < n; ++k) low[k] = grb::low_bits - std::uint32_t(a.row_id(rows[k]));
    const grb::Vector low_vector = grb::full_vector(std::move(low), ctx);
    MATCHBLAS_GRB_TRY(GrB_Matrix_diag(row_diag.out(), low_vector.get(), 0));
    grb::Matrix kr2 = grb::new_matrix(GrB_UINT64, n, cols);
    MATCHBLAS_GRB_TRY(
        GrB_mxm(kr2.get(), nullptr, nullptr, GxB_ANY_PLUS_UINT64, row_diag.get(), codes.get(), ctx.plain()));
    codes.reset();
    MATCHBLAS_GRB_TRY(
        GrB_mxm(beats.get(), nullptr, nullptr, GxB_ANY_ISGT_UINT64, kr2.get(), above_diag.get(), ctx.plain()));
  } else {
    MATCHBLAS_GRB_TRY(
        GrB_mxm(beats.get(), nullptr, nullptr, GxB_ANY_ISGT_UINT64, kr.get(), above_diag.get(), ctx.plain()));
  }
  above_diag.reset();
  grb::Matrix kept = grb::new_matrix(GrB_UINT64, n, cols);
  MATCHBLAS_GRB_TRY(
      GrB_Matrix_eWiseMult_BinaryOp(kept.get(), nullptr, nullptr, GrB_TIMES_UINT64, kr.get(), beats.get(), ctx.plain()));
  beats.reset();
  kr.reset();
  grb::Vector w;
  MATCHBLAS_GRB_TRY(GrB_Vector_new(w.out(), GrB_UINT64, n));
  best_keys(w.get(), nullptr, grb::own(std::move(kept)), nullptr, ctx);
  return w;
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
  const grb::WeightCodes<W>& codes = *a.codes;
  const std::uint32_t unpicked = codes.last_unpicked();

  // The active rows, as a structural mask (none: every row).
  grb::Vector mask;
  if (!masks.active_rows.empty()) {
    grb::Buffer<GrB_Index> active(rows);
    std::size_t count = 0;
    for (GrB_Index r = 0; r < rows; ++r)
      if (masks.active_rows[std::size_t(a.row_id(r))] != 0) active[count++] = r;
    if (count == 0) return;
    if (count < rows) {
      grb::Scalar one;
      MATCHBLAS_GRB_TRY(GrB_Scalar_new(one.out(), GrB_BOOL));
      MATCHBLAS_GRB_TRY(GrB_Scalar_setElement_BOOL(one.get(), true));
      MATCHBLAS_GRB_TRY(GrB_Vector_new(mask.out(), GrB_BOOL, rows));
      MATCHBLAS_GRB_TRY(GxB_Vector_build_Scalar(mask.get(), active.data(), one.get(), count));
    }
  }

  // The floor key of an original column v (ineligible: nothing beats it).
  const bool eligible_mask = !masks.eligible_cols.empty(), floor_mask = !masks.floor_weight.empty();
  const auto eligible = [&](vertex_t v) { return !eligible_mask || masks.eligible_cols[std::size_t(v)] != 0; };
  const auto floor_key = [&](vertex_t v) {
    return eligible(v) ? codes.floor_key(masks.floor_weight[std::size_t(v)], masks.floor_vertex[std::size_t(v)])
                       : ~std::uint64_t(0);
  };
  // Per local column: eligibility as 1 / 0, the floor key, and whether any
  // floor excludes a pickable entry.
  grb::Buffer<std::uint64_t> col_value(eligible_mask || floor_mask ? cols : 0), floor(floor_mask ? cols : 0);
  bool some_ineligible = false, floor_excludes = false;
  if (eligible_mask || floor_mask) {
    const auto local_cols = std::int64_t(cols);
#pragma omp parallel for schedule(static) reduction(|| : some_ineligible, floor_excludes)
    for (std::int64_t c = 0; c < local_cols; ++c) {
      const vertex_t v = a.col_id(GrB_Index(c));
      col_value[std::size_t(c)] = eligible(v) ? 1 : 0;
      some_ineligible = some_ineligible || !eligible(v);
      if (!floor_mask) continue;
      const std::uint64_t f = floor_key(v);
      floor[std::size_t(c)] = f;
      floor_excludes = floor_excludes || grb::key_code(f) > unpicked;
    }
  }

  // 1. The best eligible key of each active row.
  Tuples found;
  {
    grb::Vector w, x;
    MATCHBLAS_GRB_TRY(GrB_Vector_new(w.out(), GrB_UINT64, rows));
    if (some_ineligible) x = grb::full_vector(std::move(col_value), ctx);
    best_keys(w.get(), mask.get(), a.rows_view, x.get(), ctx);
    found = tuples(w.get());
  }

  // 2. Rows whose best entry loses to its column's floor are recomputed:
  //    first among their entries whose weight is at least the floor's (a
  //    row key above (code(fw) - 1) << 32 | 2^32 - 1: two GraphBLAS passes
  //    less than the exact test); a row whose best there is a tie with the
  //    floor that it loses is recomputed exactly, in the column view.
  const auto decode = [&](GrB_Index r, std::uint64_t key) {
    if (grb::key_code(key) <= unpicked) return;  // nothing qualified, or only NaN / -inf weights
    const auto u = std::size_t(a.row_id(r));
    best[u] = grb::key_id(key);
    best_weight[u] = codes.weight(grb::key_code(key));
  };
  // Whether the entry of `key` in row r beats its column's floor.
  const auto beats_floor = [&](GrB_Index r, std::uint64_t key) {
    const std::uint64_t column_view = (key & ~grb::low_bits) | (grb::low_bits - std::uint32_t(a.row_id(r)));
    return column_view > floor_key(grb::key_id(key));
  };
  // Decodes the entries (rows[t.at[k]], t.keys[k]) (rows: the identity when
  // null) that qualify or mean "none"; returns the rows of the others.
  const auto settle = [&](const Tuples& t, const grb::Buffer<GrB_Index>* rows_of) {
    const auto n = std::int64_t(t.keys.size());
    grb::Buffer<std::uint8_t> fails{std::size_t(n)};
#pragma omp parallel for schedule(static)
    for (std::int64_t k = 0; k < n; ++k) {
      const GrB_Index r = rows_of != nullptr ? (*rows_of)[t.at[std::size_t(k)]] : t.at[std::size_t(k)];
      const std::uint64_t key = t.keys[std::size_t(k)];
      fails[std::size_t(k)] = floor_excludes && grb::key_code(key) > unpicked && !beats_floor(r, key);
      if (fails[std::size_t(k)] == 0) decode(r, key);
    }
    grb::Buffer<GrB_Index> failed{std::size_t(n)};
    std::size_t count = 0;
    for (std::int64_t k = 0; k < n; ++k)
      if (fails[std::size_t(k)] != 0)
        failed[count++] = rows_of != nullptr ? (*rows_of)[t.at[std::size_t(k)]] : t.at[std::size_t(k)];
    failed.shrink(count);
    return failed;
  };
  const grb::Buffer<GrB_Index> retry = settle(found, nullptr);
  if (retry.empty()) return;

  // The key every entry of weight at least the floor's beats
  // ((code(fw) << 32) - 1; unchanged when nothing or everything beats it).
  grb::Buffer<std::uint64_t> at_least(cols);
  const auto local_cols = std::int64_t(cols);
#pragma omp parallel for schedule(static)
  for (std::int64_t c = 0; c < local_cols; ++c) {
    const std::uint64_t f = floor[std::size_t(c)];
    at_least[std::size_t(c)] = f == ~std::uint64_t(0) || grb::key_code(f) == 0 ? f : (f & ~grb::low_bits) - 1;
  }
  const grb::Buffer<GrB_Index> ties =
      settle(tuples(best_above(a, retry, std::move(at_least), /*exact=*/false, ctx).get()), &retry);
  if (ties.empty()) return;
  const Tuples exact = tuples(best_above(a, ties, std::move(floor), /*exact=*/true, ctx).get());
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < std::int64_t(exact.keys.size()); ++k)
    decode(ties[exact.at[std::size_t(k)]], exact.keys[std::size_t(k)]);
}

template void argmax_rows<float>(const GraphBlasGraph<float>&, const ArgmaxMasks<float>&, std::span<vertex_t>,
                                 std::span<float>, Backend);
template void argmax_rows<double>(const GraphBlasGraph<double>&, const ArgmaxMasks<double>&, std::span<vertex_t>,
                                  std::span<double>, Backend);

}  // namespace matchblas::ops
