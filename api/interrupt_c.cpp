// The C interface of interruption (include/matchblas/interrupt.h) over
// lib/interrupt.hpp.
#include "matchblas/interrupt.h"

#include "lib/interrupt.hpp"

extern "C" void matchblas_set_interrupt_flag(const int* flag) { matchblas::set_interrupt_flag(flag); }
