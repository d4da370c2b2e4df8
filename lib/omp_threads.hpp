// Runs a scope with a given number of OpenMP threads and restores the
// caller's setting on exit, so that a matcher's `threads` argument never
// leaks into later code. threads <= 0 keeps the current setting.
#pragma once
#include <omp.h>

namespace matchblas {

class ScopedThreads {
 public:
  explicit ScopedThreads(int threads) : saved_(omp_get_max_threads()) {
    if (threads > 0) omp_set_num_threads(threads);
  }
  ~ScopedThreads() { omp_set_num_threads(saved_); }
  ScopedThreads(const ScopedThreads&) = delete;
  ScopedThreads& operator=(const ScopedThreads&) = delete;

 private:
  int saved_;
};

}  // namespace matchblas
