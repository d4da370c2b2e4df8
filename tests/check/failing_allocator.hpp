// A global operator new that can be told to fail (STYLE 18, after LAGraph's
// LG_brutal_malloc): after arm(n), the n-th next allocation through
// operator new throws std::bad_alloc; live() counts the allocations not yet
// freed, so a test can check that a failed call leaked nothing. Inert until
// armed. Defined in failing_allocator.cpp, which replaces the global
// operator new / delete of the test executable.
#pragma once
#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <string>

#include "lib/error.hpp"

namespace matchblas::check::allocator {

void arm(std::int64_t n);        // fail the n-th next allocation (0: the very next one)
void disarm();
bool tripped();                  // did an armed allocation fail since arm()?
std::int64_t live();             // allocations made through operator new, not yet freed

// Runs run() with the k-th allocation failing for k = 0, 1, ... until a run
// allocates no more than that (at most `limit` runs); each must end in
// out_of_memory (whose message must contain `name` when it is not empty)
// and leak nothing. Returns the number of failed runs. run() must not catch
// (no doctest CHECK inside).
inline int fail_every_allocation(const std::function<void()>& run, const std::string& name = "",
                                 std::int64_t limit = 20000) {
  int failures = 0;
  for (std::int64_t k = 0;; ++k) {
    CAPTURE(k);
    const std::int64_t before = live();
    bool done = false;
    arm(k);
    try {
      run();
      disarm();
      done = !tripped();
    } catch (const out_of_memory& e) {
      disarm();
      if (!name.empty()) CHECK(std::string(e.what()).find(name) != std::string::npos);
      ++failures;
    } catch (...) {
      disarm();
      FAIL("an exception other than out_of_memory");
    }
    REQUIRE(live() == before);
    if (done) break;
    REQUIRE(k < limit);
  }
  return failures;
}

}  // namespace matchblas::check::allocator
