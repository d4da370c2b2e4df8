// prefetch(p): a hint to fetch the cache line of p, which the compiler
// keeps. GCC 12 at -O2/-O3 took helpers and lambdas made of loops of
// __builtin_prefetch for code without effects and deleted their calls
// (seen in small tests; not pinned to one pass): the searches' prefetch of
// the next row's columns and a helper of the auction were compiled to
// nothing. The empty volatile asm is an effect the compiler must keep, so
// the helper around it stays, and with it the prefetch; it emits no
// instruction of its own.
#pragma once

namespace matchblas {

inline void prefetch(const void* p) {
  __builtin_prefetch(p);
  asm volatile("" : : "r"(p));
}

}  // namespace matchblas
