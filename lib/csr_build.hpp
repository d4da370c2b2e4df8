// Building a Csr from unordered entries (triples), in the phases of STYLE 6:
// count entries per row, exclusive prefix sum, scatter; then sort each row
// by (column, value) and combine duplicates. Every phase but the prefix sum
// runs in parallel (OpenMP; counts and scatter cursors are atomics). The
// scatter order within a row depends on the schedule, but the sort by
// (column, value) makes every row, and every sum of duplicates, the same for
// any thread count. Cost: O(entries + rows) work plus the per-row sorts.
#pragma once
#include <algorithm>
#include <atomic>
#include <memory>
#include <numeric>
#include <vector>

#include "lib/csr.hpp"
#include "lib/error.hpp"

namespace matchblas {

template <class W>
struct Triples {
  std::vector<vertex_t> row;
  std::vector<vertex_t> col;
  std::vector<W> val;

  std::size_t size() const noexcept { return row.size(); }
  void reserve(std::size_t n) { row.reserve(n); col.reserve(n); val.reserve(n); }
  void push_back(vertex_t r, vertex_t c, W v) { row.push_back(r); col.push_back(c); val.push_back(v); }
};

enum class Duplicates { sum, max };

// The n_rows x n_cols Csr of t, duplicates (same row and column) combined by
// `dup`, entries whose combined value is zero dropped when drop_zeros.
// Indices must be in range (checked; invalid_input names the first bad one).
// Values must not be NaN.
template <class W>
Csr<W> csr_from_triples(vertex_t n_rows, vertex_t n_cols, const Triples<W>& t, Duplicates dup,
                        bool drop_zeros) {
  const std::int64_t m = static_cast<std::int64_t>(t.size());
  // Phase 1: check and count per row.
  std::vector<offset_t> start(static_cast<std::size_t>(n_rows) + 1, 0);
  std::int64_t first_bad = m;
#pragma omp parallel for schedule(static) reduction(min : first_bad)
  for (std::int64_t k = 0; k < m; ++k) {
    const vertex_t r = t.row[k], c = t.col[k];
    if (r < 0 || r >= n_rows || c < 0 || c >= n_cols) first_bad = std::min(first_bad, k);
    else std::atomic_ref<offset_t>(start[static_cast<std::size_t>(r) + 1]).fetch_add(1, std::memory_order_relaxed);
  }
  if (first_bad < m)
    throw invalid_input("entry " + std::to_string(first_bad) + " at (" + std::to_string(t.row[first_bad]) + ", " +
                        std::to_string(t.col[first_bad]) + ") is outside the " + std::to_string(n_rows) + " x " +
                        std::to_string(n_cols) + " matrix");
  // Phase 2: exclusive prefix sum.
  std::partial_sum(start.begin(), start.end(), start.begin());
  // Phase 3: scatter into rows (uninitialised storage: no zero-fill pass).
  struct Entry {
    vertex_t col;
    W val;
  };
  std::unique_ptr<Entry[]> entries(new Entry[static_cast<std::size_t>(m)]);
  {
    std::vector<offset_t> next(start.begin(), start.end() - 1);
#pragma omp parallel for schedule(static)
    for (std::int64_t k = 0; k < m; ++k) {
      const offset_t pos = std::atomic_ref<offset_t>(next[t.row[k]]).fetch_add(1, std::memory_order_relaxed);
      entries[pos] = {t.col[k], t.val[k]};
    }
  }
  // Phase 4: sort each row by (column, value), combine duplicates in place.
  std::vector<offset_t> kept(static_cast<std::size_t>(n_rows) + 1, 0);
#pragma omp parallel for schedule(dynamic, 1024)
  for (vertex_t r = 0; r < n_rows; ++r) {
    Entry* first = entries.get() + start[r];
    Entry* last = entries.get() + start[r + 1];
    std::sort(first, last, [](const Entry& x, const Entry& y) { return x.col < y.col || (x.col == y.col && x.val < y.val); });
    Entry* out = first;
    for (Entry* it = first; it != last;) {
      W acc = it->val;
      Entry* jt = it + 1;
      for (; jt != last && jt->col == it->col; ++jt) acc = dup == Duplicates::sum ? acc + jt->val : std::max(acc, jt->val);
      if (!(drop_zeros && acc == W(0))) *out++ = {it->col, acc};
      it = jt;
    }
    kept[static_cast<std::size_t>(r) + 1] = out - first;
  }
  // Phase 5: count the survivors, compact.
  std::partial_sum(kept.begin(), kept.end(), kept.begin());
  Csr<W> a;
  a.n_rows = n_rows;
  a.n_cols = n_cols;
  a.offsets = std::move(kept);
  a.cols.resize(static_cast<std::size_t>(a.offsets.back()));
  a.weights.resize(static_cast<std::size_t>(a.offsets.back()));
#pragma omp parallel for schedule(dynamic, 1024)
  for (vertex_t r = 0; r < n_rows; ++r) {
    const offset_t count = a.offsets[r + 1] - a.offsets[r];
    for (offset_t i = 0; i < count; ++i) {
      a.cols[a.offsets[r] + i] = entries[start[r] + i].col;
      a.weights[a.offsets[r] + i] = entries[start[r] + i].val;
    }
  }
  return a;
}

}  // namespace matchblas
