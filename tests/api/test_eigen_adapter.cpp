// The Eigen adapter (include/matchblas/eigen.hpp): every job on seeded random
// Eigen::SparseMatrix inputs, column- and row-major, compressed and not,
// int and int64 storage indices, double, float and complex scalars: the row
// permutation is a permutation and equals the internal pre-pass's
// (matchers/bipartite/prepass.hpp, same moduli), so do the mates; P * A and
// A * P have the matched entries on the diagonal; for job 5 B = P Dr A Dc
// has |b_ii| = 1 on the diagonal and |b_ij| <= 1 (1e-12 relative); a
// system solved through B (scaled_permuted_rhs, unscaled_solution) solves
// A x = b; rectangular input has no permutation; invalid input throws
// prepass_error with the C interface's status.
#include <doctest/doctest.h>

#include <Eigen/SparseLU>
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <vector>

#include "matchblas/eigen.hpp"
#include "matchers/bipartite/prepass.hpp"

namespace api = matchblas::api;
namespace mbe = matchblas::eigen;
using matchblas::Csr;
using matchblas::vertex_t;

namespace {

template <class Scalar>
Scalar make_value(double x, int k) {
  if constexpr (std::is_same_v<Scalar, std::complex<double>> || std::is_same_v<Scalar, std::complex<float>>) {
    using R = typename Scalar::value_type;
    return k % 2 ? Scalar(R(0), R(x)) : Scalar(R(x), R(0));  // modulus |x| exactly
  } else {
    return Scalar(x);
  }
}

// A seeded random m x n matrix as triplets (no duplicates): entries with
// probability `density` plus, with `transversal`, a random permutation's;
// values sign * k * 2^e, k in 1..4, e in -10..10 (exact in float).
template <class Scalar>
std::vector<Eigen::Triplet<Scalar>> random_triplets(int m, int n, double density, bool transversal, std::mt19937_64& rng) {
  std::vector<std::vector<bool>> present(static_cast<std::size_t>(m), std::vector<bool>(static_cast<std::size_t>(n)));
  std::bernoulli_distribution keep(density);
  for (auto& row : present)
    for (std::size_t j = 0; j < row.size(); ++j) row[j] = keep(rng);
  if (transversal) {
    std::vector<int> p(std::size_t(std::max(m, n)));
    for (std::size_t k = 0; k < p.size(); ++k) p[k] = int(k);
    std::shuffle(p.begin(), p.end(), rng);
    for (int i = 0; i < m; ++i)
      if (p[std::size_t(i)] < n) present[std::size_t(i)][std::size_t(p[std::size_t(i)])] = true;
  }
  std::uniform_int_distribution<int> k(1, 4), e(-10, 10);
  std::vector<Eigen::Triplet<Scalar>> out;
  int count = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      if (present[std::size_t(i)][std::size_t(j)])
        out.emplace_back(i, j, make_value<Scalar>((rng() & 1 ? -1.0 : 1.0) * std::ldexp(k(rng), e(rng)), count++));
  return out;
}

// The internal pre-pass's input: the moduli, columns ascending in each row.
template <class M>
Csr<double> moduli(const M& a) {
  const Eigen::SparseMatrix<double, Eigen::RowMajor> r = a.cwiseAbs().template cast<double>();
  Csr<double> c;
  c.n_rows = vertex_t(r.rows());
  c.n_cols = vertex_t(r.cols());
  c.offsets.assign(r.outerIndexPtr(), r.outerIndexPtr() + r.rows() + 1);
  c.cols.assign(r.innerIndexPtr(), r.innerIndexPtr() + r.nonZeros());
  c.weights.assign(r.valuePtr(), r.valuePtr() + r.nonZeros());
  return c;
}

template <class M>
void check_one(const M& a, int job) {
  using Scalar = typename M::Scalar;
  CAPTURE(job);
  const mbe::Prepass p = mbe::prepass(a, {.job = api::Job(job)});
  const matchblas::PrepassResult want = matchblas::prepass(moduli(a), {.job = job < 0 ? 5 : job});
  CHECK(p.inform().matched == want.mates.matched);
  CHECK(std::equal(p.result.row_mate.begin(), p.result.row_mate.end(), want.mates.row_mate.begin()));
  CHECK(std::equal(p.result.col_mate.begin(), p.result.col_mate.end(), want.mates.col_mate.begin()));
  REQUIRE(p.row_log_scale.size() == a.rows());
  REQUIRE(p.col_log_scale.size() == a.cols());
  if (a.rows() != a.cols()) {
    CHECK(p.row_permutation.size() == 0);
    CHECK_THROWS_AS(mbe::permuted_scaled(a, p), api::prepass_error);
    return;
  }
  const Eigen::Index n = a.rows();
  REQUIRE(p.row_permutation.size() == n);
  std::vector<bool> seen(std::size_t(n), false);
  for (Eigen::Index i = 0; i < n; ++i) {
    const int q = p.row_permutation.indices()[i];
    REQUIRE(q >= 0);
    REQUIRE(q < n);
    REQUIRE_FALSE(seen[std::size_t(q)]);
    seen[std::size_t(q)] = true;
    CHECK(q == want.perm[std::size_t(i)]);
  }
  // The matched entries on the diagonal, both ways.
  const auto q = mbe::permutation<typename M::StorageIndex>(p);
  const M pa = q * a;
  const M aq = a * q;
  for (Eigen::Index i = 0; i < n; ++i) {
    const std::int64_t j = p.result.row_mate[std::size_t(i)];
    if (j < 0) continue;
    const Scalar aij = a.coeff(i, j);
    CHECK(pa.coeff(j, j) == aij);  // row i of A is row perm[i] = j of P A
    CHECK(aq.coeff(i, i) == aij);  // column perm[i] = j of A is column i of A P
  }
  if (want.job != 5) {
    CHECK(p.row_log_scale.isZero(0));
    CHECK((p.col_scale.array() == 1).all());
    return;
  }
  for (Eigen::Index i = 0; i < n; ++i) {
    CHECK(p.row_log_scale[i] == want.row_log_scale[std::size_t(i)]);
    CHECK(p.col_log_scale[i] == want.col_log_scale[std::size_t(i)]);
  }
  // B = P Dr A Dc: modulus 1 on the matched diagonal, at most 1 everywhere.
  const double tol = std::is_same_v<typename Eigen::NumTraits<Scalar>::Real, float> ? 1e-6 : 1e-12;
  const M b = mbe::permuted_scaled(a, p);
  CHECK(b.nonZeros() == a.nonZeros());
  for (Eigen::Index o = 0; o < b.outerSize(); ++o)
    for (typename M::InnerIterator it(b, o); it; ++it) CHECK(std::abs(it.value()) <= 1 + tol);
  for (Eigen::Index i = 0; i < n; ++i)
    if (p.result.row_mate[std::size_t(i)] >= 0) {
      const std::int64_t d = p.result.row_mate[std::size_t(i)];
      CHECK(std::abs(b.coeff(d, d)) == doctest::Approx(1).epsilon(tol));
    }
}

template <class Scalar, int Options, class StorageIndex>
void check_random(std::uint64_t seed) {
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  const int m = int(rng() % 10), n = rng() % 3 ? m : int(rng() % 10);
  const bool transversal = rng() % 4 != 0;
  CAPTURE(m);
  CAPTURE(n);
  Eigen::SparseMatrix<Scalar, Options, StorageIndex> a(m, n);
  const auto t = random_triplets<Scalar>(m, n, 0.15 + 0.3 * double(rng() % 100) / 100, transversal, rng);
  a.setFromTriplets(t.begin(), t.end());
  for (int job = -1; job <= 5; ++job) check_one(a, job);
  // Uncompressed (room left in every column or row): the same result.
  Eigen::SparseMatrix<Scalar, Options, StorageIndex> u(m, n);
  u.reserve(Eigen::VectorXi::Constant(u.outerSize(), 3));
  for (const auto& x : t) u.insert(x.row(), x.col()) = x.value();
  REQUIRE_FALSE((u.isCompressed() && u.nonZeros() > 0));
  const mbe::Prepass pu = mbe::prepass(u), pa = mbe::prepass(a);
  CHECK(pu.result.row_mate == pa.result.row_mate);
  CHECK(pu.result.row_log_scale == pa.result.row_log_scale);
  if (m == n && m > 0) {  // (Eigen asserts on the norm of an empty matrix)
    const Eigen::SparseMatrix<Scalar, Options, StorageIndex> bu = mbe::permuted_scaled(u, pu), ba = mbe::permuted_scaled(a, pa);
    CHECK((Eigen::SparseMatrix<Scalar, Options, StorageIndex>(bu - ba)).norm() == 0);
  }
}

}  // namespace

TEST_CASE("Eigen adapter: every job, column-major double") {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) check_random<double, Eigen::ColMajor, int>(seed);
}

TEST_CASE("Eigen adapter: row-major, int64 indices, float and complex") {
  for (std::uint64_t seed = 41; seed <= 60; ++seed) {
    check_random<double, Eigen::RowMajor, int>(seed);
    check_random<double, Eigen::ColMajor, std::int64_t>(seed);
    check_random<float, Eigen::RowMajor, std::int64_t>(seed);
    check_random<std::complex<double>, Eigen::ColMajor, int>(seed);
    check_random<std::complex<float>, Eigen::RowMajor, int>(seed);
  }
}

TEST_CASE("Eigen adapter: solving A x = b through B = P Dr A Dc") {
  int solved = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    CAPTURE(seed);
    std::mt19937_64 rng(seed);
    const int n = 30 + int(rng() % 30);
    Eigen::SparseMatrix<double> a(n, n);
    const auto t = random_triplets<double>(n, n, 0.1, true, rng);
    a.setFromTriplets(t.begin(), t.end());
    const mbe::Prepass p = mbe::prepass(a);
    REQUIRE(p.inform().status == MATCHBLAS_OK);
    const Eigen::SparseMatrix<double> b = mbe::permuted_scaled(a, p);
    Eigen::SparseLU<Eigen::SparseMatrix<double>> lu(b);
    if (lu.info() != Eigen::Success) continue;  // numerically singular: nothing to check
    const Eigen::VectorXd x_true = Eigen::VectorXd::LinSpaced(n, 1, 2);
    const Eigen::VectorXd rhs = a * x_true;
    const Eigen::VectorXd x = mbe::unscaled_solution(p, lu.solve(mbe::scaled_permuted_rhs(p, rhs)));
    CHECK((a * x - rhs).norm() <= 1e-8 * rhs.norm());
    ++solved;
  }
  CHECK(solved >= 5);
}

TEST_CASE("Eigen adapter: a structurally singular matrix is reported, with a full permutation") {
  Eigen::SparseMatrix<double, Eigen::RowMajor> a(3, 3);
  a.insert(0, 0) = 2;
  a.insert(1, 0) = 4;
  a.insert(2, 1) = 1;
  a.makeCompressed();
  const mbe::Prepass p = mbe::prepass(a);
  CHECK(p.inform().status == MATCHBLAS_STRUCTURALLY_SINGULAR);
  CHECK(p.inform().matched == 2);
  CHECK(p.row_permutation.size() == 3);
}

TEST_CASE("Eigen adapter: invalid input throws prepass_error with the status") {
  Eigen::SparseMatrix<double> a(2, 2);
  a.insert(0, 0) = 1;
  a.insert(1, 1) = std::nan("");
  a.makeCompressed();
  try {
    (void)mbe::prepass(a);
    FAIL("no exception");
  } catch (const api::prepass_error& e) {
    CHECK(e.status() == MATCHBLAS_ERR_BAD_VALUE);
    CHECK(std::string(e.what()).find("(1, 1)") != std::string::npos);  // the entry, named in the view's base (0)
  }
  a.coeffRef(1, 1) = 1;
  try {
    (void)mbe::prepass(a, {.job = api::Job::bottleneck, .symmetric = true});
    FAIL("no exception");
  } catch (const api::prepass_error& e) {
    CHECK(e.status() == MATCHBLAS_ERR_BAD_JOB);
  }
  Eigen::SparseMatrix<double> u(2, 2);
  u.insert(0, 0) = 1;  // uncompressed: no plain arrays to view
  CHECK_THROWS_AS(mbe::view(u), api::prepass_error);
}
