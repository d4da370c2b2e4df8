// Building a Csr from unordered entries (triples, or entries named by an
// index: csr_from_entries), in the phases of STYLE 6: count entries per
// bucket of rows, exclusive prefix sum, scatter into the buckets; then, a
// bucket at a time, by row, sort each row by (column, value) and combine
// duplicates (and, on request, order each row in the greedy order; with
// Duplicates::max, one sort in that order and the columns' first entries
// kept). Every
// phase but the prefix sum over the buckets runs in parallel (OpenMP, no
// atomics); every row, and every sum of duplicates, is the same for any
// thread count. A bucket of more than 2^20 entries (a hub's rows) is sorted
// after the others on every thread (split, sorted, merged pairwise, with
// merge buffers of up to half the bucket where memory allows; else by one
// thread in place). Cost: O(entries + rows) work plus the per-row sorts.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "lib/csr.hpp"
#include "lib/error.hpp"
#include "lib/greedy_order.hpp"
#include "lib/memory_budget.hpp"
#include "lib/omp_threads.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

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

// How each row of the result is ordered: by column (the default), or in the
// greedy order of lib/greedy_order.hpp (heavier first, then the smaller
// column: after duplicates are combined the columns are distinct, so the
// order is total and the same for any thread count).
enum class RowOrder { column, greedy };

namespace detail {
// The distinct columns of one row, for csr_from_entries: a row of up to 32
// entries is scanned (cheaper than hashing), a longer one hashed into an
// open-addressing table of at least twice its length, cleared per row.
class ColumnSet {
 public:
  // Empty, for at most `length` distinct columns (< 2^31).
  void clear(std::int64_t length) {
    small_ = length <= 32;
    count_ = 0;
    if (small_) return;
    std::size_t capacity = 64;
    shift_ = 26;
    while (capacity < 2 * std::size_t(length)) capacity *= 2, --shift_;
    table_.assign(capacity, -1);
  }
  // Whether c was new (and is now in the set).
  bool insert(vertex_t c) {
    if (small_) {
      for (int i = 0; i < count_; ++i)
        if (few_[i] == c) return false;
      few_[count_++] = c;
      return true;
    }
    const std::size_t mask = table_.size() - 1;
    for (std::size_t i = (std::uint32_t(c) * 0x9E3779B1u) >> shift_;; i = (i + 1) & mask) {  // Fibonacci hashing
      if (table_[i] == c) return false;
      if (table_[i] < 0) {
        table_[i] = c;
        return true;
      }
    }
  }

 private:
  bool small_ = true;
  int count_ = 0, shift_ = 26;  // shift_: 32 - log2 of the table's size
  vertex_t few_[32];
  std::vector<vertex_t> table_;
};

// Sorts [first, first + size) on `team` threads: a slice each sorted alone,
// then the slices merged pairwise (std::inplace_merge, which falls back to
// a slower merge instead of throwing when no buffer can be had: nothing in
// the parallel regions throws). The merges' buffers hold up to size / 2
// elements at once; where that is more than a quarter of the memory
// available (lib/memory_budget.hpp), one thread sorts in place instead.
// The order is `less`'s; equivalent elements (which callers make
// identical) may come in any order.
template <class T, class Less>
void sort_on_threads(T* first, std::int64_t size, Less less, int team) {
  std::int64_t parts = std::min<std::int64_t>(team, size >> 15);
  if (parts > 1) {
    const AvailableMemory room = available_memory();
    if (room.bytes >= 0 && double(size / 2) * double(sizeof(T)) > room.bytes / 4) parts = 1;
  }
  if (parts <= 1) {
    std::sort(first, first + size, less);
    return;
  }
  const auto bound = [&](std::int64_t p) { return first + size * std::min(p, parts) / parts; };
#pragma omp parallel for num_threads(team) schedule(static)
  for (std::int64_t p = 0; p < parts; ++p) std::sort(bound(p), bound(p + 1), less);
  for (std::int64_t width = 1; width < parts; width *= 2) {
#pragma omp parallel for num_threads(team) schedule(dynamic, 1)
    for (std::int64_t p = 0; p < parts; p += 2 * width)
      if (p + width < parts) std::inplace_merge(bound(p), bound(p + width), bound(p + 2 * width), less);
  }
}
}  // namespace detail

// The n_rows x n_cols Csr of the entries that items 0..items-1 stand for:
// entry(k, emit) calls emit(row, col, value) for each entry of item k (none,
// one or several; the same ones on every call: it is called twice, to count
// and to scatter). Duplicates (same row and column) are combined by `dup`
// over the values in ascending order, whatever order they came in; entries
// whose combined value is zero are dropped when drop_zeros. Indices must be
// in range (checked; invalid_input names the first bad item). Values must
// not be NaN. Rows from the entries directly, with no triple list between.
//
// The scatter is a radix partition, so that no phase needs an atomic or a
// write to a random place in the whole array: the rows are cut into buckets
// of consecutive rows; the items into a fixed number of chunks, each of
// which counts its entries per bucket and then writes them, in its own
// slice of each bucket, as (row, column, value) (so the order within a
// bucket is the items' order, whatever the threads); then each bucket alone
// (small enough to stay in cache) is bucketed by row, its rows sorted and
// combined, and written back in place. (The atomic scatter this replaced
// took 3-4x longer on R-MAT graphs: a locked increment per entry, each a
// cache miss.) Memory is allocated outside the parallel regions, or under
// an AllocationGuard, so that running out of it throws std::bad_alloc.
// `scattered()` runs once the items have been read for the last time (the
// caller may free them there: the build's peak is then the scatter's
// buffer and the result, without the items).
struct NothingToFree {
  void operator()() const {}
};
template <class W, class EntriesOf, class Scattered = NothingToFree>
Csr<W> csr_from_entries(vertex_t n_rows, vertex_t n_cols, std::int64_t items, EntriesOf entry, Duplicates dup,
                        bool drop_zeros, RowOrder order = RowOrder::column, Scattered scattered = {}) {
  const std::int64_t m = std::max<std::int64_t>(items, 0);
  struct Triple {
    vertex_t row, col;
    W val;
  };
#ifdef _OPENMP
  const int team = std::max(1, omp_get_max_threads());
#else
  const int team = 1;
#endif
  const std::int64_t chunks = std::clamp<std::int64_t>(m, 1, team);
  // Buckets of rows_per_bucket consecutive rows: about 2^15 items each on
  // average (a bucket's entries then fit in a core's L2), at least 8 a
  // thread (the rows' work spread), at most 2^14 (each chunk writes one
  // stream per bucket).
  const std::int64_t target_buckets = std::clamp<std::int64_t>(std::max<std::int64_t>(m >> 15, 8 * std::int64_t(team)),
                                                               1, std::int64_t(1) << 14);
  const vertex_t rows_per_bucket =
      n_rows == 0 ? 1 : vertex_t(std::max<std::int64_t>(1, (std::int64_t(n_rows) + target_buckets - 1) / target_buckets));
  const std::int64_t buckets = n_rows == 0 ? 0 : (std::int64_t(n_rows) + rows_per_bucket - 1) / rows_per_bucket;
  const auto bucket_of = [rows_per_bucket](vertex_t r) { return std::size_t(r / rows_per_bucket); };
  const auto chunk_begin = [m, chunks](std::int64_t c) { return m * c / chunks; };

  std::vector<offset_t> start(static_cast<std::size_t>(n_rows) + 1, 0);  // each row's place in `triples`
  std::vector<offset_t> kept(static_cast<std::size_t>(n_rows) + 1, 0);   // each row's survivors, then their prefix
  // [chunk][bucket]: the chunk's entries in the bucket, then where its slice starts.
  std::vector<std::int64_t> slots(std::size_t(chunks) * std::size_t(buckets), 0);
  std::vector<offset_t> bucket_at(static_cast<std::size_t>(buckets) + 1, 0);
  // Phase 1: check, and count each chunk's entries per bucket.
  std::int64_t first_bad = m;
#pragma omp parallel for schedule(static) reduction(min : first_bad)
  for (std::int64_t c = 0; c < chunks; ++c) {
    std::int64_t* const mine = slots.data() + std::size_t(c) * std::size_t(buckets);
    for (std::int64_t k = chunk_begin(c); k < chunk_begin(c + 1); ++k)
      entry(k, [&](vertex_t r, vertex_t col, W) {
        if (r < 0 || r >= n_rows || col < 0 || col >= n_cols) first_bad = std::min(first_bad, k);
        else ++mine[bucket_of(r)];
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
  // Phase 2: each bucket's place, and each chunk's slice in it.
  std::int64_t total = 0;
  for (std::int64_t b = 0; b < buckets; ++b) {
    bucket_at[std::size_t(b)] = total;
    for (std::int64_t c = 0; c < chunks; ++c) {
      std::int64_t& slot = slots[std::size_t(c) * std::size_t(buckets) + std::size_t(b)];
      const std::int64_t count = slot;
      slot = total;
      total += count;
    }
  }
  bucket_at[std::size_t(buckets)] = total;
  std::unique_ptr<Triple[]> triples(new Triple[static_cast<std::size_t>(total)]);  // uninitialised: no zero-fill
  // Phase 3: the entries into their chunks' slices.
#pragma omp parallel for schedule(static)
  for (std::int64_t c = 0; c < chunks; ++c) {
    std::int64_t* const mine = slots.data() + std::size_t(c) * std::size_t(buckets);
    Triple* const out = triples.get();
    for (std::int64_t k = chunk_begin(c); k < chunk_begin(c + 1); ++k)
      entry(k, [&](vertex_t r, vertex_t col, W v) { out[mine[bucket_of(r)]++] = {r, col, v}; });
  }
  scattered();
  // Phase 4, a bucket at a time: bucket its entries by row (into scratch),
  // sort each row by (column, value), combine duplicates, and write the
  // survivors back at the row's place; then, when asked, the survivors in
  // the greedy order. The greedy order with Duplicates::max takes one sort
  // instead of two: the row sorted in the greedy order, a column's first
  // entry is its largest, and the later ones are skipped (a set of the
  // columns seen; NaN values, which the contract excludes, would break this
  // order). A bucket of more than 2^20 entries (a hub's rows) is sorted in
  // place by (row, that order) after the others, on every thread, so that
  // scratch stays small and one thread does not hold up the rest.
  const bool greedy_max = order == RowOrder::greedy && dup == Duplicates::max;
  const auto row_less = [greedy_max](const Triple& x, const Triple& y) {
    // Equal values apart from a zero's sign: +0 first (a maximum of +0 and
    // -0 is then +0), so that no two triples the order calls equivalent
    // differ and every sort gives the same result.
    if (greedy_max) {
      if (neighbour_beats(x.val, x.col, y.val, y.col)) return true;
      if (neighbour_beats(y.val, y.col, x.val, x.col)) return false;
      return std::signbit(x.val) < std::signbit(y.val);
    }
    return x.col < y.col ||
           (x.col == y.col && (x.val < y.val || (x.val == y.val && std::signbit(x.val) < std::signbit(y.val))));
  };
  constexpr std::int64_t hub_bucket = std::int64_t(1) << 20;
  const auto bucket_size = [&](std::int64_t b) { return bucket_at[std::size_t(b) + 1] - bucket_at[std::size_t(b)]; };
  // Row r's entries sorted in [row, row_end): its survivors from out_row on
  // (out_row <= row: in place, the writes never pass the reads); `sort`
  // orders them greedily when asked.
  const auto combine_row = [&](vertex_t r, Triple* row, Triple* row_end, Triple* out_row, detail::ColumnSet& seen,
                               auto sort) {
    Triple* o = out_row;
    if (greedy_max) {
      seen.clear(std::min<std::int64_t>(row_end - row, n_cols));
      for (Triple* it = row; it != row_end; ++it)
        if (seen.insert(it->col) && !(drop_zeros && it->val == W(0))) *o++ = *it;
    } else {
      for (Triple* it = row; it != row_end;) {
        W acc = it->val;
        Triple* jt = it + 1;
        for (; jt != row_end && jt->col == it->col; ++jt)
          acc = dup == Duplicates::sum ? acc + jt->val : std::max(acc, jt->val);
        const vertex_t col = it->col;
        it = jt;
        if (!(drop_zeros && acc == W(0))) *o++ = {r, col, acc};
      }
      if (order == RowOrder::greedy)
        sort(out_row, o, [](const Triple& x, const Triple& y) { return neighbour_beats(x.val, x.col, y.val, y.col); });
    }
    kept[static_cast<std::size_t>(r) + 1] = o - out_row;
  };
  // ends[j]: where row r0 + j starts in bucket b, then where it ends; each
  // row's start.
  const auto row_bounds = [&](std::int64_t b, vertex_t r0, vertex_t r1, std::vector<offset_t>& ends) {
    const Triple* const first = triples.get() + bucket_at[std::size_t(b)];
    const std::int64_t size = bucket_size(b);
    ends.assign(std::size_t(r1 - r0) + 1, 0);
    for (std::int64_t i = 0; i < size; ++i) ++ends[std::size_t(first[i].row - r0) + 1];
    for (vertex_t j = 0; j < r1 - r0; ++j) ends[std::size_t(j) + 1] += ends[std::size_t(j)];
    for (vertex_t r = r0; r < r1; ++r) start[r] = bucket_at[std::size_t(b)] + ends[std::size_t(r - r0)];
  };
  const auto bucket_rows = [&](std::int64_t b) {
    const vertex_t r0 = vertex_t(b * rows_per_bucket);
    return std::pair{r0, vertex_t(std::min<std::int64_t>(n_rows, std::int64_t(r0) + rows_per_bucket))};
  };
  AllocationGuard guard;  // phase 4's scratch is each thread's
#pragma omp parallel
  {
    std::vector<Triple> scratch;
    std::vector<offset_t> ends;
    detail::ColumnSet seen;
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t b = 0; b < buckets; ++b) guard.run([&] {
      const std::int64_t size = bucket_size(b);
      if (size > hub_bucket) return;  // after the loop
      const auto [r0, r1] = bucket_rows(b);
      const offset_t base = bucket_at[std::size_t(b)];
      Triple* const first = triples.get() + base;
      row_bounds(b, r0, r1, ends);
      scratch.resize(std::size_t(size));
      for (std::int64_t i = 0; i < size; ++i) scratch[std::size_t(ends[std::size_t(first[i].row - r0)]++)] = first[i];
      for (vertex_t r = r0; r < r1; ++r) {
        Triple* const row = scratch.data() + (start[r] - base);
        Triple* const row_end = scratch.data() + ends[std::size_t(r - r0)];
        std::sort(row, row_end, row_less);
        combine_row(r, row, row_end, first + (start[r] - base), seen,
                    [](Triple* a, Triple* z, auto less) { std::sort(a, z, less); });
      }
    });
  }
  guard.rethrow();
  {
    std::vector<offset_t> ends;
    detail::ColumnSet seen;
    for (std::int64_t b = 0; b < buckets; ++b) {
      const std::int64_t size = bucket_size(b);
      if (size <= hub_bucket) continue;
      const auto [r0, r1] = bucket_rows(b);
      Triple* const first = triples.get() + bucket_at[std::size_t(b)];
      row_bounds(b, r0, r1, ends);
      detail::sort_on_threads(
          first, size, [&](const Triple& x, const Triple& y) { return x.row < y.row || (x.row == y.row && row_less(x, y)); },
          team);
      for (vertex_t r = r0; r < r1; ++r) {
        Triple* const row = triples.get() + start[r];
        combine_row(r, row, row + (ends[std::size_t(r - r0) + 1] - ends[std::size_t(r - r0)]), row, seen,
                    [team](Triple* a, Triple* z, auto less) { detail::sort_on_threads(a, z - a, less, team); });
      }
    }
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
      a.cols[a.offsets[r] + i] = triples[start[r] + i].col;
      a.weights[a.offsets[r] + i] = triples[start[r] + i].val;
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
