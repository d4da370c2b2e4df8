/* matchblas's whole C interface: the shared types and statuses
 * (common.h), the diagonal pre-pass (prepass.h) and the matching calls over
 * the registry (matching.h). */
#ifndef MATCHBLAS_MATCHBLAS_H
#define MATCHBLAS_MATCHBLAS_H

#include "matchblas/common.h"
#include "matchblas/matching.h"
#include "matchblas/prepass.h"

#endif /* MATCHBLAS_MATCHBLAS_H */
