/* SuperLU with matchblas's diagonal pre-pass: for each square Matrix Market
 * file (.mtx, or .mtx.gz through gzip -dc), solve A x = b with b = A * ones
 * by SuperLU's expert driver dgssvx three ways, and print one Markdown
 * table row per matrix:
 *   matchblas  job 5 of matchblas_prepass (the C API): permutation P and
 *              scalings Dr, Dc; dgssvx factorises B = P Dr A Dc and solves
 *              B y = P Dr b, then x = Dc y (Equil = NO).
 *   MC64       the same from SuperLU's own MC64 (dldperm, job 5), applied
 *              as SuperLU applies it for RowPerm = LargeDiag_MC64. Debian's
 *              libsuperlu stubs MC64 out: this way runs only when built with
 *              upstream's mc64ad.c (MATCHBLAS_HAVE_MC64), else 'n/a'.
 *   none       no row permutation; SuperLU's own equilibration (Equil = YES).
 * All three use static pivoting: DiagPivotThresh = 0 (the diagonal is the
 * pivot unless it is exactly zero) and COLAMD; ReplaceTinyPivot exists only
 * in SuperLU_DIST.
 *
 * Why the matrix is permuted here rather than through options->RowPerm:
 * serial SuperLU 5.3's dgssvx never reads RowPerm (slu_util.h: "only for
 * SuperLU_DIST or ILU"); its ILU driver dgsisx applies MC64 by scaling the
 * values and renumbering the rows, rowind[k] = perm[rowind[k]], which is what
 * permute_scale() below does for both permutations. The convention is
 * SuperLU's perm_r: perm[i] = j means row i of A is row j of P A. matchblas's
 * perm (prepass.h: the column matched to row i) and dldperm's perm are both
 * of that form; permute_scale() checks that every diagonal entry of P A is
 * present.
 *
 * Columns: info (0: factorised; i in 1..n: U(i,i) is exactly zero), the
 * componentwise backward error max_i |b - A x|_i / (|A| |x| + |b|)_i on the
 * original system, without and with SuperLU's iterative refinement
 * (dgsrfs, SLU_DOUBLE), and the pre-pass's wall time. Structurally singular
 * matrices are reported and skipped, as are pattern and complex files.
 *
 * Usage: superlu_prepass [--check] FILE...
 *   --check  exit 1 unless the matchblas way succeeds (info 0 and refined
 *            backward error < 1e-10) on every matrix where the MC64 way
 *            succeeds (built without MC64: where the 'none' way succeeds).
 * Exit status 0; 1 when --check fails; 2 on a real error: an unreadable or
 * malformed file, a pre-pass that rejects its input, a permutation that
 * misses the diagonal. A failed factorisation is a result, not an error. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "matchblas/prepass.h"
#include "slu_ddefs.h"

#define BERR_OK 1e-10
#ifndef MATCHBLAS_HAVE_MC64
#define MATCHBLAS_HAVE_MC64 0
#endif

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ---- reading ------------------------------------------------------------ */

/* The file as a stream: gzip -dc through a pipe for a .gz name. */
static FILE* open_input(const char* path, int* piped) {
  const size_t len = strlen(path);
  *piped = len > 3 && strcmp(path + len - 3, ".gz") == 0;
  if (!*piped) return fopen(path, "r");
  char* cmd = malloc(4 * len + 32), *q = cmd;
  q += sprintf(q, "gzip -dc -- '");
  for (const char* p = path; *p; ++p) /* quote for the shell: ' becomes '\'' */
    q += *p == '\'' ? sprintf(q, "'\\''") : sprintf(q, "%c", *p);
  sprintf(q, "'");
  FILE* f = popen(cmd, "r");
  free(cmd);
  return f;
}

/* Copies the Matrix Market stream `in` into an anonymous temporary file in
 * the one form dreadMM reads safely, "coordinate real general", 1-based:
 * symmetric and skew-symmetric files are expanded here (dreadMM expands a
 * symmetric file into a buffer of 2 nnz - n entries, too small when the
 * diagonal is not full, and copies skew-symmetric entries with the wrong
 * sign), integer values are written as reals, and every entry is checked.
 * Returns the file at its start; NULL with `why` set when the matrix is to
 * be skipped (*bad = 0) or the file is malformed (*bad = 1). */
static FILE* stage(FILE* in, char* why, size_t why_len, int* bad) {
  char line[1024], banner[64], object[64], format[64], field[64], symmetry[64];
  long rows, cols, nnz;
  *bad = 1;
  if (!fgets(line, sizeof line, in)) line[0] = 0;
  for (char* p = line; *p; ++p) *p = (char)tolower((unsigned char)*p);
  if (sscanf(line, "%63s %63s %63s %63s %63s", banner, object, format, field, symmetry) != 5 ||
      strcmp(banner, "%%matrixmarket") != 0) {
    snprintf(why, why_len, "not a Matrix Market file");
    return NULL;
  }
  if (strcmp(object, "matrix") != 0 || strcmp(format, "coordinate") != 0) {
    *bad = 0;
    snprintf(why, why_len, "skipped: not a sparse (coordinate) matrix");
    return NULL;
  }
  do {
    if (!fgets(line, sizeof line, in)) {
      snprintf(why, why_len, "no size line");
      return NULL;
    }
  } while (line[0] == '%' || strspn(line, " \t\r\n") == strlen(line));
  if (sscanf(line, "%ld %ld %ld", &rows, &cols, &nnz) != 3 || rows < 0 || cols < 0 || nnz < 0) {
    snprintf(why, why_len, "bad size line");
    return NULL;
  }
  *bad = 0;
  if (strcmp(field, "pattern") == 0) {
    snprintf(why, why_len, "skipped: pattern (no values)");
    return NULL;
  }
  if (strcmp(field, "real") != 0 && strcmp(field, "integer") != 0) {
    snprintf(why, why_len, "skipped: %s values (dreadMM reads real ones)", field);
    return NULL;
  }
  if (rows != cols) {
    snprintf(why, why_len, "skipped: not square (%ld x %ld)", rows, cols);
    return NULL;
  }
  const int mirror = strcmp(symmetry, "general") != 0, skew = strcmp(symmetry, "skew-symmetric") == 0;
  if (2 * nnz >= 0x7fffffffL) {
    snprintf(why, why_len, "skipped: too many entries for SuperLU's int indices");
    return NULL;
  }
  FILE* out = tmpfile();
  if (!out) {
    *bad = 1;
    snprintf(why, why_len, "cannot create a temporary file");
    return NULL;
  }
  /* The entry count is rewritten once known (a fixed-width field). */
  fprintf(out, "%%%%MatrixMarket matrix coordinate real general\n%ld %ld ", rows, cols);
  const long count_at = ftell(out);
  fprintf(out, "%20ld\n", 0L);
  long written = 0;
  for (long k = 0; k < nnz; ++k) {
    long i, j;
    double x;
    if (fscanf(in, "%ld %ld %lf", &i, &j, &x) != 3 || i < 1 || i > rows || j < 1 || j > cols) {
      *bad = 1;
      snprintf(why, why_len, "entry %ld is missing or malformed", k + 1);
      fclose(out);
      return NULL;
    }
    fprintf(out, "%ld %ld %.17g\n", i, j, x);
    ++written;
    if (mirror && i != j) {
      fprintf(out, "%ld %ld %.17g\n", j, i, skew ? -x : x);
      ++written;
    }
  }
  fseek(out, count_at, SEEK_SET);
  fprintf(out, "%20ld\n", written);
  if (fflush(out) != 0 || ferror(out)) {
    *bad = 1;
    snprintf(why, why_len, "cannot write the temporary copy");
    fclose(out);
    return NULL;
  }
  rewind(out);
  return out;
}

/* dreadMM and MC64 report on standard output; the table owns it, so it
 * goes to /dev/null meanwhile: quiet() returns what restore() needs. */
static int quiet(void) {
  fflush(stdout);
  const int saved = dup(STDOUT_FILENO), null = open("/dev/null", O_WRONLY);
  if (saved >= 0 && null >= 0) dup2(null, STDOUT_FILENO);
  if (null >= 0) close(null);
  return saved;
}
static void restore(int saved) {
  fflush(stdout);
  if (saved < 0) return;
  dup2(saved, STDOUT_FILENO);
  close(saved);
}

/* ---- solving ------------------------------------------------------------ */

typedef struct {
  int info;            /* dgssvx's */
  double berr;         /* without iterative refinement */
  double berr_refined; /* with it */
} outcome;

static int succeeded(const outcome* o) { return o->info == 0 && o->berr_refined < BERR_OK; }

/* The CSC matrix A (n x n) in arrays of its own. */
typedef struct {
  int n, nnz;
  double* val;
  int* row;
  int* colptr;
} csc;

static void free_csc(csc* a) {
  free(a->val);
  free(a->row);
  free(a->colptr);
}

/* max_i |b - A x|_i / (|A| |x| + |b|)_i (0/0 counts as 0; NaN if x is). */
static double backward_error(const csc* a, const double* x, const double* b) {
  double* r = malloc(sizeof(double) * (size_t)a->n);
  double* d = malloc(sizeof(double) * (size_t)a->n);
  for (int i = 0; i < a->n; ++i) {
    r[i] = b[i];
    d[i] = fabs(b[i]);
  }
  for (int j = 0; j < a->n; ++j)
    for (int k = a->colptr[j]; k < a->colptr[j + 1]; ++k) {
      r[a->row[k]] -= a->val[k] * x[j];
      d[a->row[k]] += fabs(a->val[k] * x[j]);
    }
  double worst = 0;
  for (int i = 0; i < a->n; ++i) {
    const double e = d[i] > 0 ? fabs(r[i]) / d[i] : fabs(r[i]) > 0 ? INFINITY : 0;
    if (isnan(e) || e > worst) worst = isnan(e) ? NAN : e;
    if (isnan(worst)) break;
  }
  free(r);
  free(d);
  return worst;
}

/* B = P Dr A Dc as a new CSC matrix (perm NULL: B = A; rlog/clog NULL: no
 * scaling): b_{perm[i], j} = a_ij exp(r_i + c_j), explicit zeros kept zero.
 * Returns the number of columns j without the entry (j, j) in B. */
static int permute_scale(const csc* a, const int* perm, const double* rlog, const double* clog, csc* b) {
  b->n = a->n;
  b->nnz = a->nnz;
  b->val = malloc(sizeof(double) * (size_t)(a->nnz > 0 ? a->nnz : 1));
  b->row = malloc(sizeof(int) * (size_t)(a->nnz > 0 ? a->nnz : 1));
  b->colptr = malloc(sizeof(int) * (size_t)(a->n + 1));
  memcpy(b->colptr, a->colptr, sizeof(int) * (size_t)(a->n + 1));
  int missing = 0;
  for (int j = 0; j < a->n; ++j) {
    int diagonal = 0;
    for (int k = a->colptr[j]; k < a->colptr[j + 1]; ++k) {
      const int i = a->row[k];
      b->row[k] = perm ? perm[i] : i;
      b->val[k] = rlog && a->val[k] != 0 ? a->val[k] * exp(rlog[i] + clog[j]) : a->val[k];
      diagonal |= b->row[k] == j;
    }
    missing += !diagonal;
  }
  return missing;
}

/* Solves A x = b through B = P Dr A Dc: B y = P Dr b, x = Dc y (see
 * permute_scale for NULL arguments); the backward errors are measured on A. */
static outcome solve(const csc* a, const double* b, const csc* bm, const int* perm, const double* rlog,
                     const double* clog, yes_no_t equil) {
  const int n = a->n;
  outcome o = {0, NAN, NAN};
  double* rhs = malloc(sizeof(double) * (size_t)n);
  double* y = malloc(sizeof(double) * (size_t)n);
  double* x = malloc(sizeof(double) * (size_t)n);
  int* perm_c = malloc(sizeof(int) * (size_t)n);
  int* perm_r = malloc(sizeof(int) * (size_t)n);
  int* etree = malloc(sizeof(int) * (size_t)n);
  double* R = malloc(sizeof(double) * (size_t)n);
  double* C = malloc(sizeof(double) * (size_t)n);
  /* B's values are scaled in place by dgssvx when it equilibrates: a copy. */
  double* values = malloc(sizeof(double) * (size_t)(bm->nnz > 0 ? bm->nnz : 1));
  memcpy(values, bm->val, sizeof(double) * (size_t)bm->nnz);
  SuperMatrix A, L, U, B, X;
  dCreate_CompCol_Matrix(&A, n, n, bm->nnz, values, bm->row, bm->colptr, SLU_NC, SLU_D, SLU_GE);

  superlu_options_t options;
  set_default_options(&options);
  options.Equil = equil;
  options.DiagPivotThresh = 0.0;
  options.ColPerm = COLAMD;
  options.PrintStat = NO;
  char equed[1] = {'N'};
  double rpg, rcond, ferr, berr;
  GlobalLU_t glu;
  mem_usage_t mem;
  SuperLUStat_t stat;
  StatInit(&stat);
  for (int refine = 0; refine <= 1; ++refine) {
    for (int i = 0; i < n; ++i) rhs[perm ? perm[i] : i] = rlog ? b[i] * exp(rlog[i]) : b[i];
    dCreate_Dense_Matrix(&B, n, 1, rhs, n, SLU_DN, SLU_D, SLU_GE);
    dCreate_Dense_Matrix(&X, n, 1, y, n, SLU_DN, SLU_D, SLU_GE);
    options.Fact = refine ? FACTORED : DOFACT;
    options.IterRefine = refine ? SLU_DOUBLE : NOREFINE;
    int info = 0;
    dgssvx(&options, &A, perm_c, perm_r, etree, equed, R, C, &L, &U, NULL, 0, &B, &X, &rpg, &rcond, &ferr, &berr,
           &glu, &mem, &stat, &info);
    Destroy_SuperMatrix_Store(&B);
    Destroy_SuperMatrix_Store(&X);
    if (!refine) o.info = info;
    if (info == 0) {
      for (int j = 0; j < n; ++j) x[j] = clog ? y[j] * exp(clog[j]) : y[j];
      *(refine ? &o.berr_refined : &o.berr) = backward_error(a, x, b);
    }
    if (info != 0) break;
  }
  if (o.info >= 0 && o.info <= n) { /* L and U exist (also when U is singular) */
    Destroy_SuperNode_Matrix(&L);
    Destroy_CompCol_Matrix(&U);
  }
  StatFree(&stat);
  Destroy_SuperMatrix_Store(&A);
  free(values);
  free(rhs);
  free(y);
  free(x);
  free(perm_c);
  free(perm_r);
  free(etree);
  free(R);
  free(C);
  return o;
}

/* ---- one matrix --------------------------------------------------------- */

static void print_outcome(const outcome* o) {
  if (o->info != 0)
    printf(" %d | - | - |", o->info);
  else
    printf(" 0 | %.1e | %.1e |", o->berr, o->berr_refined);
}

typedef struct {
  int matrices, ok_matchblas, ok_mc64, ok_none, check_failures;
} tally;

/* Solves one file's system three ways and prints its row. Returns 0, or 2
 * on a real error. */
static int run_file(const char* path, tally* t) {
  const char* name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  int piped = 0, bad = 0;
  char why[256] = "";
  FILE* in = open_input(path, &piped);
  if (!in) {
    fprintf(stderr, "superlu_prepass: cannot open %s\n", path);
    return 2;
  }
  FILE* staged = stage(in, why, sizeof why, &bad);
  /* (A skipped file's pipe is closed early: gzip's complaint is expected.) */
  const int closed = piped ? pclose(in) : fclose(in);
  if (!staged && !bad) {
    printf("| %s | | | %s |\n", name, why);
    return 0;
  }
  if (!staged || closed != 0) {
    if (staged) fclose(staged);
    fprintf(stderr, "superlu_prepass: %s: %s\n", path, staged ? "could not be read to its end" : why);
    return 2;
  }
  csc a;
  int m;
  const int saved = quiet();
  dreadMM(staged, &m, &a.n, &a.nnz, &a.val, &a.row, &a.colptr);
  restore(saved);
  fclose(staged);

  double* b = calloc((size_t)a.n + 1, sizeof(double)); /* b = A * ones */
  for (int j = 0; j < a.n; ++j)
    for (int k = a.colptr[j]; k < a.colptr[j + 1]; ++k) b[a.row[k]] += a.val[k];

  /* matchblas: job 5 on the CSC arrays as dreadMM left them. */
  matchblas_sparse s = {a.n, a.n, MATCHBLAS_CSC, 0, MATCHBLAS_INT32, MATCHBLAS_DOUBLE, a.colptr, a.row, a.val};
  matchblas_prepass_options po;
  matchblas_prepass_default_options(&po);
  po.job = MATCHBLAS_JOB_MAX_PRODUCT;
  int64_t* perm64 = malloc(sizeof(int64_t) * ((size_t)a.n + 1));
  int* perm = malloc(sizeof(int) * ((size_t)a.n + 1));
  double* r = malloc(sizeof(double) * ((size_t)a.n + 1));
  double* c = malloc(sizeof(double) * ((size_t)a.n + 1));
  matchblas_inform inform;
  double t0 = now();
  const int status = matchblas_prepass(&s, &po, perm64, NULL, NULL, r, c, &inform);
  const double mb_seconds = now() - t0;
  int result = 0;
  if (status < 0) {
    fprintf(stderr, "superlu_prepass: %s: the pre-pass rejects it: %s\n", path, inform.message);
    result = 2;
  } else if (status == MATCHBLAS_STRUCTURALLY_SINGULAR) {
    printf("| %s | %d | %d | skipped: structurally singular (%lld of %d matched) |\n", name, a.n, a.nnz,
           (long long)inform.matched, a.n);
  } else {
    for (int i = 0; i < a.n; ++i) perm[i] = (int)perm64[i];
    ++t->matrices;
    csc pa;
    printf("| %s | %d | %d |", name, a.n, a.nnz);
    if (permute_scale(&a, perm, r, c, &pa) != 0) {
      fprintf(stderr, "superlu_prepass: %s: matchblas's permutation leaves diagonal entries empty\n", path);
      result = 2;
    }
    const outcome mb = solve(&a, b, &pa, perm, r, c, NO);
    free_csc(&pa);
    print_outcome(&mb);
    printf(" %.4f |", mb_seconds);

    int mc64_ran = 0;
    outcome mc = {0, NAN, NAN};
#if MATCHBLAS_HAVE_MC64
    /* SuperLU's MC64 (dldperm: perm, and u, v the log scalings, as dgsisx
     * uses them); it renumbers the index arrays in place and restores them. */
    const int saved_out = quiet();
    t0 = now();
    const int mc64_info = dldperm(5, a.n, a.nnz, a.colptr, a.row, a.val, perm, r, c);
    const double mc_seconds = now() - t0;
    restore(saved_out);
    if (mc64_info != 0) {
      printf(" MC64 info %d | - | - | %.4f |", mc64_info, mc_seconds);
    } else {
      if (permute_scale(&a, perm, r, c, &pa) != 0) {
        fprintf(stderr, "superlu_prepass: %s: MC64's permutation leaves diagonal entries empty\n", path);
        result = 2;
      }
      mc = solve(&a, b, &pa, perm, r, c, NO);
      free_csc(&pa);
      mc64_ran = 1;
      print_outcome(&mc);
      printf(" %.4f |", mc_seconds);
    }
#else
    printf(" n/a | n/a | n/a | n/a |");
#endif
    permute_scale(&a, NULL, NULL, NULL, &pa);
    const outcome none = solve(&a, b, &pa, NULL, NULL, NULL, YES);
    free_csc(&pa);
    print_outcome(&none);
    printf("\n");

    t->ok_matchblas += succeeded(&mb);
    t->ok_mc64 += mc64_ran && succeeded(&mc);
    t->ok_none += succeeded(&none);
    const int reference_ok = MATCHBLAS_HAVE_MC64 ? mc64_ran && succeeded(&mc) : succeeded(&none);
    if (reference_ok && !succeeded(&mb)) {
      ++t->check_failures;
      fprintf(stderr, "superlu_prepass: %s: matchblas's pre-pass fails where %s succeeds\n", name,
              MATCHBLAS_HAVE_MC64 ? "MC64" : "no permutation");
    }
  }
  free(perm64);
  free(perm);
  free(r);
  free(c);
  free(b);
  SUPERLU_FREE(a.val); /* dreadMM's arrays */
  SUPERLU_FREE(a.row);
  SUPERLU_FREE(a.colptr);
  return result;
}

int main(int argc, char** argv) {
  int check = 0, first = 1, result = 0;
  if (argc > 1 && strcmp(argv[1], "--check") == 0) check = 1, first = 2;
  if (first >= argc) {
    fprintf(stderr, "usage: superlu_prepass [--check] FILE.mtx[.gz]...\n");
    return 2;
  }
  printf("| matrix | n | nnz | matchblas info | berr | berr+IR | pre-pass s | MC64 info | berr | berr+IR | MC64 s "
         "| none info | berr | berr+IR |\n");
  printf("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
  tally t = {0, 0, 0, 0, 0};
  for (int k = first; k < argc; ++k)
    if (run_file(argv[k], &t) != 0) result = 2;
  printf("\nsolved (info 0, refined backward error < %.0e) of %d structurally nonsingular: matchblas %d, MC64 %s%d, "
         "none %d\n",
         BERR_OK, t.matrices, t.ok_matchblas, MATCHBLAS_HAVE_MC64 ? "" : "n/a ", t.ok_mc64, t.ok_none);
  if (result == 0 && check && t.check_failures > 0) result = 1;
  return result;
}
