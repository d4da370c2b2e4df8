/* matchblas's C interface: what every call shares (usable from C, C++ and,
 * through ISO_C_BINDING, Fortran): the status codes, the sparse matrix in
 * caller-owned arrays, and the library's version.
 *
 * Every function returns a status and never aborts or exits: 0 is success,
 * positive values are successes with something to know (prepass.h), and
 * negative values name what was wrong with the call (its report or inform
 * record has a message naming where). */
#ifndef MATCHBLAS_COMMON_H
#define MATCHBLAS_COMMON_H

#include <stdint.h>

#include "matchblas/version.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
  MATCHBLAS_OK = 0,
  MATCHBLAS_STRUCTURALLY_SINGULAR = 1,
  MATCHBLAS_SCALING_NEAR_OVERFLOW = 2,
  MATCHBLAS_ERR_NULL_ARGUMENT = -1,    /* a required pointer is NULL */
  MATCHBLAS_ERR_BAD_JOB = -2,          /* job not in -1..5, or symmetric with job != 5 */
  MATCHBLAS_ERR_BAD_DIMENSION = -3,    /* rows or cols negative, too large for 32-bit ids, or a shape the call cannot take */
  MATCHBLAS_ERR_BAD_FORMAT = -4,       /* layout, base, index or value type unknown, or not taken by the call */
  MATCHBLAS_ERR_BAD_POINTERS = -5,     /* offsets do not start at base or decrease */
  MATCHBLAS_ERR_INDEX_OUT_OF_RANGE = -6,
  MATCHBLAS_ERR_DUPLICATE_ENTRY = -7,  /* the same (row, column) twice (the pre-pass) */
  MATCHBLAS_ERR_BAD_VALUE = -8,        /* NaN or infinity, or a negative count */
  MATCHBLAS_ERR_NOT_SYMMETRIC = -9,    /* symmetric mode on a non-square matrix */
  MATCHBLAS_ERR_OUT_OF_MEMORY = -10,
  MATCHBLAS_ERR_INTERNAL = -11,        /* a bug: please report it with the message */
  MATCHBLAS_ERR_UNKNOWN_ALGORITHM = -12, /* no registered algorithm of that name solves that problem */
  MATCHBLAS_ERR_BAD_OPTION = -13,      /* an option the algorithm does not take, or a bad value */
  MATCHBLAS_ERR_UNAVAILABLE = -14,     /* the algorithm cannot run here (this build lacks what it needs, or no GPU) */
  MATCHBLAS_ERR_BAD_FILE = -15,        /* a file that cannot be read or is not valid Matrix Market */
  MATCHBLAS_ERR_DEVICE = -16,          /* a CUDA call failed */
  MATCHBLAS_ERR_BAD_INPUT = -17,       /* input the algorithm cannot take (e.g. a graph kind it does not accept) */
  MATCHBLAS_ERR_INTERRUPTED = -18      /* the caller's interrupt flag was set (interrupt.h) */
};

typedef enum { MATCHBLAS_CSR = 0, MATCHBLAS_CSC = 1 } matchblas_layout;
typedef enum { MATCHBLAS_INT32 = 0, MATCHBLAS_INT64 = 1 } matchblas_index_type;
typedef enum {
  MATCHBLAS_DOUBLE = 0,
  MATCHBLAS_FLOAT = 1,
  MATCHBLAS_COMPLEX_DOUBLE = 2, /* (re, im) pairs; the modulus counts (the pre-pass only) */
  MATCHBLAS_COMPLEX_FLOAT = 3,
  MATCHBLAS_PATTERN = 4         /* no values: every entry is 1 (the pre-pass) or a drawn weight (matching) */
} matchblas_value_type;

/* An m-by-n sparse matrix in caller-owned arrays, never modified. CSR:
 * pointers has rows+1 offsets, indices the column of each entry; CSC:
 * pointers has cols+1 offsets, indices the row of each entry. Offsets and
 * indices are `base`-based (0 or 1) and of index_type; entries within a row
 * (column) in any order. The pre-pass refuses an entry given twice; the
 * matching calls sum duplicates (the graph rules). */
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

/* A short name for a status ("ok", "structurally singular", ...). */
const char* matchblas_status_string(int status);

/* The library's version ("0.2.0") and the git revision it was built from
 * (or "unknown"); MATCHBLAS_VERSION_* in version.h are the headers'. */
const char* matchblas_version(void);
const char* matchblas_git_revision(void);

#ifdef __cplusplus
}
#endif

#endif /* MATCHBLAS_COMMON_H */
