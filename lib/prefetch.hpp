// prefetch(p): a hint to fetch the cache line of p, which the compiler
// keeps. GCC 12 at -O2/-O3 took helpers and lambdas made of loops of
// __builtin_prefetch for code without effects and deleted their calls
// (seen in small tests; not pinned to one pass): the searches' prefetch of
// the next row's columns and a helper of the auction were compiled to
// nothing. The empty volatile asm is an effect the compiler must keep, so
// the helper around it stays, and with it the prefetch; it emits no
// instruction of its own.
#pragma once

#include <limits>

#include "lib/csr.hpp"
#include "lib/types.hpp"

namespace matchblas {

inline void prefetch(const void* p) {
  __builtin_prefetch(p);
  asm volatile("" : : "r"(p));
}

// Rows visited in an order known ahead: before the current row, the values
// per column of the next row's entries (per_column[j]; of its first `most`
// entries: a hub's whole row would be read twice), the entries of the row
// after it and the start of the fourth fetched (-1: none). A row's time
// is its chain of cache misses (start -> entries -> per-column values);
// fetched ahead, the misses of consecutive rows overlap: the auction's bids
// (1.4-2.1x on 300k-1M-row matrices) and the lowering's queue.
template <class W, class V>
void prefetch_rows_ahead(const Csr<W>& c, const V* per_column, vertex_t next, vertex_t second, vertex_t fourth,
                         offset_t most = std::numeric_limits<offset_t>::max()) {
  if (fourth >= 0) prefetch(c.offsets.data() + fourth);
  if (second >= 0) {
    const offset_t k = c.offsets[std::size_t(second)];
    prefetch(c.cols.data() + k);  // one past the end for an empty last row
    if (!c.weights.empty()) prefetch(c.weights.data() + k);  // a pattern has none
  }
  if (next >= 0) {
    const offset_t start = c.offsets[std::size_t(next)];
    const offset_t end = c.offsets[std::size_t(next) + 1] - start > most ? start + most : c.offsets[std::size_t(next) + 1];
    for (offset_t k = start; k < end; ++k) prefetch(per_column + c.cols[std::size_t(k)]);
  }
}

}  // namespace matchblas
