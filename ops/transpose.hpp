// transpose: C = A' for a CSR matrix A (its CSC form, read as a CSR), the
// reorientation the bipartite matchers need (rows and columns swap sides).
//
//   C = transpose(A): C is A.n_cols x A.n_rows; row v of C holds one entry
//   (v, u, w) for each entry (u, v, w) of A, in ascending u, and for equal u
//   (duplicate entries) in A's order. Input rows need not be sorted; C's
//   rows always are.
//
// Backends (ops/backend.hpp): plain (ops/cpu/transpose.cpp, a counting sort
// by column, OpenMP over parts of the rows), gpu (ops/gpu/transpose_gpu.cu,
// cuSPARSE csr2csc, at most 2^31 - 1 entries) and graphblas
// (ops/cpu/transpose_graphblas.cpp, GrB_transpose; on a Csr A is imported
// and C exported per call, and a row of A holding a column twice is
// invalid_input; on a resident GraphBlasGraph nothing is imported). All give
// the same C for every input and thread count.
// Preconditions, checked first on both backends (invalid_input otherwise):
// A is a consistent CSR (offsets has n_rows + 1 entries, starts at 0, never
// decreases, ends at the length of cols and weights) and every column index
// is in [0, n_cols). An O(rows + entries) pass, in proportion to the work:
// a bad index would be a write out of bounds.
// Cost (plain): O(rows + cols * parts + entries) work, where parts is the
// thread count for large inputs and 1 for small ones; depth
// O(entries / parts + cols * parts).
#pragma once
#include "lib/csr.hpp"
#include "ops/backend.hpp"
#include "ops/graphblas_graph.hpp"

namespace matchblas::ops {

// W in {float, double}.
template <class W>
Csr<W> transpose(const Csr<W>& a, Backend backend = Backend::automatic);

// The graphblas backend on a resident matrix (backend graphblas or
// automatic; invalid_input otherwise).
template <class W>
GraphBlasGraph<W> transpose(const GraphBlasGraph<W>& a, Backend backend = Backend::graphblas);

namespace detail {
// The precondition checks above, shared by the backends.
template <class W>
void expect_transposable(const Csr<W>& a);
}  // namespace detail

}  // namespace matchblas::ops
