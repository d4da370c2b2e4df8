/* prepass_c: the diagonal pre-pass (MC64's job 5) of a 4 x 4 matrix whose
 * large entries are off the diagonal, from C through the installed library:
 * prints the permutation and checks the scaled matrix's bounds (|b| = 1 on
 * the permuted diagonal, <= 1 elsewhere). */
#include <math.h>
#include <stdio.h>

#include <matchblas/matchblas.h>

int main(void) {
  /* CSC, 0-based: column j's rows and values. */
  const int32_t colptr[] = {0, 2, 4, 6, 8};
  const int32_t rowind[] = {0, 1, 1, 2, 2, 3, 0, 3};
  const double values[] = {0.01, 8.0, 0.5, 6.0, 0.02, 9.0, 7.0, 0.1};
  const matchblas_sparse a = {4, 4, MATCHBLAS_CSC, 0, MATCHBLAS_INT32, MATCHBLAS_DOUBLE, colptr, rowind, values};
  matchblas_prepass_options opt;
  matchblas_prepass_default_options(&opt);
  opt.job = MATCHBLAS_JOB_MAX_PRODUCT;
  int64_t perm[4];
  double r[4], c[4], scaled[8];
  matchblas_inform info, scaling_info;
  int status = matchblas_prepass(&a, &opt, perm, NULL, NULL, r, c, &info);
  if (status < 0) {
    fprintf(stderr, "prepass: %s: %s\n", matchblas_status_string(status), info.message);
    return 1;
  }
  /* The largest product puts 8, 6, 9 and 7 on the diagonal. */
  const int64_t expected[4] = {3, 0, 1, 2};
  for (int i = 0; i < 4; ++i)
    if (perm[i] != expected[i] || info.job != 5 || info.matched != 4) {
      fprintf(stderr, "unexpected result: job %d, %lld matched, perm[%d] = %lld\n", info.job, (long long)info.matched, i,
              (long long)perm[i]);
      return 1;
    }
  status = matchblas_apply_scaling(&a, r, c, scaled, &scaling_info);
  if (status < 0) {
    fprintf(stderr, "apply_scaling: %s\n", scaling_info.message);
    return 1;
  }
  printf("matchblas %s: job %d, %lld matched, product of the matched |a_ij| %.6g; perm:", matchblas_version(), info.job,
         (long long)info.matched, exp(info.objective));
  for (int i = 0; i < 4; ++i) printf(" %lld", (long long)perm[i]);
  printf("\n");
  for (int j = 0; j < 4; ++j)
    for (int k = colptr[j]; k < colptr[j + 1]; ++k) {
      const double b = fabs(scaled[k]);
      const int on_diagonal = perm[rowind[k]] == j;
      if (b > 1 + 1e-12 || (on_diagonal && fabs(b - 1) > 1e-12)) {
        fprintf(stderr, "scaled entry (%d, %d) = %g breaks the bounds\n", rowind[k], j, b);
        return 1;
      }
    }
  printf("scaled matrix: |b| = 1 on the matching, <= 1 elsewhere\n");
  return 0;
}
