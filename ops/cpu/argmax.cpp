// argmax_rows: the one place that checks the arguments of the row argmax and
// chooses its backend (ops/argmax.hpp states the semantics; STYLE 2 and 7).
//   plain      ops/cpu/argmax_plain.cpp       C++/OpenMP, the fast path
//   graphblas  ops/cpu/argmax_graphblas.cpp   SuiteSparse:GraphBLAS, the reference:
//              A imported into a GraphBlasGraph for the call
//              (ops/cpu/ops_no_graphblas.cpp in builds without it: throws)
//   automatic  plain
// Cost of the checks: O(1).
#include <string>

#include "ops/argmax.hpp"
#include "lib/error.hpp"

namespace matchblas::ops {

namespace detail {
// Defined in the backend files above, for W in {float, double}.
template <class W>
void argmax_rows_plain(const Csr<W>& a, const ArgmaxMasks<W>& masks, std::span<vertex_t> best,
                       std::span<W> best_weight);
template <class W>
void argmax_rows_gpu(const Csr<W>& a, const ArgmaxMasks<W>& masks, std::span<vertex_t> best,
                     std::span<W> best_weight);
}  // namespace detail

namespace {

void expect_length(std::size_t got, std::size_t want, bool may_be_empty, const char* what) {
  if (got == want || (may_be_empty && got == 0)) return;
  throw invalid_input(std::string("argmax_rows: ") + what + " has " + std::to_string(got) + " entries, expected " +
                      (may_be_empty ? "0 or " : "") + std::to_string(want));
}

}  // namespace

template <class W>
void detail::expect_argmax_lengths(vertex_t n_rows, vertex_t n_cols, const ArgmaxMasks<W>& masks, std::size_t best,
                                   std::size_t best_weight) {
  const std::size_t rows = std::size_t(n_rows), cols = std::size_t(n_cols);
  expect_length(masks.active_rows.size(), rows, true, "active_rows");
  expect_length(masks.eligible_cols.size(), cols, true, "eligible_cols");
  expect_length(masks.floor_weight.size(), cols, true, "floor_weight");
  expect_length(masks.floor_vertex.size(), masks.floor_weight.empty() ? 0 : cols, false,
                masks.floor_weight.empty() ? "floor_vertex (floor_weight is empty)" : "floor_vertex");
  expect_length(best, rows, false, "best");
  expect_length(best_weight, rows, false, "best_weight");
}

template <class W>
void argmax_rows(const Csr<W>& a, const ArgmaxMasks<W>& masks, std::span<vertex_t> best,
                 std::span<W> best_weight, Backend backend) {
  MATCHBLAS_EXPECTS(a.n_rows >= 0 && a.n_cols >= 0 && a.offsets.size() == std::size_t(a.n_rows) + 1 &&
                        a.cols.size() == std::size_t(a.num_entries()) && a.weights.size() == a.cols.size(),
                    "argmax_rows: the matrix is not a consistent CSR (offsets, cols, weights lengths)");
  detail::expect_argmax_lengths(a.n_rows, a.n_cols, masks, best.size(), best_weight.size());

  if (backend == Backend::graphblas) argmax_rows(GraphBlasGraph<W>(a), masks, best, best_weight);
  else if (backend == Backend::gpu) detail::argmax_rows_gpu(a, masks, best, best_weight);
  else detail::argmax_rows_plain(a, masks, best, best_weight);
}

template void argmax_rows<float>(const Csr<float>&, const ArgmaxMasks<float>&, std::span<vertex_t>,
                                 std::span<float>, Backend);
template void argmax_rows<double>(const Csr<double>&, const ArgmaxMasks<double>&, std::span<vertex_t>,
                                  std::span<double>, Backend);
template void detail::expect_argmax_lengths(vertex_t, vertex_t, const ArgmaxMasks<float>&, std::size_t, std::size_t);
template void detail::expect_argmax_lengths(vertex_t, vertex_t, const ArgmaxMasks<double>&, std::size_t,
                                            std::size_t);

}  // namespace matchblas::ops
