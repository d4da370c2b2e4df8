// How the bindings make a long C call: without the GIL, on a worker thread,
// while the calling thread waits and looks for signals (Ctrl-C) every
// poll_interval. A signal sets the call's interrupt flag (interrupt.h): the
// library stops at its next check (the algorithms' phase boundaries, and
// before and after it builds its graph), the worker returns, and the
// signal's exception (KeyboardInterrupt, or what a Python signal handler
// raised: a SIGALRM time limit, say) is raised here. A call that does not
// reach a check (a one-pass algorithm, a GPU kernel) finishes first; its
// result is then discarded. Signals are seen on the main thread only
// (Python's rule): a call from another thread waits without them.
#pragma once

#include <nanobind/nanobind.h>

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "matchblas/matchblas.h"

namespace matchblas::python {

namespace nb = nanobind;

inline constexpr auto poll_interval = std::chrono::milliseconds(20);

// Runs work() (returning a C status) as above and returns its status;
// raises the signal's Python exception when a signal came.
template <class Work>
int run_interruptible(Work&& work) {
  int flag = 0;
  int status = MATCHBLAS_ERR_INTERNAL;
  std::exception_ptr failure;
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  bool signalled = false;
  {
    nb::gil_scoped_release release;
    std::thread worker([&] {
      matchblas_set_interrupt_flag(&flag);
      try {
        status = work();
      } catch (...) {  // the C calls throw nothing; a bad_alloc here, say
        failure = std::current_exception();
      }
      matchblas_set_interrupt_flag(nullptr);
      std::lock_guard<std::mutex> lock(mutex);
      done = true;
      finished.notify_one();
    });
    std::unique_lock<std::mutex> lock(mutex);
    while (!finished.wait_for(lock, poll_interval, [&] { return done; })) {
      if (signalled) continue;
      lock.unlock();
      {
        nb::gil_scoped_acquire acquire;
        signalled = PyErr_CheckSignals() != 0;  // leaves the signal's exception set
      }
      if (signalled) __atomic_store_n(&flag, 1, __ATOMIC_RELAXED);
      lock.lock();
    }
    lock.unlock();
    worker.join();
  }
  if (signalled) throw nb::python_error();
  if (failure) std::rethrow_exception(failure);
  return status;
}

// The run settings of a call from Python's keywords; the option strings are
// kept here, since the C settings point into them.
struct Settings {
  std::vector<std::string> names, values;
  std::vector<matchblas_option> options;
  matchblas_run_settings c{};

  Settings(const std::vector<std::pair<std::string, std::string>>& given, std::uint64_t seed, int threads, int device,
           int gpu) {
    matchblas_default_run_settings(&c);
    for (const auto& [name, value] : given) {
      names.push_back(name);
      values.push_back(value);
    }
    for (std::size_t k = 0; k < names.size(); ++k) options.push_back({names[k].c_str(), values[k].c_str()});
    c.options = options.data();
    c.n_options = std::int64_t(options.size());
    c.seed = seed;
    c.threads = threads;
    c.device = device;
    c.gpu = gpu;
  }
  Settings(const Settings&) = delete;
  Settings& operator=(const Settings&) = delete;
};

using OptionList = std::vector<std::pair<std::string, std::string>>;

}  // namespace matchblas::python
