// A global operator new that can be told to fail (STYLE 18, after LAGraph's
// LG_brutal_malloc): after arm(n), the n-th next allocation through
// operator new throws std::bad_alloc; live() counts the allocations not yet
// freed, so a test can check that a failed call leaked nothing. Inert until
// armed. Defined in failing_allocator.cpp, which replaces the global
// operator new / delete of the test executable.
#pragma once
#include <cstdint>

namespace matchblas::check::allocator {

void arm(std::int64_t n);        // fail the n-th next allocation (0: the very next one)
void disarm();
bool tripped();                  // did an armed allocation fail since arm()?
std::int64_t live();             // allocations made through operator new, not yet freed

}  // namespace matchblas::check::allocator
