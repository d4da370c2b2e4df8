/* matchblas's whole C interface: the shared types and statuses
 * (common.h), the diagonal pre-pass (prepass.h), the matching calls over
 * the registry (matching.h, and coordinate.h for COO arrays), community
 * detection (community.h), the ops for
 * prototyping (ops.h) and interruption (interrupt.h). */
#ifndef MATCHBLAS_MATCHBLAS_H
#define MATCHBLAS_MATCHBLAS_H

#include "matchblas/common.h"
#include "matchblas/community.h"
#include "matchblas/coordinate.h"
#include "matchblas/interrupt.h"
#include "matchblas/matching.h"
#include "matchblas/ops.h"
#include "matchblas/prepass.h"

#endif /* MATCHBLAS_MATCHBLAS_H */
