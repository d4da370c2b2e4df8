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
 * With --ilu the solver is iterative instead: SuperLU's incomplete LU
 * (dgsisx: ILUTP, drop tolerance 1e-4, fill factor 10, diagonal pivot
 * threshold 0, COLAMD, no row permutation or equilibration of its own)
 * preconditions restarted GMRES(50) from the right, to a relative residual
 * of 1e-8 on the system solved (at most 1000 iterations), b = A * ones. Its
 * columns: the ILU's info, the fill (nnz(L) + nnz(U) - n) / nnz(A), the
 * iterations (or "fails (its)"), and |b - A x| / |b| on A; 'none' is the
 * matrix as given. Each ILU runs in a child process: on a column it finds
 * singular SuperLU's ILU pivoting calls exit(1) ("singular: SuperLU
 * exits" in the table). This is the table of docs/solver_benefit.md with
 * SuperLU's ILU in place of scipy's (Duff and Koster, SIAM J. Matrix Anal.
 * Appl. 22(4), 2001, sec. 6).
 *
 * Usage: superlu_prepass [--ilu] [--check] FILE...
 *   --check  exit 1 unless the matchblas way succeeds (info 0 and refined
 *            backward error < 1e-10; with --ilu: GMRES converges) on every
 *            matrix where the MC64 way succeeds (built without MC64: where
 *            the 'none' way succeeds).
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
#include <sys/wait.h>
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

/* What SuperLU's expert drivers (dgssvx, dgsisx) take besides the
 * options: B as a SuperMatrix over a copy of its values (a driver that
 * equilibrates scales them in place), and the permutations, elimination
 * tree and scalings they fill. */
typedef struct {
  SuperMatrix A;
  double* values;
  int *perm_c, *perm_r, *etree;
  double *R, *C;
} driver_inputs;

static void driver_inputs_init(const csc* bm, driver_inputs* d) {
  const size_t n = (size_t)bm->n;
  d->values = malloc(sizeof(double) * (size_t)(bm->nnz > 0 ? bm->nnz : 1));
  memcpy(d->values, bm->val, sizeof(double) * (size_t)bm->nnz);
  d->perm_c = malloc(sizeof(int) * n);
  d->perm_r = malloc(sizeof(int) * n);
  d->etree = malloc(sizeof(int) * n);
  d->R = malloc(sizeof(double) * n);
  d->C = malloc(sizeof(double) * n);
  dCreate_CompCol_Matrix(&d->A, bm->n, bm->n, bm->nnz, d->values, bm->row, bm->colptr, SLU_NC, SLU_D, SLU_GE);
}

static void driver_inputs_free(driver_inputs* d) {
  Destroy_SuperMatrix_Store(&d->A);
  free(d->values);
  free(d->perm_c);
  free(d->perm_r);
  free(d->etree);
  free(d->R);
  free(d->C);
}

/* B's right-hand side P Dr b (rhs), and A's solution Dc y from B's (x);
 * permute_scale's arguments (NULL: no permutation, no scaling). */
static void to_system(int n, const double* b, const int* perm, const double* rlog, double* rhs) {
  for (int i = 0; i < n; ++i) rhs[perm ? perm[i] : i] = rlog ? b[i] * exp(rlog[i]) : b[i];
}
static void from_system(int n, const double* y, const double* clog, double* x) {
  for (int j = 0; j < n; ++j) x[j] = clog ? y[j] * exp(clog[j]) : y[j];
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
  driver_inputs d;
  driver_inputs_init(bm, &d);
  SuperMatrix L, U, B, X;

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
    to_system(n, b, perm, rlog, rhs);
    dCreate_Dense_Matrix(&B, n, 1, rhs, n, SLU_DN, SLU_D, SLU_GE);
    dCreate_Dense_Matrix(&X, n, 1, y, n, SLU_DN, SLU_D, SLU_GE);
    options.Fact = refine ? FACTORED : DOFACT;
    options.IterRefine = refine ? SLU_DOUBLE : NOREFINE;
    int info = 0;
    dgssvx(&options, &d.A, d.perm_c, d.perm_r, d.etree, equed, d.R, d.C, &L, &U, NULL, 0, &B, &X, &rpg, &rcond, &ferr,
           &berr, &glu, &mem, &stat, &info);
    Destroy_SuperMatrix_Store(&B);
    Destroy_SuperMatrix_Store(&X);
    if (!refine) o.info = info;
    if (info == 0) {
      from_system(n, y, clog, x);
      *(refine ? &o.berr_refined : &o.berr) = backward_error(a, x, b);
    }
    if (info != 0) break;
  }
  if (o.info >= 0 && o.info <= n) { /* L and U exist (also when U is singular) */
    Destroy_SuperNode_Matrix(&L);
    Destroy_CompCol_Matrix(&U);
  }
  StatFree(&stat);
  driver_inputs_free(&d);
  free(rhs);
  free(y);
  free(x);
  return o;
}

/* ---- the iterative way (--ilu) ----------------------------------------- */

#define GMRES_RESTART 50
#define GMRES_MAX_ITS 1000
#define GMRES_TOL 1e-8

typedef struct {
  int info;        /* dgsisx's (0: factorised) */
  double fill;     /* (nnz(L) + nnz(U) - n) / nnz(A) */
  int its;         /* GMRES iterations */
  int converged;   /* to GMRES_TOL */
  double residual; /* |b - A x| / |b| on the original system */
} ilu_outcome;

static double norm2(const double* x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
  return sqrt(s);
}

/* y = B x for the CSC matrix B. */
static void multiply(const csc* b, const double* x, double* y) {
  for (int i = 0; i < b->n; ++i) y[i] = 0;
  for (int j = 0; j < b->n; ++j)
    for (int k = b->colptr[j]; k < b->colptr[j + 1]; ++k) y[b->row[k]] += b->val[k] * x[j];
}

/* The ILU factors and what applying them needs. */
typedef struct {
  SuperMatrix L, U;
  int *perm_c, *perm_r;
  SuperLUStat_t* stat;
} ilu_factors;

/* x = M^-1 x through the factors (Pr B Pc = L U). */
static void precondition(ilu_factors* f, double* x, int n) {
  SuperMatrix X;
  int info = 0;
  dCreate_Dense_Matrix(&X, n, 1, x, n, SLU_DN, SLU_D, SLU_GE);
  dgstrs(NOTRANS, &f->L, &f->U, f->perm_c, f->perm_r, &X, f->stat, &info);
  Destroy_SuperMatrix_Store(&X);
}

/* Restarted GMRES(GMRES_RESTART) for B y = rhs with M^-1 on the right,
 * from y = 0, until |rhs - B y| <= GMRES_TOL |rhs| (the Arnoldi estimate)
 * or GMRES_MAX_ITS iterations; Givens rotations, classical Gram-Schmidt
 * twice. Returns the iterations; *converged says whether it got there. */
static int gmres(const csc* b, ilu_factors* f, const double* rhs, double* y, int* converged) {
  const int n = b->n, m = GMRES_RESTART;
  double* v = malloc(sizeof(double) * (size_t)n * (size_t)(m + 1)); /* the Krylov basis, by columns */
  double* z = malloc(sizeof(double) * (size_t)n * (size_t)m);       /* M^-1 v_j */
  double* h = calloc((size_t)(m + 1) * (size_t)m, sizeof(double));  /* h[i + j (m + 1)] */
  double *cs = malloc(sizeof(double) * (size_t)m), *sn = malloc(sizeof(double) * (size_t)m);
  double* g = malloc(sizeof(double) * (size_t)(m + 1));
  double* w = malloc(sizeof(double) * (size_t)n);
  for (int i = 0; i < n; ++i) y[i] = 0;
  const double target = GMRES_TOL * norm2(rhs, n);
  int its = 0;
  *converged = norm2(rhs, n) == 0;
  while (!*converged && its < GMRES_MAX_ITS) {
    multiply(b, y, w); /* r = rhs - B y */
    for (int i = 0; i < n; ++i) v[i] = rhs[i] - w[i];
    double beta = norm2(v, n);
    if (!(beta > target)) {
      *converged = beta <= target;
      break;
    }
    for (int i = 0; i < n; ++i) v[i] /= beta;
    for (int i = 1; i <= m; ++i) g[i] = 0;
    g[0] = beta;
    int j = 0;
    for (; j < m && its < GMRES_MAX_ITS; ++j) {
      ++its;
      double* zj = z + (size_t)j * (size_t)n;
      memcpy(zj, v + (size_t)j * (size_t)n, sizeof(double) * (size_t)n);
      precondition(f, zj, n);
      double* vn = v + (size_t)(j + 1) * (size_t)n;
      multiply(b, zj, vn);
      for (int pass = 0; pass < 2; ++pass)
        for (int i = 0; i <= j; ++i) {
          const double* vi = v + (size_t)i * (size_t)n;
          double d = 0;
          for (int k = 0; k < n; ++k) d += vi[k] * vn[k];
          for (int k = 0; k < n; ++k) vn[k] -= d * vi[k];
          h[i + j * (m + 1)] += d;
        }
      const double hn = norm2(vn, n);
      h[j + 1 + j * (m + 1)] = hn;
      if (hn > 0)
        for (int k = 0; k < n; ++k) vn[k] /= hn;
      for (int i = 0; i < j; ++i) { /* the earlier rotations on column j */
        const double a = h[i + j * (m + 1)], c = h[i + 1 + j * (m + 1)];
        h[i + j * (m + 1)] = cs[i] * a + sn[i] * c;
        h[i + 1 + j * (m + 1)] = -sn[i] * a + cs[i] * c;
      }
      const double a = h[j + j * (m + 1)], c = h[j + 1 + j * (m + 1)], r = hypot(a, c);
      cs[j] = r > 0 ? a / r : 1;
      sn[j] = r > 0 ? c / r : 0;
      h[j + j * (m + 1)] = r;
      h[j + 1 + j * (m + 1)] = 0;
      g[j + 1] = -sn[j] * g[j];
      g[j] = cs[j] * g[j];
      if (fabs(g[j + 1]) <= target || hn == 0) {
        ++j;
        break;
      }
    }
    for (int i = j - 1; i >= 0; --i) { /* y += Z (H \ g) */
      double t = g[i];
      for (int k = i + 1; k < j; ++k) t -= h[i + k * (m + 1)] * g[k];
      g[i] = h[i + i * (m + 1)] != 0 ? t / h[i + i * (m + 1)] : 0;
    }
    for (int i = 0; i < j; ++i)
      for (int k = 0; k < n; ++k) y[k] += g[i] * z[(size_t)i * (size_t)n + (size_t)k];
    memset(h, 0, sizeof(double) * (size_t)(m + 1) * (size_t)m);
    multiply(b, y, w);
    for (int i = 0; i < n; ++i) w[i] = rhs[i] - w[i];
    *converged = norm2(w, n) <= target;
  }
  free(v);
  free(z);
  free(h);
  free(cs);
  free(sn);
  free(g);
  free(w);
  return its;
}

/* Solves A x = b through B = P Dr A Dc (permute_scale's arguments) by
 * GMRES with B's incomplete LU. */
static ilu_outcome solve_ilu(const csc* a, const double* b, const csc* bm, const int* perm, const double* rlog,
                             const double* clog) {
  const int n = a->n;
  ilu_outcome o = {0, NAN, 0, 0, NAN};
  driver_inputs d;
  driver_inputs_init(bm, &d);
  SuperMatrix B, X;
  dCreate_Dense_Matrix(&B, n, 0, NULL, n, SLU_DN, SLU_D, SLU_GE); /* no right-hand side: factorise only */
  dCreate_Dense_Matrix(&X, n, 0, NULL, n, SLU_DN, SLU_D, SLU_GE);
  superlu_options_t options;
  ilu_set_default_options(&options);
  options.Equil = NO;
  options.RowPerm = NOROWPERM;
  options.ColPerm = COLAMD;
  options.DiagPivotThresh = 0.0;
  options.ILU_DropTol = 1e-4;
  options.ILU_FillFactor = 10;
  options.PrintStat = NO;
  char equed[1] = {'N'};
  double rpg, rcond;
  GlobalLU_t glu;
  mem_usage_t mem;
  SuperLUStat_t stat;
  StatInit(&stat);
  ilu_factors f = {.perm_c = d.perm_c, .perm_r = d.perm_r, .stat = &stat};
  const int saved = quiet(); /* dgsisx reports its dropping on standard output */
  dgsisx(&options, &d.A, d.perm_c, d.perm_r, d.etree, equed, d.R, d.C, &f.L, &f.U, NULL, 0, &B, &X, &rpg, &rcond,
         &glu, &mem, &stat, &o.info);
  restore(saved);
  Destroy_SuperMatrix_Store(&B);
  Destroy_SuperMatrix_Store(&X);
  if (o.info >= 0 && o.info <= n) { /* L and U exist */
    const long fill = (long)((SCformat*)f.L.Store)->nnz + (long)((NCformat*)f.U.Store)->nnz - n;
    o.fill = bm->nnz > 0 ? (double)fill / bm->nnz : 0;
  }
  if (o.info == 0) {
    double* rhs = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    double* y = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    double* x = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    double* r = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    to_system(n, b, perm, rlog, rhs);
    o.its = gmres(bm, &f, rhs, y, &o.converged);
    from_system(n, y, clog, x);
    multiply(a, x, r);
    for (int i = 0; i < n; ++i) r[i] = b[i] - r[i];
    o.residual = norm2(b, n) > 0 ? norm2(r, n) / norm2(b, n) : norm2(r, n);
    free(rhs);
    free(y);
    free(x);
    free(r);
  }
  if (o.info >= 0 && o.info <= n) {
    Destroy_SuperNode_Matrix(&f.L);
    Destroy_CompCol_Matrix(&f.U);
  }
  StatFree(&stat);
  driver_inputs_free(&d);
  return o;
}

/* ---- one matrix --------------------------------------------------------- */

static int ilu_mode = 0; /* --ilu */

/* One way's result, direct (dgssvx) or iterative (--ilu). */
typedef struct {
  outcome direct;
  ilu_outcome ilu;
} way;

/* The ILU in a child process: SuperLU's ILU pivoting calls exit(1) on a
 * column it finds singular (ilu_dpivotL), which is a result here. */
#define ILU_EXITED (-1)
static ilu_outcome solve_ilu_apart(const csc* a, const double* b, const csc* bm, const int* perm, const double* rlog,
                                   const double* clog) {
  ilu_outcome o = {ILU_EXITED, NAN, 0, 0, NAN};
  int fd[2];
  fflush(stdout); /* (the child must not print the parent's buffer again) */
  if (pipe(fd) != 0) return o;
  const pid_t child = fork();
  if (child == 0) {
    close(fd[0]);
    const ilu_outcome mine = solve_ilu(a, b, bm, perm, rlog, clog);
    const ssize_t wrote = write(fd[1], &mine, sizeof mine);
    _exit(wrote == (ssize_t)sizeof mine ? 0 : 1);
  }
  close(fd[1]);
  if (child > 0) {
    ilu_outcome got;
    if (read(fd[0], &got, sizeof got) == (ssize_t)sizeof got) o = got;
    waitpid(child, NULL, 0);
  }
  close(fd[0]);
  return o;
}

static way solve_way(const csc* a, const double* b, const csc* bm, const int* perm, const double* rlog,
                     const double* clog, yes_no_t equil) {
  way w = {{0, NAN, NAN}, {0, NAN, 0, 0, NAN}};
  if (ilu_mode) w.ilu = solve_ilu_apart(a, b, bm, perm, rlog, clog);
  else w.direct = solve(a, b, bm, perm, rlog, clog, equil);
  return w;
}

static int way_ok(const way* w) { return ilu_mode ? w->ilu.info == 0 && w->ilu.converged : succeeded(&w->direct); }

static void print_way(const way* w) {
  if (ilu_mode) {
    const ilu_outcome* o = &w->ilu;
    if (o->info == ILU_EXITED)
      printf(" singular: SuperLU exits | - | - | - |");
    else if (o->info != 0)
      printf(" %d | - | - | - |", o->info);
    else if (o->converged)
      printf(" 0 | %.2f | %d | %.1e |", o->fill, o->its, o->residual);
    else
      printf(" 0 | %.2f | fails (%d) | %.1e |", o->fill, o->its, o->residual);
    return;
  }
  const outcome* o = &w->direct;
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
    const way mb = solve_way(&a, b, &pa, perm, r, c, NO);
    free_csc(&pa);
    print_way(&mb);
    printf(" %.4f |", mb_seconds);

    int mc64_ran = 0;
    way mc = {{0, NAN, NAN}, {0, NAN, 0, 0, NAN}};
#if MATCHBLAS_HAVE_MC64
    /* SuperLU's MC64 (dldperm: perm, and u, v the log scalings, as dgsisx
     * uses them); it renumbers the index arrays in place and restores them. */
    const int saved_out = quiet();
    t0 = now();
    const int mc64_info = dldperm(5, a.n, a.nnz, a.colptr, a.row, a.val, perm, r, c);
    const double mc_seconds = now() - t0;
    restore(saved_out);
    if (mc64_info != 0) {
      printf(" MC64 info %d | - | - |%s %.4f |", mc64_info, ilu_mode ? " - |" : "", mc_seconds);
    } else {
      if (permute_scale(&a, perm, r, c, &pa) != 0) {
        fprintf(stderr, "superlu_prepass: %s: MC64's permutation leaves diagonal entries empty\n", path);
        result = 2;
      }
      mc = solve_way(&a, b, &pa, perm, r, c, NO);
      free_csc(&pa);
      mc64_ran = 1;
      print_way(&mc);
      printf(" %.4f |", mc_seconds);
    }
#else
    printf(" n/a | n/a | n/a |%s n/a |", ilu_mode ? " n/a |" : "");
#endif
    permute_scale(&a, NULL, NULL, NULL, &pa);
    const way none = solve_way(&a, b, &pa, NULL, NULL, NULL, YES);
    free_csc(&pa);
    print_way(&none);
    printf("\n");

    t->ok_matchblas += way_ok(&mb);
    t->ok_mc64 += mc64_ran && way_ok(&mc);
    t->ok_none += way_ok(&none);
    const int reference_ok = MATCHBLAS_HAVE_MC64 ? mc64_ran && way_ok(&mc) : way_ok(&none);
    if (reference_ok && !way_ok(&mb)) {
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
  for (; first < argc && strncmp(argv[first], "--", 2) == 0; ++first) {
    if (strcmp(argv[first], "--check") == 0) check = 1;
    else if (strcmp(argv[first], "--ilu") == 0) ilu_mode = 1;
    else break;
  }
  if (first >= argc || strncmp(argv[first], "--", 2) == 0) {
    fprintf(stderr, "usage: superlu_prepass [--ilu] [--check] FILE.mtx[.gz]...\n");
    return 2;
  }
  if (ilu_mode) {
    printf("| matrix | n | nnz | matchblas ILU info | fill | GMRES its | residual | pre-pass s | MC64 ILU info | fill "
           "| GMRES its | residual | MC64 s | none ILU info | fill | GMRES its | residual |\n");
    printf("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
  } else {
    printf("| matrix | n | nnz | matchblas info | berr | berr+IR | pre-pass s | MC64 info | berr | berr+IR | MC64 s "
           "| none info | berr | berr+IR |\n");
    printf("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
  }
  tally t = {0, 0, 0, 0, 0};
  for (int k = first; k < argc; ++k)
    if (run_file(argv[k], &t) != 0) result = 2;
  if (ilu_mode)
    printf("\nsolved (GMRES(%d) with the ILU to %.0e in %d iterations) of %d structurally nonsingular: matchblas %d, "
           "MC64 %s%d, none %d\n",
           GMRES_RESTART, GMRES_TOL, GMRES_MAX_ITS, t.matrices, t.ok_matchblas, MATCHBLAS_HAVE_MC64 ? "" : "n/a ",
           t.ok_mc64, t.ok_none);
  else
    printf("\nsolved (info 0, refined backward error < %.0e) of %d structurally nonsingular: matchblas %d, MC64 "
           "%s%d, none %d\n",
           BERR_OK, t.matrices, t.ok_matchblas, MATCHBLAS_HAVE_MC64 ? "" : "n/a ", t.ok_mc64, t.ok_none);
  if (result == 0 && check && t.check_failures > 0) result = 1;
  return result;
}
