// Building a Csr from unordered entries (triples, or entries named by an
// index: csr_from_entries), in the phases of STYLE 6: count entries per row,
// exclusive prefix sum, scatter; then sort each row by (column, value) and
// combine duplicates (and, on request, order each row in the greedy order).
// Every phase but the prefix sum runs in parallel (OpenMP; counts and
// scatter cursors are atomics). The scatter order within a row depends on
// the schedule, but the sort by (column, value) makes every row, and every
// sum of duplicates, the same for any thread count. Cost: O(entries + rows)
// work plus the per-row sorts.
#pragma once
#include <algorithm>
#include <atomic>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "lib/csr.hpp"
#include "lib/error.hpp"
#include "lib/greedy_order.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace matchblas {

namespace detail {
// Whether the calling thread's OpenMP team has one thread (always, in a
// build without OpenMP, where the pragmas below are ignored).
inline bool alone_in_team() {
#ifdef _OPENMP
  return omp_get_num_threads() == 1;
#else
  return true;
#endif
}
}  // namespace detail

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

// How each row of the result is ordered: by column (the default), or in the
// greedy order of lib/greedy_order.hpp (heavier first, then the smaller
// column: after duplicates are combined the columns are distinct, so the
// order is total and the same for any thread count).
enum class RowOrder { column, greedy };

// The n_rows x n_cols Csr of the entries that items 0..items-1 stand for:
// entry(k, emit) calls emit(row, col, value) for each entry of item k (none,
// one or several; the same ones on every call: it is called twice, to count
// and to scatter). Duplicates (same row and column) are combined by `dup`
// over the values in ascending order, whatever order they came in; entries
// whose combined value is zero are dropped when drop_zeros. Indices must be
// in range (checked; invalid_input names the first bad item). Values must
// not be NaN. Rows from the entries directly, with no triple list between.
template <class W, class EntriesOf>
Csr<W> csr_from_entries(vertex_t n_rows, vertex_t n_cols, std::int64_t items, EntriesOf entry, Duplicates dup,
                        bool drop_zeros, RowOrder order = RowOrder::column) {
  const std::int64_t m = items;
  // Phase 1: check and count per row.
  std::vector<offset_t> start(static_cast<std::size_t>(n_rows) + 1, 0);
  // With one thread the counts and cursors are plain words: a locked
  // increment is a full fence on x86, which keeps the scatter's cache misses
  // from overlapping (the scatter ran about 2x slower with it).
  std::int64_t first_bad = m;
#pragma omp parallel reduction(min : first_bad)
  {
    const bool alone = detail::alone_in_team();
#pragma omp for schedule(static)
    for (std::int64_t k = 0; k < m; ++k)
      entry(k, [&](vertex_t r, vertex_t c, W) {
        if (r < 0 || r >= n_rows || c < 0 || c >= n_cols) {
          first_bad = std::min(first_bad, k);
          return;
        }
        offset_t& count = start[static_cast<std::size_t>(r) + 1];
        if (alone) ++count;
        else std::atomic_ref<offset_t>(count).fetch_add(1, std::memory_order_relaxed);
      });
  }
  if (first_bad < m) {
    vertex_t bad_r = 0, bad_c = 0;
    bool found = false;
    entry(first_bad, [&](vertex_t r, vertex_t c, W) {
      if (!found && (r < 0 || r >= n_rows || c < 0 || c >= n_cols)) {
        found = true;
        bad_r = r;
        bad_c = c;
      }
    });
    throw invalid_input("entry " + std::to_string(first_bad) + " at (" + std::to_string(bad_r) + ", " +
                        std::to_string(bad_c) + ") is outside the " + std::to_string(n_rows) + " x " +
                        std::to_string(n_cols) + " matrix");
  }
  // Phase 2: exclusive prefix sum.
  std::partial_sum(start.begin(), start.end(), start.begin());
  const std::int64_t total = start[static_cast<std::size_t>(n_rows)];
  // Phase 3: scatter into rows (uninitialised storage: no zero-fill pass).
  struct Entry {
    vertex_t col;
    W val;
  };
  std::unique_ptr<Entry[]> entries(new Entry[static_cast<std::size_t>(total)]);
  {
    std::vector<offset_t> next(start.begin(), start.end() - 1);
#pragma omp parallel
    {
      const bool alone = detail::alone_in_team();
#pragma omp for schedule(static)
      for (std::int64_t k = 0; k < m; ++k)
        entry(k, [&](vertex_t r, vertex_t c, W v) {
          const offset_t pos =
              alone ? next[r]++ : std::atomic_ref<offset_t>(next[r]).fetch_add(1, std::memory_order_relaxed);
          entries[pos] = {c, v};
        });
    }
  }
  // Phase 4: sort each row by (column, value), combine duplicates in place;
  // then, when asked, the survivors in the greedy order.
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
    if (order == RowOrder::greedy)
      std::sort(first, out, [](const Entry& x, const Entry& y) { return neighbour_beats(x.val, x.col, y.val, y.col); });
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

// The n_rows x n_cols Csr of t (csr_from_entries, one entry per triple):
// duplicates combined by `dup`, entries whose combined value is zero dropped
// when drop_zeros; the first triple out of range is named.
template <class W>
Csr<W> csr_from_triples(vertex_t n_rows, vertex_t n_cols, const Triples<W>& t, Duplicates dup, bool drop_zeros) {
  return csr_from_entries<W>(
      n_rows, n_cols, static_cast<std::int64_t>(t.size()),
      [&t](std::int64_t k, auto emit) { emit(t.row[k], t.col[k], t.val[k]); }, dup, drop_zeros);
}

}  // namespace matchblas
