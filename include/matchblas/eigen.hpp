// The pre-pass on Eigen sparse matrices: Eigen::SparseMatrix<Scalar,
// Options, StorageIndex> in (row- or column-major, compressed or not;
// Scalar float, double or std::complex of them), a row permutation and
// scaling vectors out. Header-only over matchblas/prepass.hpp (and through
// it the C interface).
//
// For a square A, prepass(A) returns P (row_permutation), and for job 5 the
// scalings Dr = diag(row_scale), Dc = diag(col_scale):
//   P * A                 has the matched entries on its diagonal (row i of A
//                         is row P.indices()[i] of P * A; P.indices() is
//                         SuperLU's perm_r; for 64-bit storage indices use
//                         permutation<std::int64_t>(p) * A);
//   A * P                 has them too (the same P on the right: column j
//                         of A * P is column P.indices()[j] of A, MC64's
//                         CPERM; P * A = P * (A * P) * P^T, a symmetric
//                         permutation of it, which keeps the diagonal);
//   B = P * Dr * A * Dc   (permuted_scaled(A, p)) has |b_ii| = 1 wherever the
//                         matching is (every i when A is structurally
//                         nonsingular; an explicit zero matched because
//                         the cardinality needs it stays 0) and |b_ij| <= 1
//                         everywhere.
// To solve A x = b through B:  B y = P Dr b  (scaled_permuted_rhs(p, b)),
// then x = Dc y  (unscaled_solution(p, y)).
// For jobs 0-4 the log scalings are zeros and the scalings ones, so the same
// formulas hold with the permutation alone. A rectangular A gets no
// permutation (size 0): read the mates in p.result.
#pragma once

#include <Eigen/SparseCore>
#include <algorithm>
#include <span>
#include <vector>

#include "matchblas/prepass.hpp"

namespace matchblas::eigen {

template <class Scalar, int Options, class StorageIndex>
using Sparse = Eigen::SparseMatrix<Scalar, Options, StorageIndex>;

struct Prepass {
  api::Result result;  // perm, mates, log scalings and the inform, as the C++ API returns them
  Eigen::PermutationMatrix<Eigen::Dynamic> row_permutation;  // P (size 0 for a rectangular A)
  Eigen::VectorXd row_log_scale, col_log_scale;              // r, c (zeros unless job 5)
  Eigen::VectorXd row_scale, col_scale;                      // exp(r), exp(c): Dr, Dc

  const api::Inform& inform() const noexcept { return result.inform; }
};

// A view of a compressed matrix's arrays (outer offsets, inner indices,
// values: CSR when row-major, CSC when column-major, 0-based).
template <class Scalar, int Options, class StorageIndex>
api::SparseView<StorageIndex, Scalar> view(const Sparse<Scalar, Options, StorageIndex>& a) {
  if (!a.isCompressed())
    throw api::prepass_error(MATCHBLAS_ERR_BAD_FORMAT, "an uncompressed Eigen matrix has no plain arrays (makeCompressed() it)");
  const std::size_t outer = static_cast<std::size_t>(a.outerSize()), nnz = static_cast<std::size_t>(a.nonZeros());
  return {a.rows(),
          a.cols(),
          a.IsRowMajor ? api::Layout::csr : api::Layout::csc,
          0,
          {a.outerIndexPtr(), outer + 1},
          {a.innerIndexPtr(), nnz},
          {a.valuePtr(), nnz}};
}

namespace detail {

// a itself when compressed, else a compressed copy held in `copy`.
template <class M>
const M& compressed(const M& a, M& copy) {
  if (a.isCompressed()) return a;
  copy = a;
  copy.makeCompressed();
  return copy;
}

}  // namespace detail

// Runs the pre-pass on a. Throws api::prepass_error on invalid input (a NaN,
// a bad job, ...); a structurally singular A is reported in inform().status.
template <class Scalar, int Options, class StorageIndex>
Prepass prepass(const Sparse<Scalar, Options, StorageIndex>& a, const api::Options& options = {}) {
  Sparse<Scalar, Options, StorageIndex> copy;
  Prepass p;
  p.result = api::prepass(view(detail::compressed(a, copy)), options);
  const api::Result& r = p.result;
  p.row_permutation.resize(static_cast<Eigen::Index>(r.perm.size()));  // empty when rectangular
  for (std::size_t i = 0; i < r.perm.size(); ++i)
    p.row_permutation.indices()[static_cast<Eigen::Index>(i)] = static_cast<int>(r.perm[i]);
  if (r.row_log_scale.empty()) {
    p.row_log_scale = Eigen::VectorXd::Zero(a.rows());
    p.col_log_scale = Eigen::VectorXd::Zero(a.cols());
  } else {
    p.row_log_scale = Eigen::Map<const Eigen::VectorXd>(r.row_log_scale.data(), a.rows());
    p.col_log_scale = Eigen::Map<const Eigen::VectorXd>(r.col_log_scale.data(), a.cols());
  }
  p.row_scale = p.row_log_scale.array().exp().matrix();
  p.col_scale = p.col_log_scale.array().exp().matrix();
  return p;
}

// Dr * A * Dc, with A's pattern (explicit zeros kept) and storage order. Each
// entry is computed as a_ij exp(r_i + c_j) by the C interface, which neither
// overflows nor underflows on the way to a bounded result, unlike
// row_scale(i) * a_ij * col_scale(j).
template <class Scalar, int Options, class StorageIndex>
Sparse<Scalar, Options, StorageIndex> scaled(const Sparse<Scalar, Options, StorageIndex>& a, const Prepass& p) {
  Sparse<Scalar, Options, StorageIndex> b = a;
  b.makeCompressed();
  const std::vector<Scalar> v = api::scaled_values(view(b), std::span<const double>(p.row_log_scale.data(), static_cast<std::size_t>(b.rows())),
                                                   std::span<const double>(p.col_log_scale.data(), static_cast<std::size_t>(b.cols())));
  std::copy(v.begin(), v.end(), b.valuePtr());
  return b;
}

// P with another index type: Eigen multiplies a permutation and a sparse
// matrix only when their index types agree (permutation<std::int64_t>(p) *
// A for an A with 64-bit storage indices).
template <class Index>
Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, Index> permutation(const Prepass& p) {
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, Index> q(p.row_permutation.size());
  q.indices() = p.row_permutation.indices().template cast<Index>();
  return q;
}

// B = P * Dr * A * Dc: the matched entries on the diagonal, of modulus 1 for
// job 5, every entry of modulus at most 1 (square A only).
template <class Scalar, int Options, class StorageIndex>
Sparse<Scalar, Options, StorageIndex> permuted_scaled(const Sparse<Scalar, Options, StorageIndex>& a, const Prepass& p) {
  if (p.row_permutation.size() != a.rows() || a.rows() != a.cols())
    throw api::prepass_error(MATCHBLAS_ERR_BAD_DIMENSION, "permuted_scaled needs a square matrix and its own pre-pass");
  Sparse<Scalar, Options, StorageIndex> b = permutation<StorageIndex>(p) * scaled(a, p);
  b.makeCompressed();
  return b;
}

// P * Dr * b: the right-hand side of B y = P Dr b.
template <class Derived>
typename Derived::PlainObject scaled_permuted_rhs(const Prepass& p, const Eigen::MatrixBase<Derived>& b) {
  using Scalar = typename Derived::Scalar;
  typename Derived::PlainObject dr_b = p.row_scale.cast<Scalar>().asDiagonal() * b;
  return p.row_permutation * dr_b;
}

// x = Dc * y: the solution of A x = b from that of B y = P Dr b.
template <class Derived>
typename Derived::PlainObject unscaled_solution(const Prepass& p, const Eigen::MatrixBase<Derived>& y) {
  using Scalar = typename Derived::Scalar;
  return p.col_scale.cast<Scalar>().asDiagonal() * y;
}

}  // namespace matchblas::eigen
