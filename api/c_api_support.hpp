// What every C entry point of include/matchblas shares: the checks of a
// caller's matchblas_sparse (each failure a named status and a message naming
// the entry), reading its indices and values whatever their types, and
// `guarded`, which runs a call's body and turns every exception into a status
// and a message in the call's report, so that nothing escapes into C.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

#include "lib/error.hpp"
#include "lib/interrupt.hpp"
#include "lib/omp_threads.hpp"
#include "matchblas/common.h"

namespace matchblas::capi {

// A failure with its status: thrown by the checks, caught by guarded.
struct c_api_error {
  int status;
  std::string message;
};

[[noreturn]] inline void fail(int status, std::string message) { throw c_api_error{status, std::move(message)}; }

inline std::int64_t read_index(const matchblas_sparse& a, const void* array, std::int64_t k) {
  return a.index_type == MATCHBLAS_INT32 ? std::int64_t(static_cast<const std::int32_t*>(array)[k])
                                         : static_cast<const std::int64_t*>(array)[k];
}

// The modulus of value k (1 for a pattern).
double read_modulus(const matchblas_sparse& a, std::int64_t k);

// "(i, j)" in the caller's base for the entry at outer index `outer`
// (a row for CSR, a column for CSC) and inner index `inner`.
std::string entry_name(const matchblas_sparse& a, std::int64_t outer, std::int64_t inner);

// A C enum field as the int the caller stored: C lets any int into it, and
// loading an out-of-range value as the C++ enum type is undefined.
template <class E>
int stored_int(const E& field) {
  static_assert(sizeof(E) == sizeof(int));
  int v;
  std::memcpy(&v, &field, sizeof v);
  return v;
}

// Checks a's description and arrays (dimensions within 32-bit ids, known
// layout, base and types, pointers from the base and not decreasing, indices
// in range, finite values); returns its number of entries.
std::int64_t check_sparse(const matchblas_sparse* a);

// The same checks but the per-entry ones (indices in range, finite values):
// O(rows) instead of O(entries), for a caller that checks each entry as it
// copies it and calls check_sparse to name the first bad one.
std::int64_t check_sparse_shape(const matchblas_sparse* a);

// check_sparse_shape's checks of the description alone (dimensions, layout,
// base, types, a pointers array given), reading no array: for arrays that
// are not in host memory yet.
void check_sparse_fields(const matchblas_sparse* a);

// Leaves status and message in a report (matchblas_inform,
// matchblas_match_report: anything with `status` and `char message[]`).
template <class Report>
void set_status(Report* report, int status, const std::string& message) {
  if (!report) return;
  report->status = status;
  std::snprintf(report->message, sizeof report->message, "%s", message.c_str());
}

// The status of a library exception: parse_error a bad file, shape_error a
// bad dimension, invalid_input bad input, cuda_error the device,
// out_of_memory, interrupted (lib/interrupt.hpp) interrupted; any other
// matchblas::error bad input.
int status_of(const error& e);

// A call's OpenMP threads: `threads` of them (<= 0: the caller's setting)
// for the call's parallel regions, the caller's setting restored after it;
// the first call that needs a count larger than any before starts them once
// (require_threads), so that a count the system cannot start is an
// out-of-memory status here, not the OpenMP runtime's exit of the caller's
// process inside the work.
class CallThreads {
 public:
  explicit CallThreads(int threads);

 private:
  ScopedThreads scope_;
};

// Runs body (returning a status) after polling the interrupt flag, turning
// every exception into a status and a message in *report (std::length_error,
// a size from a count no container can hold, as out of memory).
template <class Report, class F>
int guarded(Report* report, F&& body) {
  try {
    check_interrupt();  // every call polls the flag when it starts (matchblas/interrupt.h)
    return body();
  } catch (const c_api_error& e) {
    set_status(report, e.status, e.message);
    return e.status;
  } catch (const std::bad_alloc&) {
    set_status(report, MATCHBLAS_ERR_OUT_OF_MEMORY, "out of memory");
    return MATCHBLAS_ERR_OUT_OF_MEMORY;
  } catch (const std::length_error& e) {  // a size no container can hold: from a count the caller gave
    set_status(report, MATCHBLAS_ERR_OUT_OF_MEMORY, std::string("out of memory: a size beyond any allocation (") +
                                                        e.what() + ")");
    return MATCHBLAS_ERR_OUT_OF_MEMORY;
  } catch (const error& e) {
    const int status = status_of(e);
    set_status(report, status, e.what());
    return status;
  } catch (const std::exception& e) {
    set_status(report, MATCHBLAS_ERR_INTERNAL, std::string("internal error: ") + e.what());
    return MATCHBLAS_ERR_INTERNAL;
  } catch (...) {
    set_status(report, MATCHBLAS_ERR_INTERNAL, "internal error");
    return MATCHBLAS_ERR_INTERNAL;
  }
}

}  // namespace matchblas::capi
