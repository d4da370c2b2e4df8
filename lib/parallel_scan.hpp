// Two O(n) loops over vertex indices on OpenMP threads, with results that
// do not depend on the thread count: the indices a predicate keeps, in
// increasing order, and a sum in a fixed order. The indices are cut into
// blocks of 2^16; each block is one thread's work, and the blocks' results
// are joined in block order.
// Cost: O(n) work, O(n / 2^16) extra memory.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "lib/types.hpp"

namespace matchblas {

inline constexpr vertex_t scan_block = vertex_t(1) << 16;

// The number of blocks of [0, n), without overflow near the largest n.
inline vertex_t scan_blocks(vertex_t n) { return n / scan_block + (n % scan_block != 0 ? 1 : 0); }

// Block b's indices [first, last) of [0, n).
inline vertex_t block_first(vertex_t b) { return b * scan_block; }
inline vertex_t block_last(vertex_t b, vertex_t n) { return block_first(b) + std::min(scan_block, n - block_first(b)); }

// The indices i in [0, n) for which keep(i) is true, increasing, into out
// (its contents replaced). keep must not throw or change what it reads: it
// runs twice per index on more than one thread (a count, then the writes),
// so out is sized once, to the indices kept.
template <class Keep>
void indices_where(vertex_t n, std::vector<vertex_t>& out, Keep keep, int threads) {
  const vertex_t blocks = scan_blocks(n);
  if (threads <= 1 || blocks <= 1) {
    out.clear();
    for (vertex_t i = 0; i < n; ++i)
      if (keep(i)) out.push_back(i);
    return;
  }
  std::vector<std::size_t> at(std::size_t(blocks) + 1, 0);  // block b's first place in out, after the count
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (vertex_t b = 0; b < blocks; ++b) {
    const vertex_t first = block_first(b), last = block_last(b, n);
    std::size_t k = 0;
    for (vertex_t i = first; i < last; ++i) k += keep(i) ? 1 : 0;
    at[std::size_t(b) + 1] = k;
  }
  for (vertex_t b = 0; b < blocks; ++b) at[std::size_t(b) + 1] += at[std::size_t(b)];
  out.resize(at[std::size_t(blocks)]);
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (vertex_t b = 0; b < blocks; ++b) {
    const vertex_t first = block_first(b), last = block_last(b, n);
    std::size_t k = at[std::size_t(b)];
    for (vertex_t i = first; i < last; ++i)
      if (keep(i)) out[k++] = i;
  }
}

// The sum of term(i) over i in [0, n): each block's terms in index order,
// then the blocks' sums in block order, at any thread count. term must not
// throw.
template <class Term>
double ordered_sum(vertex_t n, Term term, int threads) {
  const vertex_t blocks = scan_blocks(n);
  std::vector<double> sums(std::size_t(blocks), 0.0);
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (threads > 1 && blocks > 1)
  for (vertex_t b = 0; b < blocks; ++b) {
    const vertex_t first = block_first(b), last = block_last(b, n);
    double s = 0;
    for (vertex_t i = first; i < last; ++i) s += term(i);
    sums[std::size_t(b)] = s;
  }
  double total = 0;
  for (double s : sums) total += s;
  return total;
}

}  // namespace matchblas
