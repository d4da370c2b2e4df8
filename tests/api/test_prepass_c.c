/* The pre-pass's C interface, compiled as C (C99): every job on random 5x5
 * and 6x4 matrices given as CSR and CSC, 0- and 1-based, int32 and int64,
 * double, float, complex and pattern values, each result checked against an
 * exhaustive search over all matchings written here; the scalings' bounds;
 * the symmetric mode from one triangle; apply_scaling; and every invalid-
 * input status. Exit status 0 when every check passes. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matchblas/prepass.h"

static int failures = 0;
#define CHECK(cond, ...)                                   \
  do {                                                     \
    if (!(cond)) {                                         \
      ++failures;                                          \
      fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                        \
      fputc('\n', stderr);                                 \
    }                                                      \
  } while (0)

#define M_MAX 8
static double dense[M_MAX][M_MAX]; /* the test matrix; NAN = no entry */
static int rows, cols;

/* Exhaustive search over all matchings (every row: a column or none):
 * the best (cardinality, objective) for a job. */
static int best_count;
static double best_objective;
static void search(int job, int i, int used, int count, double sum, double logsum, double smallest) {
  if (i == rows) {
    double obj = job == 4 ? sum : job == 5 ? logsum : smallest;
    if (count > best_count || (count == best_count && obj > best_objective)) {
      best_count = count;
      best_objective = obj;
    }
    return;
  }
  search(job, i + 1, used, count, sum, logsum, smallest);
  for (int j = 0; j < cols; ++j)
    if (!(used & (1 << j)) && !isnan(dense[i][j])) {
      const double x = fabs(dense[i][j]);
      search(job, i + 1, used | (1 << j), count + 1, sum + x, logsum + log(x), x < smallest ? x : smallest);
    }
}

/* The matrix in the requested storage. */
typedef struct {
  int64_t ptr64[M_MAX + 1], idx64[M_MAX * M_MAX];
  int32_t ptr32[M_MAX + 1], idx32[M_MAX * M_MAX];
  double vd[2 * M_MAX * M_MAX];
  float vf[2 * M_MAX * M_MAX];
  matchblas_sparse a;
} storage;

static void build(storage* s, matchblas_layout layout, int base, matchblas_index_type it, matchblas_value_type vt) {
  const int outer = layout == MATCHBLAS_CSR ? rows : cols, inner = layout == MATCHBLAS_CSR ? cols : rows;
  int k = 0;
  s->ptr64[0] = base;
  for (int o = 0; o < outer; ++o) {
    for (int q = inner - 1; q >= 0; --q) { /* entries in decreasing order: any order is allowed */
      const double x = layout == MATCHBLAS_CSR ? dense[o][q] : dense[q][o];
      if (isnan(x)) continue;
      s->idx64[k] = q + base;
      if (vt == MATCHBLAS_COMPLEX_DOUBLE || vt == MATCHBLAS_COMPLEX_FLOAT) {
        /* a complex value of modulus |x|, real or imaginary by turns (exact in float) */
        s->vd[2 * k] = k % 2 ? 0.0 : x;
        s->vd[2 * k + 1] = k % 2 ? x : 0.0;
        s->vf[2 * k] = (float)s->vd[2 * k];
        s->vf[2 * k + 1] = (float)s->vd[2 * k + 1];
      } else {
        s->vd[k] = x;
        s->vf[k] = (float)x;
      }
      ++k;
    }
    s->ptr64[o + 1] = k + base;
  }
  for (int o = 0; o <= outer; ++o) s->ptr32[o] = (int32_t)s->ptr64[o];
  for (int q = 0; q < k; ++q) s->idx32[q] = (int32_t)s->idx64[q];
  s->a.rows = rows;
  s->a.cols = cols;
  s->a.layout = layout;
  s->a.base = base;
  s->a.index_type = it;
  s->a.value_type = vt;
  s->a.pointers = it == MATCHBLAS_INT32 ? (const void*)s->ptr32 : (const void*)s->ptr64;
  s->a.indices = it == MATCHBLAS_INT32 ? (const void*)s->idx32 : (const void*)s->idx64;
  s->a.values = vt == MATCHBLAS_PATTERN ? NULL
                : (vt == MATCHBLAS_FLOAT || vt == MATCHBLAS_COMPLEX_FLOAT) ? (const void*)s->vf
                                                                          : (const void*)s->vd;
}

/* Values exactly representable as floats, so every value type sees the same |a_ij|. */
static void random_matrix(int m, int n, unsigned* seed) {
  rows = m;
  cols = n;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      *seed = *seed * 1103515245u + 12345u;
      const unsigned r = (*seed >> 16) & 0x7fff;
      dense[i][j] = r % 3 == 0 ? NAN : (double)(1 + r % 7) * (r & 8 ? 0.25 : 4.0) * (r & 16 ? -1 : 1);
    }
}

static void check_result(const char* what, int job, const storage* s, const int64_t* perm, const int64_t* row_mate,
                         const int64_t* col_mate, const double* r, const double* c, const matchblas_inform* inf,
                         int status) {
  best_count = -1;
  best_objective = -INFINITY;
  search(job == 3 ? 2 : job == 1 ? 2 : job, 0, 0, 0, 0.0, 0.0, INFINITY);
  const int rank = best_count;
  CHECK(status == inf->status, "%s: status %d vs inform %d", what, status, inf->status);
  CHECK(status == (rank < (rows < cols ? rows : cols) ? MATCHBLAS_STRUCTURALLY_SINGULAR : MATCHBLAS_OK),
        "%s job %d: status %d (%s), rank %d", what, job, status, inf->message, rank);
  CHECK(inf->matched == rank, "%s job %d: matched %lld, rank %d", what, job, (long long)inf->matched, rank);
  CHECK(inf->job == job, "%s: job %d reported as %d", what, job, inf->job);
  int count = 0;
  for (int i = 0; i < rows; ++i) {
    if (row_mate[i] < 0) continue;
    ++count;
    CHECK(row_mate[i] < cols && !isnan(dense[i][row_mate[i]]), "%s: row %d matched to a non-entry", what, i);
    CHECK(col_mate[row_mate[i]] == i, "%s: mates disagree at row %d", what, i);
  }
  CHECK(count == rank, "%s: %d pairs in row_mate", what, count);
  if (perm) {
    int seen = 0;
    for (int i = 0; i < rows; ++i) {
      CHECK(perm[i] >= 0 && perm[i] < cols && !(seen & (1 << perm[i])), "%s: perm is not a permutation", what);
      seen |= 1 << perm[i];
      if (row_mate[i] >= 0) CHECK(perm[i] == row_mate[i], "%s: perm[%d] is not row %d's mate", what, i, i);
    }
  }
  if (job >= 2) {
    best_count = -1;
    best_objective = -INFINITY;
    search(job == 3 ? 2 : job, 0, 0, 0, 0.0, 0.0, INFINITY);
    const double want = rank == 0 ? 0 : best_objective;
    CHECK(fabs(inf->objective - want) <= 1e-12 * (1 + fabs(want)), "%s job %d: objective %.17g, best %.17g", what, job,
          inf->objective, want);
  }
  if (job == 5) {
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) {
        if (isnan(dense[i][j])) continue;
        const double b = fabs(dense[i][j]) * exp(r[i] + c[j]);
        CHECK(b <= 1 + 1e-12, "%s: |b_%d%d| = %.17g > 1", what, i, j, b);
        if (row_mate[i] == j) CHECK(fabs(b - 1) <= 1e-12, "%s: matched |b_%d%d| = %.17g", what, i, j, b);
      }
    /* apply_scaling agrees with the formula */
    double scaled[2 * M_MAX * M_MAX];
    float scaled_f[2 * M_MAX * M_MAX];
    if (s->a.value_type != MATCHBLAS_PATTERN) {
      matchblas_inform inf2;
      const int st = matchblas_apply_scaling(&s->a, r, c,
                                             (s->a.value_type == MATCHBLAS_FLOAT || s->a.value_type == MATCHBLAS_COMPLEX_FLOAT)
                                                 ? (void*)scaled_f
                                                 : (void*)scaled,
                                             &inf2);
      CHECK(st == MATCHBLAS_OK, "%s: apply_scaling status %d %s", what, st, inf2.message);
      const int complex = s->a.value_type == MATCHBLAS_COMPLEX_DOUBLE || s->a.value_type == MATCHBLAS_COMPLEX_FLOAT;
      const int single = s->a.value_type == MATCHBLAS_FLOAT || s->a.value_type == MATCHBLAS_COMPLEX_FLOAT;
      int k = 0;
      for (int q = 0; q < (int)(s->ptr64[s->a.layout == MATCHBLAS_CSR ? rows : cols] - s->a.base); ++q, ++k) {
        double mod = complex ? hypot(single ? scaled_f[2 * q] : scaled[2 * q], single ? scaled_f[2 * q + 1] : scaled[2 * q + 1])
                             : fabs(single ? scaled_f[q] : scaled[q]);
        CHECK(mod <= 1 + (single ? 1e-6 : 1e-12), "%s: scaled value %d has modulus %.17g", what, q, mod);
      }
      CHECK(k > 0 || rank == 0, "%s: nothing scaled", what);
    }
  }
}

static void run_all_storages(const char* name) {
  const matchblas_layout layouts[2] = {MATCHBLAS_CSR, MATCHBLAS_CSC};
  const matchblas_index_type its[2] = {MATCHBLAS_INT32, MATCHBLAS_INT64};
  const matchblas_value_type vts[5] = {MATCHBLAS_DOUBLE, MATCHBLAS_FLOAT, MATCHBLAS_COMPLEX_DOUBLE,
                                       MATCHBLAS_COMPLEX_FLOAT, MATCHBLAS_PATTERN};
  for (int l = 0; l < 2; ++l)
    for (int base = 0; base <= 1; ++base)
      for (int it = 0; it < 2; ++it)
        for (int vt = 0; vt < 5; ++vt)
          for (int job = 0; job <= 5; ++job) {
            if (vts[vt] == MATCHBLAS_PATTERN && job >= 2) continue; /* a pattern's values are all 1 */
            storage s;
            build(&s, layouts[l], base, its[it], vts[vt]);
            matchblas_prepass_options opt;
            matchblas_prepass_default_options(&opt);
            CHECK(opt.job == MATCHBLAS_JOB_AUTO && opt.symmetric == 0, "defaults");
            opt.job = job;
            int64_t perm[M_MAX], rm[M_MAX], cm[M_MAX];
            double r[M_MAX], c[M_MAX];
            matchblas_inform inf;
            const int square = rows == cols;
            const int status = matchblas_prepass(&s.a, &opt, square ? perm : NULL, rm, cm, r, c, &inf);
            char what[160];
            snprintf(what, sizeof what, "%s %s base %d int%d value type %d", name, l ? "CSC" : "CSR", base,
                     it ? 64 : 32, vt);
            if (job == 0) {
              CHECK(status == MATCHBLAS_OK && inf.matched == 0, "%s: job 0 status %d", what, status);
              if (square)
                for (int i = 0; i < rows; ++i) CHECK(perm[i] == i, "%s: job 0 perm not the identity", what);
              continue;
            }
            check_result(what, job, &s, square ? perm : NULL, rm, cm, r, c, &inf, status);
          }
}

static void expect_status(const char* what, int got, int want, const matchblas_inform* inf) {
  CHECK(got == want, "%s: status %d (%s), expected %d", what, got, inf->message, want);
  CHECK(inf->status == got, "%s: inform status %d", what, inf->status);
  CHECK(strlen(inf->message) > 0, "%s: no message", what);
  CHECK(strcmp(matchblas_status_string(got), "unknown status") != 0, "%s: unnamed status", what);
}

static void invalid_inputs(void) {
  int64_t ptr[3] = {0, 1, 2}, idx[2] = {0, 1}, perm[2], rm[2], cm[2];
  double val[2] = {1.0, 2.0}, r[2], c[2];
  matchblas_sparse a = {2, 2, MATCHBLAS_CSR, 0, MATCHBLAS_INT64, MATCHBLAS_DOUBLE, ptr, idx, val};
  matchblas_prepass_options opt;
  matchblas_prepass_default_options(&opt);
  matchblas_inform inf;
  expect_status("valid", matchblas_prepass(&a, &opt, perm, rm, cm, r, c, &inf), MATCHBLAS_OK, &inf);
  expect_status("NULL matrix", matchblas_prepass(NULL, &opt, perm, rm, cm, r, c, &inf), MATCHBLAS_ERR_NULL_ARGUMENT, &inf);
  matchblas_sparse b = a;
  b.values = NULL;
  expect_status("NULL values", matchblas_prepass(&b, &opt, perm, rm, cm, r, c, &inf), MATCHBLAS_ERR_NULL_ARGUMENT, &inf);
  b = a;
  b.pointers = NULL;
  expect_status("NULL pointers", matchblas_prepass(&b, &opt, perm, rm, cm, r, c, &inf), MATCHBLAS_ERR_NULL_ARGUMENT, &inf);
  opt.job = 6;
  expect_status("job 6", matchblas_prepass(&a, &opt, perm, rm, cm, r, c, &inf), MATCHBLAS_ERR_BAD_JOB, &inf);
  opt.job = 4;
  opt.symmetric = 1;
  expect_status("symmetric job 4", matchblas_prepass(&a, &opt, perm, rm, cm, r, c, &inf), MATCHBLAS_ERR_BAD_JOB, &inf);
  matchblas_prepass_default_options(&opt);
  b = a;
  b.rows = -1;
  expect_status("negative rows", matchblas_prepass(&b, &opt, perm, rm, cm, r, c, &inf), MATCHBLAS_ERR_BAD_DIMENSION, &inf);
  b = a;
  b.rows = (int64_t)1 << 40;
  expect_status("huge rows", matchblas_prepass(&b, &opt, perm, rm, cm, r, c, &inf), MATCHBLAS_ERR_BAD_DIMENSION, &inf);
  b = a;
  b.base = 2;
  expect_status("base 2", matchblas_prepass(&b, &opt, perm, rm, cm, r, c, &inf), MATCHBLAS_ERR_BAD_FORMAT, &inf);
  b = a;
  b.layout = (matchblas_layout)7;
  expect_status("layout 7", matchblas_prepass(&b, &opt, perm, rm, cm, r, c, &inf), MATCHBLAS_ERR_BAD_FORMAT, &inf);
  b = a;
  b.index_type = (matchblas_index_type)9;
  expect_status("index type 9", matchblas_prepass(&b, &opt, perm, rm, cm, r, c, &inf), MATCHBLAS_ERR_BAD_FORMAT, &inf);
  b = a;
  b.value_type = (matchblas_value_type)9;
  expect_status("value type 9", matchblas_prepass(&b, &opt, perm, rm, cm, r, c, &inf), MATCHBLAS_ERR_BAD_FORMAT, &inf);
  int64_t bad_ptr[3] = {0, 2, 1};
  b = a;
  b.pointers = bad_ptr;
  expect_status("decreasing pointers", matchblas_prepass(&b, &opt, perm, rm, cm, r, c, &inf), MATCHBLAS_ERR_BAD_POINTERS, &inf);
  int64_t one_based_ptr[3] = {1, 2, 3};
  b = a;
  b.pointers = one_based_ptr; /* base 0 declared */
  expect_status("pointers[0] != base", matchblas_prepass(&b, &opt, perm, rm, cm, r, c, &inf), MATCHBLAS_ERR_BAD_POINTERS, &inf);
  int64_t bad_idx[2] = {0, 2};
  b = a;
  b.indices = bad_idx;
  expect_status("index 2 of 2", matchblas_prepass(&b, &opt, perm, rm, cm, r, c, &inf), MATCHBLAS_ERR_INDEX_OUT_OF_RANGE, &inf);
  CHECK(strstr(inf.message, "index 2") != NULL, "message names the index: %s", inf.message);
  int64_t dup_ptr[3] = {0, 2, 2}, dup_idx[2] = {1, 1};
  b = a;
  b.pointers = dup_ptr;
  b.indices = dup_idx;
  expect_status("duplicate", matchblas_prepass(&b, &opt, perm, rm, cm, r, c, &inf), MATCHBLAS_ERR_DUPLICATE_ENTRY, &inf);
  double nan_val[2] = {1.0, NAN};
  b = a;
  b.values = nan_val;
  expect_status("NaN", matchblas_prepass(&b, &opt, perm, rm, cm, r, c, &inf), MATCHBLAS_ERR_BAD_VALUE, &inf);
  int64_t rect_ptr[2] = {0, 2};
  b = a;
  b.rows = 1;
  b.pointers = rect_ptr;
  opt.job = 5;
  opt.symmetric = 1;
  expect_status("symmetric 1x2", matchblas_prepass(&b, &opt, NULL, rm, cm, r, c, &inf), MATCHBLAS_ERR_NOT_SYMMETRIC, &inf);
  matchblas_prepass_default_options(&opt);
  expect_status("perm of 1x2", matchblas_prepass(&b, &opt, perm, rm, cm, r, c, &inf), MATCHBLAS_ERR_BAD_DIMENSION, &inf);
  expect_status("1x2 without perm", matchblas_prepass(&b, &opt, NULL, rm, cm, r, c, &inf), MATCHBLAS_OK, &inf);
  /* structurally singular: both rows only in column 0 */
  int64_t sing_idx[2] = {0, 0};
  b = a;
  b.indices = sing_idx;
  expect_status("singular", matchblas_prepass(&b, &opt, perm, rm, cm, r, c, &inf), MATCHBLAS_STRUCTURALLY_SINGULAR, &inf);
  CHECK(inf.matched == 1, "singular: matched %lld", (long long)inf.matched);
  CHECK((perm[0] == 0 && perm[1] == 1) || (perm[0] == 1 && perm[1] == 0), "singular: perm completed");
  /* inform may be NULL; options may be NULL */
  CHECK(matchblas_prepass(&a, NULL, perm, rm, cm, r, c, NULL) == MATCHBLAS_OK, "NULL options and inform");
  /* scalings that are not finite, or a scaled entry beyond the output type:
     refused before any output value is written */
  {
    double bad_r[2] = {0.0, NAN}, big_r[2] = {800.0, 0.0}, zero[2] = {0.0, 0.0}, out[2] = {-7.0, -7.0};
    float fval[2] = {1.0f, 2.0f}, fout[2] = {-7.0f, -7.0f};
    expect_status("NaN scaling", matchblas_apply_scaling(&a, bad_r, zero, out, &inf), MATCHBLAS_ERR_BAD_VALUE, &inf);
    CHECK(strstr(inf.message, "row_log_scale[1] is nan") != NULL, "NaN scaling: %s", inf.message);
    bad_r[1] = INFINITY;
    expect_status("inf scaling", matchblas_apply_scaling(&a, zero, bad_r, out, &inf), MATCHBLAS_ERR_BAD_VALUE, &inf);
    CHECK(strstr(inf.message, "col_log_scale[1] is inf") != NULL, "inf scaling: %s", inf.message);
    expect_status("overflowing scaling", matchblas_apply_scaling(&a, big_r, zero, out, &inf), MATCHBLAS_ERR_BAD_VALUE,
                  &inf);
    CHECK(strstr(inf.message, "the scaled entry (0, 0) overflows a double") != NULL, "overflow: %s", inf.message);
    CHECK(out[0] == -7.0 && out[1] == -7.0, "overflow: output written");
    const double float_big[2] = {0.0, 89.0}; /* 2 e^89 > FLT_MAX, < DBL_MAX */
    matchblas_sparse f = a;
    f.value_type = MATCHBLAS_FLOAT;
    f.values = fval;
    expect_status("float overflow", matchblas_apply_scaling(&f, float_big, zero, fout, &inf), MATCHBLAS_ERR_BAD_VALUE,
                  &inf);
    CHECK(strstr(inf.message, "the scaled entry (1, 1) overflows a float") != NULL, "float overflow: %s", inf.message);
    CHECK(fout[0] == -7.0f && fout[1] == -7.0f, "float overflow: output written");
    expect_status("double holds it", matchblas_apply_scaling(&a, float_big, zero, out, &inf), MATCHBLAS_OK, &inf);
    CHECK(fabs(out[1] - 2.0 * exp(89.0)) <= 1e-12 * out[1], "double: %g", out[1]);
  }
  expect_status("apply to pattern",
                matchblas_apply_scaling(&(matchblas_sparse){2, 2, MATCHBLAS_CSR, 0, MATCHBLAS_INT64, MATCHBLAS_PATTERN,
                                                            ptr, idx, NULL},
                                        r, c, val, &inf),
                MATCHBLAS_ERR_BAD_FORMAT, &inf);
}

/* Symmetric mode from the lower triangle of a random symmetric matrix. */
static void symmetric_mode(unsigned* seed) {
  for (int trial = 0; trial < 50; ++trial) {
    random_matrix(6, 6, seed);
    for (int i = 0; i < 6; ++i)
      for (int j = i + 1; j < 6; ++j) dense[i][j] = dense[j][i];
    int64_t ptr[7], idx[36], k = 0;
    double val[36];
    ptr[0] = 1;
    for (int i = 0; i < 6; ++i) {
      for (int j = 0; j <= i; ++j)
        if (!isnan(dense[i][j])) {
          idx[k] = j + 1;
          val[k++] = dense[i][j];
        }
      ptr[i + 1] = k + 1;
    }
    matchblas_sparse a = {6, 6, MATCHBLAS_CSR, 1, MATCHBLAS_INT64, MATCHBLAS_DOUBLE, ptr, idx, val};
    matchblas_prepass_options opt;
    matchblas_prepass_default_options(&opt);
    opt.symmetric = 1;
    int64_t perm[6], rm[6], cm[6];
    double s[6], s2[6];
    matchblas_inform inf;
    const int status = matchblas_prepass(&a, &opt, perm, rm, cm, s, s2, &inf);
    CHECK(status >= 0, "symmetric: status %d %s", status, inf.message);
    CHECK(inf.job == 5, "symmetric: auto job %d", inf.job);
    for (int i = 0; i < 6; ++i) CHECK(s[i] == s2[i], "symmetric: two scalings differ at %d", i);
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j)
        if (!isnan(dense[i][j])) {
          const double b = fabs(dense[i][j]) * exp(s[i] + s[j]);
          CHECK(b <= 1 + 1e-12, "symmetric: |b_%d%d| = %.17g", i, j, b);
          if (rm[i] == j) CHECK(fabs(b - 1) <= 1e-12, "symmetric: matched |b_%d%d| = %.17g", i, j, b);
        }
  }
}

int main(void) {
  unsigned seed = 18;
  for (int trial = 0; trial < 40; ++trial) {
    random_matrix(5, 5, &seed);
    run_all_storages("5x5");
  }
  for (int trial = 0; trial < 20; ++trial) {
    random_matrix(6, 4, &seed);
    run_all_storages("6x4");
    random_matrix(3, 7, &seed);
    run_all_storages("3x7");
  }
  invalid_inputs();
  symmetric_mode(&seed);
  if (failures) {
    fprintf(stderr, "test_prepass_c: %d checks failed\n", failures);
    return 1;
  }
  printf("test_prepass_c: all checks passed\n");
  return 0;
}
