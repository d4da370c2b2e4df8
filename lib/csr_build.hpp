// Building a Csr from unordered entries (triples), in the two phases of
// STYLE 6: count entries per row, exclusive prefix sum, scatter; then sort
// each row by column and combine duplicates. O(entries + rows) plus the
// per-row sorts; rows are processed in parallel (OpenMP), and the result does
// not depend on the thread count.
#pragma once
#include <algorithm>
#include <numeric>
#include <utility>
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
template <class W>
Csr<W> csr_from_triples(vertex_t n_rows, vertex_t n_cols, const Triples<W>& t, Duplicates dup,
                        bool drop_zeros) {
  const std::size_t m = t.size();
  Csr<W> a;
  a.n_rows = n_rows;
  a.n_cols = n_cols;
  // Phase 1: count per row (checked), exclusive prefix sum.
  std::vector<offset_t> start(static_cast<std::size_t>(n_rows) + 1, 0);
  for (std::size_t k = 0; k < m; ++k) {
    const vertex_t r = t.row[k], c = t.col[k];
    if (r < 0 || r >= n_rows || c < 0 || c >= n_cols)
      throw invalid_input("entry " + std::to_string(k) + " at (" + std::to_string(r) + ", " +
                          std::to_string(c) + ") is outside the " + std::to_string(n_rows) + " x " +
                          std::to_string(n_cols) + " matrix");
    ++start[static_cast<std::size_t>(r) + 1];
  }
  std::partial_sum(start.begin(), start.end(), start.begin());
  // Phase 2: scatter (stable: file order kept within a row).
  std::vector<std::pair<vertex_t, W>> entries(m);
  {
    std::vector<offset_t> next(start.begin(), start.end() - 1);
    for (std::size_t k = 0; k < m; ++k) entries[next[t.row[k]]++] = {t.col[k], t.val[k]};
  }
  // Phase 3: sort each row by column, combine duplicates, count survivors.
  std::vector<offset_t> kept(static_cast<std::size_t>(n_rows) + 1, 0);
#pragma omp parallel for schedule(dynamic, 1024)
  for (vertex_t r = 0; r < n_rows; ++r) {
    auto first = entries.begin() + start[r], last = entries.begin() + start[r + 1];
    std::stable_sort(first, last, [](const auto& x, const auto& y) { return x.first < y.first; });
    auto out = first;
    for (auto it = first; it != last;) {
      W acc = it->second;
      auto jt = it + 1;
      for (; jt != last && jt->first == it->first; ++jt)
        acc = dup == Duplicates::sum ? acc + jt->second : std::max(acc, jt->second);
      if (!(drop_zeros && acc == W(0))) *out++ = {it->first, acc};
      it = jt;
    }
    kept[static_cast<std::size_t>(r) + 1] = out - first;
  }
  std::partial_sum(kept.begin(), kept.end(), kept.begin());
  a.offsets = kept;
  a.cols.resize(static_cast<std::size_t>(kept.back()));
  a.weights.resize(static_cast<std::size_t>(kept.back()));
#pragma omp parallel for schedule(dynamic, 1024)
  for (vertex_t r = 0; r < n_rows; ++r) {
    const offset_t count = kept[r + 1] - kept[r];
    for (offset_t i = 0; i < count; ++i) {
      a.cols[kept[r] + i] = entries[start[r] + i].first;
      a.weights[kept[r] + i] = entries[start[r] + i].second;
    }
  }
  return a;
}

}  // namespace matchblas
