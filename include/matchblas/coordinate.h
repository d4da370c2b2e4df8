/* The matching calls of matching.h on a matrix in coordinate form (COO:
 * three arrays of row indices, column indices and values, as scipy.sparse's
 * coo_matrix, Eigen's triplets or a Matrix Market file hold it), read where
 * the caller keeps them.
 *
 * Entries in any order; a (row, column) given twice is summed, as every
 * matching call does (the graph rules of matching.h). Indices are
 * `base`-based (0 or 1) and of index_type; values MATCHBLAS_DOUBLE,
 * MATCHBLAS_FLOAT or MATCHBLAS_PATTERN (values NULL). Input is never
 * modified. Results, reports and statuses as in matching.h. */
#ifndef MATCHBLAS_COORDINATE_H
#define MATCHBLAS_COORDINATE_H

#include <stdint.h>

#include "matchblas/common.h"
#include "matchblas/matching.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int64_t rows;
  int64_t cols;
  int64_t entries;
  int base;
  matchblas_index_type index_type;  /* of both index arrays */
  matchblas_value_type value_type;
  const void* row_indices;          /* entries each */
  const void* col_indices;
  const void* values;               /* NULL for MATCHBLAS_PATTERN */
  matchblas_view view;
  int single_precision;             /* 1: the algorithm works in float; 0 (default): double */
} matchblas_coordinate_graph;

int matchblas_match_coordinate(const matchblas_coordinate_graph* graph, const char* algo,
                               const matchblas_run_settings* settings, matchblas_matching* result,
                               matchblas_match_report* report);

int matchblas_b_match_coordinate(const matchblas_coordinate_graph* graph, const char* algo, const int64_t* b,
                                 int64_t b_length, const matchblas_run_settings* settings,
                                 matchblas_b_matching* result, matchblas_match_report* report);

#ifdef __cplusplus
}
#endif

#endif /* MATCHBLAS_COORDINATE_H */
