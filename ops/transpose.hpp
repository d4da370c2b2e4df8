// transpose: C = A' for a CSR matrix A (its CSC form, read as a CSR), the
// reorientation the bipartite matchers need (rows and columns swap sides).
//
//   C = transpose(A): C is A.n_cols x A.n_rows; row v of C holds one entry
//   (v, u, w) for each entry (u, v, w) of A, in ascending u, and for equal u
//   (duplicate entries) in A's order. Input rows need not be sorted; C's
//   rows always are.
//
// Backends (ops/backend.hpp): plain (ops/cpu/transpose.cpp, a counting sort
// by column, OpenMP over parts of the rows) and gpu
// (ops/gpu/transpose_gpu.cu, cuSPARSE csr2csc, at most 2^31 - 1 entries).
// Both give the same C for every input and thread count.
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

namespace matchblas::ops {

// W in {float, double}.
template <class W>
Csr<W> transpose(const Csr<W>& a, Backend backend = Backend::automatic);

namespace detail {
// The precondition checks above, shared by the backends.
template <class W>
void expect_transposable(const Csr<W>& a);
}  // namespace detail

}  // namespace matchblas::ops
