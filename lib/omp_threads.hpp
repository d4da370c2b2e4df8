// Runs a scope with a given number of OpenMP threads and restores the
// caller's setting on exit, so that a matcher's `threads` argument never
// leaks into later code. threads <= 0 keeps the current setting.
// require_threads checks that the system can start that many threads.
#pragma once
#include <omp.h>

#include <atomic>
#include <new>

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

// An exception must not leave an OpenMP region (std::terminate). Inside a
// parallel loop, guard.run(body) runs one iteration's body, keeps a
// std::bad_alloc it throws, and skips the bodies of every later iteration
// of every thread; after the region, guard.rethrow() throws it. Other
// exceptions are not expected inside the regions (inputs are checked
// before them).
class AllocationGuard {
 public:
  template <class F>
  void run(F&& body) noexcept {
    if (failed_.load(std::memory_order_relaxed)) return;
    try {
      body();
    } catch (const std::bad_alloc&) {
      failed_.store(true, std::memory_order_relaxed);
    }
  }
  void rethrow() const {
    if (failed_.load()) throw std::bad_alloc();
  }

 private:
  std::atomic<bool> failed_{false};
};

// Starts threads - 1 threads with the stack size OpenMP gives its threads
// (OMP_STACKSIZE, else GOMP_STACKSIZE, read as libgomp reads them: a number
// with an optional B, K, M or G, kilobytes by default), all alive at once,
// then joins them; throws error "cannot start N threads: REASON" when the
// system refuses one (a process or thread limit, no memory for the
// stacks). The OpenMP runtime, meeting the same refusal inside a parallel
// region, prints "Thread creation failed" and exits the process; call this
// before the first parallel region with the count it will use.
// lib/omp_threads.cpp.
void require_threads(int threads);

}  // namespace matchblas
