// Two O(n) loops over vertex indices on OpenMP threads, with results that
// do not depend on the thread count: the indices a predicate keeps, in
// increasing order, and a sum in a fixed order. The indices are cut into
// blocks of 2^16; each block is one thread's work, and the blocks' results
// are joined in block order.
// Cost: O(n) work, O(n / 2^16) extra memory; `out` is sized to n while the
// blocks fill it.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "lib/types.hpp"

namespace matchblas {

inline constexpr vertex_t scan_block = vertex_t(1) << 16;

// The indices i in [0, n) for which keep(i) is true, increasing, into out.
// keep(i) may change what belongs to index i alone (it runs once per i,
// each i on one thread); it must not throw.
template <class Keep>
void indices_where(vertex_t n, std::vector<vertex_t>& out, Keep keep, int threads) {
  const vertex_t blocks = (n + scan_block - 1) / scan_block;
  if (threads <= 1 || blocks <= 1) {
    out.clear();
    for (vertex_t i = 0; i < n; ++i)
      if (keep(i)) out.push_back(i);
    return;
  }
  out.resize(std::size_t(n));  // block b writes its indices from b * scan_block on
  std::vector<vertex_t> kept(std::size_t(blocks), 0);
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (vertex_t b = 0; b < blocks; ++b) {
    const vertex_t first = b * scan_block, last = std::min(n, first + scan_block);
    vertex_t k = first;
    for (vertex_t i = first; i < last; ++i)
      if (keep(i)) out[std::size_t(k++)] = i;
    kept[std::size_t(b)] = k - first;
  }
  std::size_t size = 0;
  for (vertex_t b = 0; b < blocks; ++b) {  // blocks move down only: no block overwrites one not yet moved
    const auto from = out.begin() + std::ptrdiff_t(b) * scan_block;
    std::copy(from, from + kept[std::size_t(b)], out.begin() + std::ptrdiff_t(size));
    size += std::size_t(kept[std::size_t(b)]);
  }
  out.resize(size);
}

// The sum of term(i) over i in [0, n): each block's terms in index order,
// then the blocks' sums in block order, at any thread count.
template <class Term>
double ordered_sum(vertex_t n, Term term, int threads) {
  const vertex_t blocks = (n + scan_block - 1) / scan_block;
  std::vector<double> sums(std::size_t(blocks), 0.0);
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (threads > 1 && blocks > 1)
  for (vertex_t b = 0; b < blocks; ++b) {
    const vertex_t first = b * scan_block, last = std::min(n, first + scan_block);
    double s = 0;
    for (vertex_t i = first; i < last; ++i) s += term(i);
    sums[std::size_t(b)] = s;
  }
  double total = 0;
  for (double s : sums) total += s;
  return total;
}

}  // namespace matchblas
