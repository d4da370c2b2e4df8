// Eigen's BiCGSTAB with an IncompleteLUT preconditioner, with and without
// matchblas's pre-pass: for each square Matrix Market file (.mtx, or .mtx.gz
// decompressed to a temporary file), solve A x = b with b = A * ones
//   plain     on A itself;
//   pre-pass  on B = P Dr A Dc from the Eigen adapter (matchblas/eigen.hpp,
//             job 5: matched entries of modulus 1 on the diagonal, the rest
//             at most 1), B y = P Dr b, x = Dc y;
// and count the matrices that converge to a relative residual
// ||b - A x|| / ||b|| <= 1e-8, measured on the ORIGINAL system both ways
// (at most 1000 iterations; when BiCGSTAB stops at its own tolerance with
// the original residual still above 1e-8 (the scaled system's residual is
// measured in another norm), it resumes from its last iterate with a
// tighter tolerance, up to five times, within the 1000).
// Real, integer and complex files run (complex in std::complex<double>);
// pattern files, rectangular and structurally singular matrices are
// reported and skipped.
//
// Usage: eigen_bicgstab [--check] [--droptol X] [--fill F] FILE...
//   --check    exit 1 when fewer matrices converge with the pre-pass than
//              without it, or when one converges without it but not with it.
//   --droptol, --fill   IncompleteLUT's settings (Eigen's defaults: 1e-12, 10).
// Exit status 0; 1 when --check fails; 2 on a real error (an unreadable
// file, a pre-pass that rejects its input).
#include <Eigen/IterativeLinearSolvers>
#include <Eigen/SparseCore>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <unsupported/Eigen/SparseExtra>

#include "matchblas/eigen.hpp"

namespace {

constexpr double target = 1e-8;
constexpr int max_iterations = 1000;
constexpr int max_rounds = 6;

// IncompleteLUT's drop tolerance and fill factor (Eigen's defaults unless
// --droptol / --fill say otherwise).
double droptol = Eigen::NumTraits<double>::dummy_precision();
int fill = 10;

struct Outcome {
  bool ran = false;  // false: the preconditioner could not be built
  int iterations = 0;
  double residual = NAN;
  bool converged() const { return ran && residual <= target; }  // NaN never converges
};

// BiCGSTAB + ILUT on m y = rhs; x = to_x(y) is judged by ||b - A x|| / ||b||.
template <class M, class V, class ToX>
Outcome solve(const M& m, const V& rhs, const M& a, const V& b, ToX to_x) {
  Eigen::BiCGSTAB<M, Eigen::IncompleteLUT<typename M::Scalar>> solver;
  solver.preconditioner().setDroptol(droptol);
  solver.preconditioner().setFillfactor(fill);
  solver.compute(m);
  Outcome o;
  if (solver.info() != Eigen::Success) return o;
  o.ran = true;
  V y = V::Zero(rhs.size());
  double tolerance = target;
  for (int round = 0; round < max_rounds && o.iterations < max_iterations; ++round) {
    solver.setTolerance(tolerance);
    solver.setMaxIterations(max_iterations - o.iterations);
    y = solver.solveWithGuess(rhs, y);
    o.iterations += int(solver.iterations());
    o.residual = (b - a * to_x(y)).norm() / b.norm();
    if (o.residual <= target || solver.info() != Eigen::Success) break;
    // Stopped at its own tolerance, short of the target on A: tighten by
    // the shortfall (at least tenfold, at most 10^4-fold) and go on.
    tolerance *= std::clamp(0.5 * target / o.residual, 1e-4, 0.1);
  }
  return o;
}

std::string print(const Outcome& o) {
  if (!o.ran) return "ILUT failed | - | no";
  char s[96];
  if (std::isnan(o.residual))
    std::snprintf(s, sizeof s, "%d | nan | no", o.iterations);
  else
    std::snprintf(s, sizeof s, "%d | %.1e | %s", o.iterations, o.residual, o.converged() ? "yes" : "no");
  return s;
}

struct Tally {
  int matrices = 0, plain = 0, prepass = 0, lost = 0;
};

// The Matrix Market header's words (lower case): object, format, field, symmetry.
bool header(const std::string& path, std::string word[4]) {
  std::ifstream in(path);
  std::string line, banner;
  if (!std::getline(in, line)) return false;
  for (char& c : line) c = char(std::tolower(static_cast<unsigned char>(c)));
  std::istringstream s(line);
  s >> banner >> word[0] >> word[1] >> word[2] >> word[3];
  return banner == "%%matrixmarket" && !word[3].empty();
}

template <class Scalar>
int run(const std::string& path, const std::string& name, const std::string& symmetry, Tally& t) {
  using M = Eigen::SparseMatrix<Scalar>;
  using V = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;
  M a;
  if (!Eigen::loadMarket(a, path)) {
    std::fprintf(stderr, "eigen_bicgstab: cannot read %s\n", path.c_str());
    return 2;
  }
  if (a.rows() != a.cols()) {
    std::printf("| %s | | | skipped: not square (%ld x %ld) |\n", name.c_str(), long(a.rows()), long(a.cols()));
    return 0;
  }
  // loadMarket reads the stored triangle only: the rest from it.
  if (symmetry == "symmetric" || symmetry == "hermitian") {
    const M lower = a;
    a = lower.template selfadjointView<Eigen::Lower>();  // hermitian: the conjugate above
  } else if (symmetry == "skew-symmetric") {
    const M lower = a;
    a = M(lower.template triangularView<Eigen::StrictlyLower>()) - M(lower.transpose());
  }
  const V b = a * V::Ones(a.cols());

  const auto t0 = std::chrono::steady_clock::now();
  matchblas::eigen::Prepass p;
  try {
    p = matchblas::eigen::prepass(a);
  } catch (const matchblas::api::prepass_error& e) {
    std::fprintf(stderr, "eigen_bicgstab: %s: the pre-pass rejects it: %s\n", path.c_str(), e.what());
    return 2;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (p.result.structurally_singular()) {
    std::printf("| %s | %ld | %ld | skipped: structurally singular (%lld of %ld matched) |\n", name.c_str(),
                long(a.rows()), long(a.nonZeros()), (long long)p.inform().matched, long(a.rows()));
    return 0;
  }
  const M scaled = matchblas::eigen::permuted_scaled(a, p);

  const Outcome plain = solve(a, b, a, b, [](const V& y) { return y; });
  const Outcome pre = solve(scaled, V(matchblas::eigen::scaled_permuted_rhs(p, b)), a, b,
                            [&](const V& y) { return V(matchblas::eigen::unscaled_solution(p, y)); });
  std::printf("| %s | %ld | %ld | %s | %s | %.4f |\n", name.c_str(), long(a.rows()), long(a.nonZeros()),
              print(plain).c_str(), print(pre).c_str(), seconds);
  ++t.matrices;
  t.plain += plain.converged();
  t.prepass += pre.converged();
  if (plain.converged() && !pre.converged()) {
    ++t.lost;
    std::fprintf(stderr, "eigen_bicgstab: %s converges without the pre-pass but not with it\n", name.c_str());
  }
  return 0;
}

// A .gz file decompressed into a temporary file (removed by the caller).
std::string decompress(const std::string& path) {
  char name[] = "/tmp/eigen_bicgstab_XXXXXX";
  const int fd = mkstemp(name);
  if (fd < 0) return "";
  close(fd);
  std::string quoted = "'";
  for (char c : path) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  quoted += "'";
  if (std::system(("gzip -dc -- " + quoted + " > " + name).c_str()) != 0) {
    std::remove(name);
    return "";
  }
  return name;
}

int run_file(const std::string& path, Tally& t) {
  const std::string name = path.substr(path.find_last_of('/') + 1);
  const bool gz = path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
  const std::string file = gz ? decompress(path) : path;
  std::string word[4];
  int result = 0;
  if (file.empty() || !header(file, word)) {
    std::fprintf(stderr, "eigen_bicgstab: %s: not a readable Matrix Market file\n", path.c_str());
    result = 2;
  } else if (word[0] != "matrix" || word[1] != "coordinate") {
    std::printf("| %s | | | skipped: not a sparse (coordinate) matrix |\n", name.c_str());
  } else if (word[2] == "pattern") {
    std::printf("| %s | | | skipped: pattern (no values) |\n", name.c_str());
  } else if (word[2] == "complex") {
    result = run<std::complex<double>>(file, name, word[3], t);
  } else {
    result = run<double>(file, name, word[3], t);
  }
  if (gz && !file.empty()) std::remove(file.c_str());
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  int first = 1, result = 0;
  bool check = false;
  for (; first < argc && argv[first][0] == '-' && argv[first][1] == '-'; ++first) {
    const std::string option = argv[first];
    if (option == "--check") {
      check = true;
    } else if ((option == "--droptol" || option == "--fill") && first + 1 < argc) {
      char* end = nullptr;
      const double value = std::strtod(argv[++first], &end);
      if (*end != 0 || !(value >= 0) || (option == "--fill" && (value < 1 || value > 1e6))) first = argc;  // usage
      (option == "--fill" ? void(fill = int(value)) : void(droptol = value));
    } else {
      first = argc;
    }
  }
  if (first >= argc) {
    std::fprintf(stderr, "usage: eigen_bicgstab [--check] [--droptol X] [--fill F] FILE.mtx[.gz]...\n");
    return 2;
  }
  std::printf("IncompleteLUT droptol %g, fill factor %d; BiCGSTAB to %g in at most %d iterations\n\n", droptol, fill,
              target, max_iterations);
  std::printf("| matrix | n | nnz | plain iters | residual | converged | pre-pass iters | residual | converged | "
              "pre-pass s |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
  Tally t;
  for (int k = first; k < argc; ++k)
    if (run_file(argv[k], t) != 0) result = 2;
  std::printf("\nconverged to %.0e of %d structurally nonsingular: plain %d, with the pre-pass %d\n", target, t.matrices,
              t.plain, t.prepass);
  if (result == 0 && check && (t.prepass < t.plain || t.lost > 0)) result = 1;
  return result;
}
