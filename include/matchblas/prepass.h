/* matchblas's diagonal pre-pass, C interface (usable from C++ and, through
 * ISO_C_BINDING, from Fortran).
 *
 * Finds a matching of the rows and columns of an m-by-n sparse matrix A as
 * HSL MC64 does (jobs numbered as MC64's) and, for job 5, log scalings r, c
 * with |a_ij| exp(r_i + c_j) = 1 on the matching and <= 1 everywhere:
 *   0  none: the identity permutation, nothing matched
 *   1  maximum cardinality (a zero-free diagonal wherever one exists)
 *   2  bottleneck: maximise the smallest matched |a_ij|
 *   3  the same objective as job 2 (the same algorithm here)
 *   4  maximise the sum of the matched |a_ij|
 *   5  maximise the product of the matched |a_ij|, with the scalings
 *   MATCHBLAS_JOB_AUTO: 5 when A has values, 1 for a pattern.
 * Every job first maximises the number of matched pairs; jobs 2-5 then
 * optimise their objective among the maximum matchings. Explicit zeros are
 * entries (job 5 matches one only where the cardinality needs it).
 *
 * The permutation (square A only): perm[i] = the column matched to row i;
 * a structurally singular A's unmatched rows take the unmatched columns in
 * increasing order. Both readings put the matched entries on the diagonal:
 *   - MC64's CPERM (0-based): column perm[j] of A is column j of A Q;
 *   - SuperLU's perm_r: row i of A is row perm[i] of P A.
 * row_mate[i] is the column matched to row i, col_mate[j] the row matched
 * to column j, -1 when unmatched.
 *
 * Input is never modified. Library errors never abort: every function
 * returns a status (also left in inform->status with a message):
 *   0 MATCHBLAS_OK, +1 structurally singular (a maximum partial matching
 *   was returned), +2 job 5's scalings exceed log(DBL_MAX)/2 somewhere,
 *   negative values below for invalid input.
 */
#ifndef MATCHBLAS_PREPASS_H
#define MATCHBLAS_PREPASS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  MATCHBLAS_JOB_AUTO = -1,
  MATCHBLAS_JOB_NONE = 0,
  MATCHBLAS_JOB_CARDINALITY = 1,
  MATCHBLAS_JOB_BOTTLENECK = 2,
  MATCHBLAS_JOB_BOTTLENECK_THRESHOLD = 3,
  MATCHBLAS_JOB_MAX_SUM = 4,
  MATCHBLAS_JOB_MAX_PRODUCT = 5
};

enum {
  MATCHBLAS_OK = 0,
  MATCHBLAS_STRUCTURALLY_SINGULAR = 1,
  MATCHBLAS_SCALING_NEAR_OVERFLOW = 2,
  MATCHBLAS_ERR_NULL_ARGUMENT = -1,    /* a required pointer is NULL */
  MATCHBLAS_ERR_BAD_JOB = -2,          /* job not in -1..5, or symmetric with job != 5 */
  MATCHBLAS_ERR_BAD_DIMENSION = -3,    /* rows or cols negative, or too large for 32-bit ids */
  MATCHBLAS_ERR_BAD_FORMAT = -4,       /* layout, base, index or value type unknown */
  MATCHBLAS_ERR_BAD_POINTERS = -5,     /* offsets do not start at base or decrease */
  MATCHBLAS_ERR_INDEX_OUT_OF_RANGE = -6,
  MATCHBLAS_ERR_DUPLICATE_ENTRY = -7,  /* the same (row, column) twice */
  MATCHBLAS_ERR_BAD_VALUE = -8,        /* NaN or infinity */
  MATCHBLAS_ERR_NOT_SYMMETRIC = -9,    /* symmetric mode on a non-square matrix */
  MATCHBLAS_ERR_OUT_OF_MEMORY = -10,
  MATCHBLAS_ERR_INTERNAL = -11         /* a bug: please report it with the message */
};

typedef enum { MATCHBLAS_CSR = 0, MATCHBLAS_CSC = 1 } matchblas_layout;
typedef enum { MATCHBLAS_INT32 = 0, MATCHBLAS_INT64 = 1 } matchblas_index_type;
typedef enum {
  MATCHBLAS_DOUBLE = 0,
  MATCHBLAS_FLOAT = 1,
  MATCHBLAS_COMPLEX_DOUBLE = 2, /* (re, im) pairs; the modulus counts */
  MATCHBLAS_COMPLEX_FLOAT = 3,
  MATCHBLAS_PATTERN = 4         /* no values: every entry is 1 */
} matchblas_value_type;

/* An m-by-n sparse matrix in caller-owned arrays. CSR: pointers has rows+1
 * offsets, indices the column of each entry; CSC: pointers has cols+1
 * offsets, indices the row of each entry. Offsets and indices are `base`-
 * based (0 or 1) and of index_type; entries within a row (column) in any
 * order; no entry twice. */
typedef struct {
  int64_t rows;
  int64_t cols;
  matchblas_layout layout;
  int base;
  matchblas_index_type index_type;
  matchblas_value_type value_type;
  const void* pointers;
  const void* indices;
  const void* values; /* NULL for MATCHBLAS_PATTERN */
} matchblas_sparse;

typedef struct {
  int job;       /* MATCHBLAS_JOB_*; default MATCHBLAS_JOB_AUTO */
  int symmetric; /* job 5 on a square matrix given by ONE triangle (each
                    off-diagonal entry stands for (i,j) and (j,i)): one
                    scaling vector, left in row_log_scale and col_log_scale
                    (MC64's symmetric variant); default 0 */
} matchblas_prepass_options;

typedef struct {
  int status;              /* as returned */
  int job;                 /* the job run (MATCHBLAS_JOB_AUTO resolved) */
  int64_t matched;         /* matched pairs (the structural rank for jobs 1-5) */
  double objective;        /* job 1: matched; 2-3: smallest matched |a_ij|;
                              4: sum of matched |a_ij|; 5: sum of their
                              natural logs (-inf when a zero was matched) */
  double min_matched_abs;  /* smallest matched |a_ij| (0 when none) */
  double seconds;          /* time of the whole call */
  char message[256];       /* what went wrong (or "ok") */
} matchblas_inform;

void matchblas_prepass_default_options(matchblas_prepass_options* options);

/* Runs the pre-pass. Outputs are caller-allocated and optional (NULL to
 * skip): perm (rows entries; square A only, NULL otherwise), row_mate (rows),
 * col_mate (cols), row_log_scale (rows) and col_log_scale (cols), the
 * scalings for job 5 only. options may be NULL (defaults); inform may be
 * NULL. */
int matchblas_prepass(const matchblas_sparse* a, const matchblas_prepass_options* options, int64_t* perm,
                      int64_t* row_mate, int64_t* col_mate, double* row_log_scale, double* col_log_scale,
                      matchblas_inform* inform);

/* scaled_values[k] = value[k] exp(r_i + c_j) for entry k of a (its (i, j));
 * scaled_values holds the entries' values in a's own storage order and type
 * (for complex: (re, im) pairs; not allowed for a pattern). col_log_scale may
 * equal row_log_scale (symmetric mode). */
int matchblas_apply_scaling(const matchblas_sparse* a, const double* row_log_scale, const double* col_log_scale,
                            void* scaled_values, matchblas_inform* inform);

/* A short name for a status ("ok", "structurally singular", ...). */
const char* matchblas_status_string(int status);

#ifdef __cplusplus
}
#endif

#endif /* MATCHBLAS_PREPASS_H */
