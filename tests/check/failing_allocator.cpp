// Replaces the test executable's global operator new and delete; see
// failing_allocator.hpp. Every plain form is replaced (single and array,
// throwing and nothrow, sized and unsized delete), so that what one form
// allocates the matching form frees: libstdc++'s nothrow forms would call
// these anyway, but a sanitizer runtime intercepts the forms not replaced
// here, and its nothrow new paired with the delete below (std::free) reads
// as an alloc-dealloc mismatch (std::stable_sort's temporary buffer).
// Over-aligned forms are left to the runtime, which pairs them itself.
#include "tests/check/failing_allocator.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<std::int64_t> countdown{-1};  // < 0: disarmed
std::atomic<std::int64_t> live_count{0};
std::atomic<bool> failed{false};
}  // namespace

namespace matchblas::check::allocator {
void arm(std::int64_t n) {
  failed = false;
  countdown = n;
}
void disarm() { countdown = -1; }
bool tripped() { return failed; }
std::int64_t live() { return live_count; }
}  // namespace matchblas::check::allocator

void* operator new(std::size_t size) {
  if (countdown.load(std::memory_order_relaxed) >= 0 && countdown.fetch_sub(1) == 0) {
    failed = true;
    throw std::bad_alloc();
  }
  void* p = std::malloc(size == 0 ? 1 : size);
  if (!p) throw std::bad_alloc();
  live_count.fetch_add(1, std::memory_order_relaxed);
  return p;
}

void operator delete(void* p) noexcept {
  if (!p) return;
  live_count.fetch_sub(1, std::memory_order_relaxed);
  std::free(p);
}

void operator delete(void* p, std::size_t) noexcept { operator delete(p); }

void* operator new[](std::size_t size) { return operator new(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return operator new(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return operator new(size, std::nothrow);
}
void operator delete[](void* p) noexcept { operator delete(p); }
void operator delete[](void* p, std::size_t) noexcept { operator delete(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { operator delete(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { operator delete(p); }
