// select + compaction: keep the entries of a CSR whose endpoints satisfy a
// predicate, renumbering nothing (the keep-edges flags, exclusive prefix sum
// and edge-list compaction of "Parallel graph matching", a course project on
// handshaking matching on GPUs, no author named; STYLE 6's count / scan /
// fill).
//
//   C = select_entries(A, keep): C has A's shape and exactly the entries
//   (u, v, w) of A with keep(u, v) true, in A's order.
//   select_free_entries(A, mate): keep(u, v) = mate[u] == -1 && mate[v] == -1.
//
// Backends of select_free_entries (ops/backend.hpp): plain (the loops
// below), gpu (ops/gpu/select_gpu.cu: flags, a CUB scan, a fill kernel;
// the same result) and graphblas (ops/cpu/select_graphblas.cpp: C = A(F, F)
// by one GrB_extract, F the free vertices; on a Csr A is imported and C
// exported per call, so C's rows come back sorted and a row holding a column
// twice is invalid_input; on a resident GraphBlasGraph nothing is imported).
// select_entries, whose predicate is host code, has plain only.
// Cost: O(rows + entries) work, rows in parallel (OpenMP); the prefix sum
// is sequential over rows.
//
// Details fixed by the implementation below:
//   - keep is called twice per entry (count, then fill) from several threads
//     at once: it must be a pure function of (u, v), safe to call
//     concurrently, and must not throw. The result does not depend on the
//     thread count.
//   - select_free_entries needs a square A and mate.size() == A.n_rows
//     (throws shape_error otherwise): u and v are ids of the same vertex set.
//   - A must be a consistent CSR (offsets has n_rows + 1 entries; throws
//     invalid_input otherwise, an O(1) check).
//   - Both checks come first on every backend (detail::expect_free_entries_args).
#pragma once
#include <span>
#include <string>

#include "lib/csr.hpp"
#include "lib/error.hpp"
#include "lib/types.hpp"
#include "ops/backend.hpp"
#include "ops/graphblas_graph.hpp"
#include "ops/gpu_ops.hpp"

namespace matchblas::ops {

template <class W, class Keep>
Csr<W> select_entries(const Csr<W>& a, Keep keep);

template <class W>
Csr<W> select_free_entries(const Csr<W>& a, std::span<const vertex_t> mate, Backend backend = Backend::automatic);

// The graphblas backend on a resident matrix (backend graphblas or
// automatic; invalid_input otherwise); W in {float, double}.
template <class W>
GraphBlasGraph<W> select_free_entries(const GraphBlasGraph<W>& a, std::span<const vertex_t> mate,
                                      Backend backend = Backend::graphblas);

// ---- implementation ----------------------------------------------------------

namespace detail {
// Rows per OpenMP chunk of the count and fill phases: the same granularity
// as the argmax loop (ops/cpu/argmax_plain.cpp), which it resembles (one
// pass over a row's entries, bound by memory).
inline constexpr int select_rows_per_chunk = 256;

template <class W>
void expect_consistent_for_select(const Csr<W>& a) {
  MATCHBLAS_EXPECTS(a.n_rows >= 0 && a.offsets.size() == std::size_t(a.n_rows) + 1 &&
                        a.cols.size() == std::size_t(a.num_entries()) && a.weights.size() == a.cols.size(),
                    "select_entries: the matrix is not a consistent CSR (offsets, cols, weights lengths)");
}

// The argument checks of select_free_entries, shared by its backends.
template <class W>
void expect_free_entries_args(const Csr<W>& a, std::span<const vertex_t> mate) {
  if (a.n_rows != a.n_cols || mate.size() != std::size_t(a.n_rows))
    throw shape_error("select_free_entries: needs a square matrix and one mate per vertex; got " +
                      std::to_string(a.n_rows) + " x " + std::to_string(a.n_cols) + " and " +
                      std::to_string(mate.size()) + " mates");
  expect_consistent_for_select(a);
}
}  // namespace detail

template <class W, class Keep>
Csr<W> select_entries(const Csr<W>& a, Keep keep) {
  detail::expect_consistent_for_select(a);
  const vertex_t n = a.n_rows;
  Csr<W> c;
  c.n_rows = n;
  c.n_cols = a.n_cols;
  c.offsets.assign(std::size_t(n) + 1, 0);
  const offset_t* const off = a.offsets.data();
  const vertex_t* const cols = a.cols.data();
  const W* const wts = a.weights.data();

  // Phase 1, count: c.offsets[u + 1] = kept entries of row u.
  offset_t* const count = c.offsets.data();
#pragma omp parallel for schedule(dynamic, detail::select_rows_per_chunk)
  for (vertex_t u = 0; u < n; ++u) {
    offset_t kept = 0;
    for (offset_t k = off[u]; k < off[u + 1]; ++k) kept += keep(u, cols[k]) ? 1 : 0;
    count[u + 1] = kept;
  }

  // Scan: the counts become row starts (an exclusive prefix sum).
  for (vertex_t u = 0; u < n; ++u) count[u + 1] += count[u];

  // Phase 2, fill: each row writes its kept entries from its start, in order.
  c.cols.resize(std::size_t(c.num_entries()));
  c.weights.resize(std::size_t(c.num_entries()));
  vertex_t* const out_cols = c.cols.data();
  W* const out_wts = c.weights.data();
#pragma omp parallel for schedule(dynamic, detail::select_rows_per_chunk)
  for (vertex_t u = 0; u < n; ++u) {
    offset_t p = count[u];
    for (offset_t k = off[u]; k < off[u + 1]; ++k) {
      const vertex_t v = cols[k];
      if (keep(u, v)) {
        out_cols[p] = v;
        out_wts[p] = wts[k];
        ++p;
      }
    }
  }
  return c;
}

template <class W>
Csr<W> select_free_entries(const Csr<W>& a, std::span<const vertex_t> mate, Backend backend) {
  if (backend == Backend::gpu) return select_free_entries_gpu(a, mate);
  detail::expect_free_entries_args(a, mate);
  if (backend == Backend::graphblas) return select_free_entries(GraphBlasGraph<W>(a), mate).to_csr();
  const vertex_t* const m = mate.data();
  return select_entries(a, [m](vertex_t u, vertex_t v) { return m[u] == no_vertex && m[v] == no_vertex; });
}

}  // namespace matchblas::ops
