// resize_fresh: an empty vector resized to n value-initialised (zero)
// elements, on huge pages where the kernel grants them. The zero-fill of a
// fresh array of a gigabyte faults its pages in one 4 KB page at a time on
// one thread; asked for huge pages first (madvise MADV_HUGEPAGE on the
// reserved block, Linux only: a hint that changes nothing else) it faults
// 2 MB at a time. The H200 host (transparent huge pages "madvise"): 1.5 GB
// (129M int32 and double) 0.71-1.03 s by resize, 0.23-0.29 s by this;
// ER 2^22's first aggregated graph 0.72 -> 0.23 s (bench/RESULTS.md). Below
// 64 MB it is a plain resize.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace matchblas {

template <class T>
void resize_fresh(std::vector<T>& v, std::size_t n) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::size_t huge = std::size_t(1) << 21, worth_from = std::size_t(1) << 26;
  if (v.capacity() == 0 && n * sizeof(T) >= worth_from) {
    v.reserve(n);
    const std::uintptr_t begin = reinterpret_cast<std::uintptr_t>(v.data());
    const std::uintptr_t first = (begin + huge - 1) & ~std::uintptr_t(huge - 1);
    const std::uintptr_t last = (begin + n * sizeof(T)) & ~std::uintptr_t(huge - 1);
    if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);  // a hint: failure is harmless
  }
#endif
  v.resize(n);
}

}  // namespace matchblas
