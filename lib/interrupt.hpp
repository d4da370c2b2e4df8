// Cooperative interruption of a long call: a caller (the Python package on
// Ctrl-C, a solver's time limit) sets an int flag from another thread or a
// signal handler; the library polls it at phase boundaries on the thread
// that made the call, and `interrupted` unwinds the call (the C API turns it
// into MATCHBLAS_ERR_INTERRUPTED).
//
//   ScopedInterruptFlag scope(&flag);  // this thread's calls poll `flag`
//   check_interrupt();                 // throws interrupted when *flag != 0
//
// The flag is per thread (each concurrent call its own) and read with a
// relaxed atomic load: polling costs a thread-local read and a load, so it
// belongs at phase or round boundaries, never in an inner loop. Only the
// calling thread polls (never inside an OpenMP parallel region, whose
// threads have no flag: an exception must not leave such a region).
// Where the algorithms poll: docs/ARCHITECTURE.md, "Interruption".
#pragma once

#include "lib/error.hpp"

namespace matchblas {

class interrupted : public error {
 public:
  interrupted() : error("interrupted") {}
};

// The flag this thread's calls poll (nullptr: none).
const int* interrupt_flag() noexcept;
void set_interrupt_flag(const int* flag) noexcept;

// Throws interrupted when this thread has a flag and it is set.
void check_interrupt();

// Sets this thread's flag for a scope, restoring the previous one after.
class ScopedInterruptFlag {
 public:
  explicit ScopedInterruptFlag(const int* flag) noexcept : previous_(interrupt_flag()) { set_interrupt_flag(flag); }
  ~ScopedInterruptFlag() { set_interrupt_flag(previous_); }
  ScopedInterruptFlag(const ScopedInterruptFlag&) = delete;
  ScopedInterruptFlag& operator=(const ScopedInterruptFlag&) = delete;

 private:
  const int* previous_;
};

}  // namespace matchblas
