/* matchblas's ops, C interface: the algebra its matchers are written in,
 * for prototyping a matcher outside the library (the Python package's
 * matchblas.ops is built on it). The contracts are the library's own
 * (ops/argmax.hpp, ops/assign.hpp, ops/select.hpp); in short:
 *
 *   argmax   best[u] = the column v of the entry (u, v, w) of A that comes
 *            first in the greedy order (heavier first, then the smaller v)
 *            among the entries that qualify, -1 when none does, and
 *            best_weight[u] its weight (0 when none). An entry qualifies when
 *            row u is active (active_rows NULL or active_rows[u] != 0), column
 *            v eligible (eligible_cols NULL or eligible_cols[v] != 0), and u
 *            beats v's floor (floor_weight NULL, or w > floor_weight[v], or
 *            w == floor_weight[v] and u < floor_vertex[v]: v would rather take
 *            u than its current suitor).
 *   assign   out[i] = value (or values[i]) for every i with mask NULL or
 *            mask[i] != 0; the other entries keep theirs.
 *   select   C = the entries (u, v, w) of A with keep_rows[u] != 0 and
 *            keep_cols[v] != 0 (NULL: every row / column), in A's order
 *            (count, prefix sum, fill); select_free keeps those with
 *            mate[u] == -1 and mate[v] == -1 (a square A).
 *
 * Vertex ids are int32 (the library's); weights are float or double, used
 * as given (signs kept, no graph rules: A is any m x n matrix).
 *
 * On the CPU a matrix is copied once into a matchblas_ops_matrix (rows with
 * 64-bit offsets and 32-bit columns: the library's own CSR) and every op on
 * it reads that copy: convert a graph once and run many rounds on it.
 * On the GPU the ops run on device arrays the caller owns (CuPy's, ...),
 * read in place: offsets int32 (widened on the device, O(rows)) or int64,
 * columns int32, values float or double, all on device `device`; work is
 * enqueued on `stream` (a cudaStream_t; NULL: the legacy default stream) and
 * the call returns when it is done. Device arrays are not validated (the
 * caller's CSR must be consistent, its columns in range); host arguments
 * are. Without a CUDA build or a GPU they return MATCHBLAS_ERR_UNAVAILABLE.
 *
 * Every function returns a status (also in status->status with a message
 * when status is not NULL): MATCHBLAS_OK or a negative MATCHBLAS_ERR_*.
 * Nothing aborts. A failed call leaves its outputs unspecified (no result
 * to free). */
#ifndef MATCHBLAS_OPS_H
#define MATCHBLAS_OPS_H

#include <stdint.h>

#include "matchblas/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int status;
  char message[256];
} matchblas_ops_status;

/* Which implementation runs a CPU op: AUTO and PLAIN the OpenMP one, GRAPHBLAS
 * SuiteSparse:GraphBLAS (argmax only; MATCHBLAS_ERR_UNAVAILABLE in a build
 * without it, MATCHBLAS_ERR_BAD_OPTION for another op). */
typedef enum { MATCHBLAS_OPS_AUTO = 0, MATCHBLAS_OPS_PLAIN = 1, MATCHBLAS_OPS_GRAPHBLAS = 2 } matchblas_ops_backend;

/* The entry types assign takes. */
typedef enum {
  MATCHBLAS_OPS_UINT8 = 0,
  MATCHBLAS_OPS_INT32 = 1,
  MATCHBLAS_OPS_INT64 = 2,
  MATCHBLAS_OPS_FLOAT = 3,
  MATCHBLAS_OPS_DOUBLE = 4
} matchblas_ops_type;

/* ---- CPU ------------------------------------------------------------------ */

typedef struct matchblas_ops_matrix matchblas_ops_matrix;

/* A copy of a (CSR or CSC, 0/1-based, int32/int64, MATCHBLAS_FLOAT or
 * MATCHBLAS_DOUBLE values; checked as the matching calls check it): rows in
 * a's order of entries (CSR) or by ascending column (CSC). Free it with
 * matchblas_ops_matrix_free. */
int matchblas_ops_matrix_create(const matchblas_sparse* a, matchblas_ops_matrix** out, matchblas_ops_status* status);
void matchblas_ops_matrix_free(matchblas_ops_matrix* m);

/* The matrix's shape, value type and arrays (0-based; valid while it lives):
 * offsets rows + 1 entries, columns and values `entries`. */
typedef struct {
  int64_t rows;
  int64_t cols;
  int64_t entries;
  matchblas_value_type value_type;
  const int64_t* offsets;
  const int32_t* columns;
  const void* values;
} matchblas_ops_matrix_arrays;
int matchblas_ops_matrix_view(const matchblas_ops_matrix* m, matchblas_ops_matrix_arrays* view);

/* best and best_weight: rows entries (best_weight of the matrix's value
 * type); active_rows rows, eligible_cols, floor_weight (the matrix's type)
 * and floor_vertex cols entries, each NULL for none (floor_weight and
 * floor_vertex together). */
int matchblas_ops_argmax(const matchblas_ops_matrix* a, const uint8_t* active_rows, const uint8_t* eligible_cols,
                         const void* floor_weight, const int32_t* floor_vertex, int32_t* best, void* best_weight,
                         matchblas_ops_backend backend, matchblas_ops_status* status);

/* out and values: n entries of `type`; value: one entry of `type` (used
 * when values is NULL); mask: n entries or NULL. */
int matchblas_ops_assign(void* out, matchblas_ops_type type, int64_t n, const uint8_t* mask, const void* values,
                         const void* value, matchblas_ops_status* status);

/* A new matrix (free it) of the entries kept; keep_rows rows entries,
 * keep_cols cols entries, each NULL for all; mate rows entries. */
int matchblas_ops_select(const matchblas_ops_matrix* a, const uint8_t* keep_rows, const uint8_t* keep_cols,
                         matchblas_ops_matrix** out, matchblas_ops_status* status);
int matchblas_ops_select_free(const matchblas_ops_matrix* a, const int32_t* mate, matchblas_ops_matrix** out,
                              matchblas_ops_status* status);

/* ---- GPU: device arrays ---------------------------------------------------- */

typedef struct {
  int64_t rows;
  int64_t cols;
  int64_t entries;
  matchblas_index_type offset_type; /* of offsets: MATCHBLAS_INT32 or MATCHBLAS_INT64 */
  matchblas_value_type value_type;  /* MATCHBLAS_FLOAT or MATCHBLAS_DOUBLE */
  const void* offsets;              /* rows + 1, 0-based */
  const int32_t* columns;           /* entries */
  const void* values;               /* entries */
  int device;                       /* the CUDA device holding them */
} matchblas_device_csr;

/* As matchblas_ops_argmax; every pointer a device pointer (of a's device). */
int matchblas_ops_argmax_device(const matchblas_device_csr* a, const uint8_t* active_rows,
                                const uint8_t* eligible_cols, const void* floor_weight, const int32_t* floor_vertex,
                                int32_t* best, void* best_weight, void* stream, matchblas_ops_status* status);

/* As matchblas_ops_assign; out, mask and values device pointers of `device`,
 * value a host pointer. */
int matchblas_ops_assign_device(void* out, matchblas_ops_type type, int64_t n, const uint8_t* mask,
                                const void* values, const void* value, int device, void* stream,
                                matchblas_ops_status* status);

/* As matchblas_ops_select_free; out receives a CSR in device memory the
 * library allocated (int64 offsets, int32 columns, a's value type): free it
 * with matchblas_device_csr_free. */
int matchblas_ops_select_free_device(const matchblas_device_csr* a, const int32_t* mate, matchblas_device_csr* out,
                                     void* stream, matchblas_ops_status* status);
void matchblas_device_csr_free(matchblas_device_csr* m);

#ifdef __cplusplus
}
#endif

#endif /* MATCHBLAS_OPS_H */
