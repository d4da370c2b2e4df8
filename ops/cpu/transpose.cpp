// transpose: the checks and the choice of backend for ops::transpose, and
// the plain backend (ops/transpose.hpp states the semantics).
//   plain      a counting sort by column, below
//   gpu        ops/gpu/transpose_gpu.cu (cuSPARSE csr2csc)
//   graphblas  ops/cpu/transpose_graphblas.cpp on A imported for the call
//   automatic  plain
//
// The plain backend cuts the rows into `parts` ranges of about equal entry
// counts and runs STYLE 6's phases (as lib/csr_build.hpp, without atomics):
//   count  count[p][v] = entries of column v in part p      (parts in parallel)
//   scan   C.offsets = the column totals' exclusive prefix sum; count[p][v]
//          becomes where part p's entries of column v start:
//          C.offsets[v] + entries of column v in parts before p  (sequential)
//   fill   each part walks its rows in order and puts the entry (u, v, w) at
//          count[p][v]++                                     (parts in parallel)
// Parts are ranges of rows in order, so each row of C lists ascending u
// (A's order for duplicates) whatever the number of parts.
// Guarantee: exactly the definition in ops/transpose.hpp, for any thread
// count. Cost: O(rows + cols * parts + entries) work; depth
// O(entries / parts + cols * parts); count holds cols * parts offsets.
#include "ops/transpose.hpp"

#include <omp.h>

#include <algorithm>
#include <string>
#include <vector>

#include "lib/error.hpp"
#include "ops/gpu_ops.hpp"

namespace matchblas::ops {

namespace {

// Below this many entries one part (sequential). dev (2 cores of an AMD
// EPYC, shared), float, 8 random columns per row, rows = cols = entries / 8,
// best of 50 (checks and allocation included), 1 / 2 threads: 73 / 78 us at
// 32K entries, 315 / 341 us at 64K, 1.71 / 1.58 ms at 256K, 10.0 / 8.2 ms
// at 1M. Kept 256K, where two threads start to pay.
constexpr offset_t transpose_parallel_min = offset_t(1) << 18;

// The number of parts: the thread count for large inputs, but never so many
// that the count arrays (cols * parts) outgrow the entries.
int transpose_parts(offset_t entries, vertex_t cols) {
  if (entries < transpose_parallel_min) return 1;
  const offset_t cap = entries / (offset_t(cols) + 1);
  return int(std::clamp<offset_t>(cap, 1, omp_get_max_threads()));
}

template <class W>
Csr<W> transpose_plain(const Csr<W>& a) {
  const vertex_t rows = a.n_rows, cols = a.n_cols;
  const offset_t m = a.num_entries();
  const int parts = transpose_parts(m, cols);
  // Part p holds rows [first[p], first[p + 1]); first[p] is the first row
  // that starts at or after entry p * m / parts.
  std::vector<vertex_t> first(std::size_t(parts) + 1, rows);
  for (int p = 0; p < parts; ++p)
    first[p] = vertex_t(std::lower_bound(a.offsets.begin(), a.offsets.end() - 1, offset_t(p) * m / parts) -
                        a.offsets.begin());

  Csr<W> c;
  c.n_rows = cols;
  c.n_cols = rows;
  c.offsets.assign(std::size_t(cols) + 1, 0);
  c.cols.resize(std::size_t(m));
  c.weights.resize(std::size_t(m));
  std::vector<offset_t> count(std::size_t(parts) * std::size_t(cols), 0);
  const offset_t* const off = a.offsets.data();
  const vertex_t* const a_cols = a.cols.data();
  const W* const a_wts = a.weights.data();

  // Phase 1, count.
#pragma omp parallel for schedule(static, 1) num_threads(parts)
  for (int p = 0; p < parts; ++p) {
    offset_t* const cnt = count.data() + std::size_t(p) * std::size_t(cols);
    for (offset_t k = off[first[p]]; k < off[first[p + 1]]; ++k) ++cnt[a_cols[k]];
  }

  // Scan.
  offset_t start = 0;
  for (vertex_t v = 0; v < cols; ++v) {
    c.offsets[std::size_t(v)] = start;
    for (int p = 0; p < parts; ++p) {
      offset_t& cnt = count[std::size_t(p) * std::size_t(cols) + std::size_t(v)];
      const offset_t here = cnt;
      cnt = start;
      start += here;
    }
  }
  c.offsets[std::size_t(cols)] = start;

  // Phase 2, fill.
  vertex_t* const c_cols = c.cols.data();
  W* const c_wts = c.weights.data();
#pragma omp parallel for schedule(static, 1) num_threads(parts)
  for (int p = 0; p < parts; ++p) {
    offset_t* const next = count.data() + std::size_t(p) * std::size_t(cols);
    for (vertex_t u = first[p]; u < first[p + 1]; ++u)
      for (offset_t k = off[u]; k < off[u + 1]; ++k) {
        const offset_t at = next[a_cols[k]]++;
        c_cols[at] = u;
        c_wts[at] = a_wts[k];
      }
  }
  return c;
}

}  // namespace

namespace detail {

template <class W>
void expect_transposable(const Csr<W>& a) {
  MATCHBLAS_EXPECTS(a.n_rows >= 0 && a.n_cols >= 0 && a.offsets.size() == std::size_t(a.n_rows) + 1 &&
                        a.offsets.front() == 0 && a.cols.size() == std::size_t(a.offsets.back()) &&
                        a.weights.size() == a.cols.size(),
                    "transpose: the matrix is not a consistent CSR (offsets, cols, weights lengths)");
  const offset_t* const off = a.offsets.data();
  const vertex_t* const cols = a.cols.data();
  const vertex_t n_cols = a.n_cols;
  const std::ptrdiff_t rows = a.n_rows;
  const std::ptrdiff_t m = std::ptrdiff_t(a.cols.size());
  bool decreasing = false, out_of_range = false;
#pragma omp parallel for schedule(static) reduction(|| : decreasing) if (rows >= transpose_parallel_min)
  for (std::ptrdiff_t u = 0; u < rows; ++u) decreasing = decreasing || off[u + 1] < off[u];
  MATCHBLAS_EXPECTS(!decreasing, "transpose: the matrix is not a consistent CSR (decreasing offsets)");
#pragma omp parallel for schedule(static) reduction(|| : out_of_range) if (m >= transpose_parallel_min)
  for (std::ptrdiff_t k = 0; k < m; ++k) out_of_range = out_of_range || cols[k] < 0 || cols[k] >= n_cols;
  MATCHBLAS_EXPECTS(!out_of_range, "transpose: a column index is outside [0, " + std::to_string(n_cols) + ")");
}

}  // namespace detail

template <class W>
Csr<W> transpose(const Csr<W>& a, Backend backend) {
  if (backend == Backend::gpu) return transpose_gpu(a);
  detail::expect_transposable(a);
  if (backend == Backend::graphblas) return transpose(GraphBlasGraph<W>(a)).to_csr();
  return transpose_plain(a);
}

template Csr<float> transpose(const Csr<float>&, Backend);
template Csr<double> transpose(const Csr<double>&, Backend);
template void detail::expect_transposable(const Csr<float>&);
template void detail::expect_transposable(const Csr<double>&);

}  // namespace matchblas::ops
