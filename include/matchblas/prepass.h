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

#include "matchblas/common.h"

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

/* Where the device entry finds its arrays and leaves its results. */
typedef struct {
  int device;          /* the CUDA device holding the arrays; default 0 */
  void* stream;        /* a cudaStream_t (NULL: the default stream): the
                          call's copies of the caller's arrays wait for the
                          work queued on it before them; the call returns
                          when its own work is done; default NULL */
  int results_on_host; /* 0 (default): perm, row_mate, col_mate and the
                          scalings are device arrays on `device`; 1: host
                          arrays */
} matchblas_device_options;

void matchblas_device_default_options(matchblas_device_options* device);

/* matchblas_prepass on a matrix whose pointers, indices and values are
 * device arrays on device->device (device or managed memory; the
 * description itself is a host struct), the results written as
 * device->results_on_host says. The same jobs, checks, statuses and inform.
 * Jobs 1, 4 and 5 run their GPU algorithms (cardinality-gpu, max-sum-gpu,
 * max-product-gpu: exact, as the host's); jobs 0, 2 and 3 run the host's.
 * Job 1, and jobs 4 and 5 of a square matrix (job 5's symmetric mode
 * included), run wholly on the device: checks, costs, matching, scalings;
 * only scalars cross to the host, and inform->message says "on the device
 * arrays". Where that cannot finish (a fault in the arrays, device memory
 * running out; for jobs 4-5 a structurally singular matrix, a repair that
 * stopped short, an explicit zero in job 5's optimum), and for the other
 * jobs, the arrays are copied to the host once for the checks and for the
 * host-side parts of the algorithms, and the message says why. Outputs that are not
 * device memory (results_on_host 0) are refused before any work. The
 * objective equals the host call's to rounding. device may be NULL
 * (defaults). Without a CUDA build or a GPU: MATCHBLAS_ERR_UNAVAILABLE; an
 * array that is not device memory on that device: MATCHBLAS_ERR_BAD_INPUT
 * naming it. */
int matchblas_prepass_device(const matchblas_sparse* a, const matchblas_prepass_options* options,
                             const matchblas_device_options* device, int64_t* perm, int64_t* row_mate,
                             int64_t* col_mate, double* row_log_scale, double* col_log_scale,
                             matchblas_inform* inform);

/* scaled_values[k] = value[k] exp(r_i + c_j) for entry k of a (its (i, j));
 * scaled_values holds the entries' values in a's own storage order and type
 * (for complex: (re, im) pairs; not allowed for a pattern). col_log_scale may
 * equal row_log_scale (symmetric mode). A scaling that is not finite, or a
 * scaled entry beyond a's value type, is MATCHBLAS_ERR_BAD_VALUE naming it,
 * found before any value is written. */
int matchblas_apply_scaling(const matchblas_sparse* a, const double* row_log_scale, const double* col_log_scale,
                            void* scaled_values, matchblas_inform* inform);

#ifdef __cplusplus
}
#endif

#endif /* MATCHBLAS_PREPASS_H */
