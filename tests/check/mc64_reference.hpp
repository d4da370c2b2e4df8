// HSL MC64 as SuperLU ships it (mc64ad_, compiled from upstream SuperLU's
// SRC/mc64ad.c: Debian's package stubs it out; int_t is int, cperm 1-based),
// the reference the pre-pass is tested (tests/matchers/test_prepass_mc64.cpp)
// and measured (bench/bench_prepass.cpp) against. Defined only when the build
// found it (MATCHBLAS_HAVE_MC64; scripts/fetch_mc64.sh). Header-only so that
// the benchmark can use it without the test library.
#pragma once
#if MATCHBLAS_HAVE_MC64
#include <algorithm>
#include <cmath>
#include <vector>

#include "lib/csr.hpp"
#include "ops/transpose.hpp"

extern "C" int mc64id_(int* icntl);
extern "C" int mc64ad_(int* job, int* n, int* ne, int* ip, int* irn, double* a, int* num, int* cperm, int* liw,
                       int* iw, int* ldw, double* dw, int* icntl, int* info);

namespace matchblas::check {

// A square matrix as MC64 takes it: CSC, 1-based.
struct Mc64Input {
  int n = 0, ne = 0;
  std::vector<int> ip, irn;
  std::vector<double> val;
};

struct Mc64Result {
  int num = 0;             // matched pairs
  std::vector<int> cperm;  // 0-based: row i matched to column cperm[i] (when an entry)
  int info = 0;            // MC64's INFO(1): 0 ok, 1 structurally singular, < 0 an error
};

inline Mc64Input mc64_input(const Csr<double>& a) {
  const Csr<double> t = ops::transpose(a, ops::Backend::plain);  // row j of t = column j of a
  Mc64Input in;
  in.n = a.n_rows;
  in.ne = static_cast<int>(a.num_entries());
  in.ip.resize(in.n + 1);
  in.irn.resize(in.ne);
  in.val.resize(in.ne);
  for (int j = 0; j <= in.n; ++j) in.ip[j] = static_cast<int>(t.offsets[j]) + 1;
  for (int k = 0; k < in.ne; ++k) {
    in.irn[k] = t.cols[k] + 1;
    in.val[k] = t.weights[k];
  }
  return in;
}

// MC64's job (2, 4 or 5; SuperLU's copy leaves job 1 out) on `in`, its
// messages off. The call alone is what a benchmark should time.
inline Mc64Result mc64_run(Mc64Input& in, int job) {
  int liw = 10 * in.n + in.ne, ldw = 3 * in.n + in.ne, icntl[10], info[10];
  std::vector<int> iw(liw);
  std::vector<double> dw(ldw);
  mc64id_(icntl);
  icntl[0] = icntl[1] = icntl[2] = -1;
  Mc64Result r;
  r.cperm.resize(in.n);
  mc64ad_(&job, &in.n, &in.ne, in.ip.data(), in.irn.data(), in.val.data(), &r.num, r.cperm.data(), &liw, iw.data(),
          &ldw, dw.data(), icntl, info);
  r.info = info[0];
  for (int& c : r.cperm) --c;
  return r;
}

// The objective of MC64's matching for `job`, read as the pre-pass reports
// it: 4 the sum of the matched |a_ij|, 5 the sum of their logarithms, 2-3
// the smallest.
inline double mc64_objective(const Csr<double>& a, const std::vector<int>& cperm, int job) {
  double sum = 0, log_sum = 0, smallest = INFINITY;
  for (vertex_t i = 0; i < a.n_rows; ++i)
    for (offset_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k)
      if (a.cols[k] == cperm[i]) {
        const double x = std::fabs(a.weights[k]);
        sum += x;
        log_sum += std::log(x);
        smallest = std::min(smallest, x);
      }
  return job == 4 ? sum : job == 5 ? log_sum : smallest;
}

inline Mc64Result mc64(const Csr<double>& a, int job) {
  Mc64Input in = mc64_input(a);
  return mc64_run(in, job);
}

}  // namespace matchblas::check
#endif
