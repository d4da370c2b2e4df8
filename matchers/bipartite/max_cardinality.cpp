// Maximum-cardinality bipartite matching: one-sided Karp-Sipser start then Pothen-Fan phases
// (see max_cardinality.hpp for source, guarantee and cost).
#include "matchers/bipartite/max_cardinality.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "lib/error.hpp"
#include "lib/interrupt.hpp"

namespace matchblas {
template <class W>
void check_bipartite_csr(const Csr<W>& a) {
  if (a.n_rows < 0 || a.n_cols < 0) throw invalid_input("bipartite: negative dimension");
  if (a.offsets.size() != static_cast<std::size_t>(a.n_rows) + 1 || a.offsets[0] != 0)
    throw invalid_input("bipartite: offsets must have n_rows + 1 entries starting at 0");
  // Passes without exits (they vectorise; on the threads from 2^16 rows or
  // entries), then the first culprit.
  const vertex_t m = a.n_rows;
  bool rising = true;
#pragma omp parallel for schedule(static) reduction(&& : rising) if (m >= (1 << 16))
  for (vertex_t i = 0; i < m; ++i) rising = rising && a.offsets[i + 1] >= a.offsets[i];
  if (!rising)
    for (vertex_t i = 0; i < m; ++i)
      if (a.offsets[i + 1] < a.offsets[i])
        throw invalid_input("bipartite: offsets decrease at row " + std::to_string(i));
  if (static_cast<std::size_t>(a.offsets.back()) != a.cols.size())
    throw invalid_input("bipartite: offsets[n_rows] differs from the number of column indices");
  bool in_range = true;
  const std::size_t nnz = a.cols.size();
  const auto n = static_cast<std::uint32_t>(a.n_cols);
#pragma omp parallel for schedule(static) reduction(&& : in_range) if (nnz >= (1 << 16))
  for (std::size_t k = 0; k < nnz; ++k) in_range = in_range && static_cast<std::uint32_t>(a.cols[k]) < n;
  if (in_range) return;
  for (std::size_t k = 0; k < a.cols.size(); ++k)
    if (a.cols[k] < 0 || a.cols[k] >= a.n_cols)
      throw invalid_input("bipartite: column index " + std::to_string(a.cols[k]) +
                          " out of range at entry " + std::to_string(k));
}

void check_bipartite_values(const Csr<double>& a, const std::string& who) {
  check_bipartite_csr(a);
  if (a.weights.size() != a.cols.size())
    throw invalid_input(who + ": " + std::to_string(a.weights.size()) + " values for " + std::to_string(a.cols.size()) +
                        " entries");
  bool finite = true;  // NaN fails the comparison too
  const std::size_t nnz = a.weights.size();
#pragma omp parallel for schedule(static) reduction(&& : finite) if (nnz >= (1 << 16))
  for (std::size_t k = 0; k < nnz; ++k) finite = finite && std::fabs(a.weights[k]) <= std::numeric_limits<double>::max();
  if (finite) return;
  for (vertex_t i = 0; i < a.n_rows; ++i)
    for (offset_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k)
      if (!std::isfinite(a.weights[k]))
        throw invalid_input(who + ": the entry at row " + std::to_string(i) + ", column " + std::to_string(a.cols[k]) +
                            " is not finite");
}

double moduli_sum_scale(const std::vector<double>& w) {
  double largest = 0;
  const std::size_t nnz = w.size();
#pragma omp parallel for schedule(static) reduction(max : largest) if (nnz >= (1 << 16))
  for (std::size_t k = 0; k < nnz; ++k) largest = std::max(largest, std::fabs(w[k]));
  return moduli_sum_scale_of_largest(largest);
}

double moduli_sum_scale_of_largest(double largest) {
  const int e = largest > 0 ? std::ilogb(largest) : 0;  // largest in [2^e, 2^(e+1))
  return e < 511 ? 1.0 : std::ldexp(1.0, 511 - e);
}

namespace {

// Pothen-Fan phases from the valid matching r.
template <class W>
BipartiteMates augment_to_maximum(const Csr<W>& a, BipartiteMates r) {
  const vertex_t m = a.n_rows, n = a.n_cols;

  std::vector<vertex_t> visited(n, -1);        // phase in which a column was visited
  std::vector<offset_t> lookahead(a.offsets.begin(), a.offsets.end() - 1);
  std::vector<offset_t> next(m);               // DFS cursor per row: entries left to scan
  std::vector<vertex_t> stack_rows, stack_cols;  // row on the path, column it entered by
  for (vertex_t phase = 0;; ++phase) {
    check_interrupt();
    // Fairness (Duff, Kaya and Ucar, ACM TOMS 38(2), 2011, "PF+"): the DFS
    // scans a row's entries forwards in even phases and backwards in odd
    // ones, so a search does not keep running into the columns the last
    // phase's searches saturated (without it Pothen-Fan is far slower on
    // meshes).
    const bool forwards = phase % 2 == 0;
    auto entry = [&](vertex_t i, offset_t left) {
      return forwards ? a.offsets[i + 1] - left : a.offsets[i] + left - 1;
    };
    vertex_t augmented = 0;
    for (vertex_t root = 0; root < m; ++root) {
      if (r.row_mate[root] >= 0) continue;
      stack_rows.assign(1, root);
      stack_cols.clear();
      next[root] = a.degree(root);
      vertex_t found = -1;
      while (!stack_rows.empty() && found < 0) {
        const vertex_t i = stack_rows.back();
        // Lookahead: a free column adjacent to i ends the path at once.
        for (; lookahead[i] < a.offsets[i + 1]; ++lookahead[i]) {
          const vertex_t j = a.cols[lookahead[i]];
          if (r.col_mate[j] < 0 && visited[j] != phase) {
            visited[j] = phase;
            found = j;
            ++lookahead[i];
            break;
          }
        }
        if (found >= 0) break;
        bool descended = false;
        for (; next[i] > 0; --next[i]) {
          const vertex_t j = a.cols[entry(i, next[i])];
          if (visited[j] == phase) continue;
          visited[j] = phase;
          const vertex_t i2 = r.col_mate[j];  // j is matched: lookahead found no free one
          stack_cols.push_back(j);
          stack_rows.push_back(i2);
          next[i2] = a.degree(i2);
          --next[i];
          descended = true;
          break;
        }
        if (!descended) {
          stack_rows.pop_back();
          if (!stack_cols.empty()) stack_cols.pop_back();
        }
      }
      if (found < 0) continue;
      // Augment along the path: stack_rows[t] takes stack_cols[t] (t >= 1 shifted).
      vertex_t j = found;
      for (std::size_t t = stack_rows.size(); t-- > 0;) {
        const vertex_t i = stack_rows[t];
        const vertex_t old = r.row_mate[i];
        r.row_mate[i] = j;
        r.col_mate[j] = i;
        j = old;
      }
      ++r.matched;
      ++augmented;
    }
    if (augmented == 0) break;
  }
  return r;
}

// The start: one-sided Karp-Sipser. A column left with one entry whose row
// is unmatched can only ever be matched to that row, so it takes it at once
// (the degree-one rule, on columns only: rows would need the transpose); the
// other rows take their first free column, and each match may leave columns
// with one row, which cascade. tally[j] counts column j's entries from
// unmatched rows and XORs those rows, so at count one it names the row.
template <class W>
BipartiteMates karp_sipser_start(const Csr<W>& a) {
  BipartiteMates r;
  r.row_mate.assign(a.n_rows, -1);
  r.col_mate.assign(a.n_cols, -1);
  std::vector<std::pair<vertex_t, vertex_t>> tally(a.n_cols);  // (count, XOR of rows)
  for (vertex_t i = 0; i < a.n_rows; ++i)
    for (offset_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k) {
      ++tally[a.cols[k]].first;
      tally[a.cols[k]].second ^= i;
    }
  std::vector<vertex_t> ones;  // columns that fell to one row
  // Matches i and j; i leaves the tallies of its free columns (a matched
  // column's tally no longer counts).
  const auto match = [&](vertex_t i, vertex_t j) {
    r.row_mate[i] = j;
    r.col_mate[j] = i;
    ++r.matched;
    for (offset_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k) {
      const vertex_t c = a.cols[k];
      if (r.col_mate[c] >= 0) continue;
      tally[c].second ^= i;
      if (--tally[c].first == 1) ones.push_back(c);
    }
  };
  // A free column down to one row takes it: that row is unmatched, since a
  // matched row has left the tallies of the columns that were free then.
  const auto cascade = [&] {
    while (!ones.empty()) {
      const vertex_t c = ones.back();
      ones.pop_back();
      if (r.col_mate[c] < 0 && tally[c].first == 1) match(tally[c].second, c);
    }
  };
  for (vertex_t j = 0; j < a.n_cols; ++j)
    if (tally[j].first == 1) {
      ones.push_back(j);
      cascade();
    }
  for (vertex_t i = 0; i < a.n_rows; ++i)
    for (offset_t k = a.offsets[i]; k < a.offsets[i + 1] && r.row_mate[i] < 0; ++k)
      if (r.col_mate[a.cols[k]] < 0) {
        match(i, a.cols[k]);
        cascade();
      }
  return r;
}

}  // namespace

template <class W>
BipartiteMates max_cardinality_bipartite(const Csr<W>& a) {
  check_bipartite_csr(a);
  return augment_to_maximum(a, karp_sipser_start(a));
}

template <class W>
BipartiteMates max_cardinality_bipartite(const Csr<W>& a, BipartiteMates start) {
  check_bipartite_csr(a);
  MATCHBLAS_EXPECTS(start.row_mate.size() == std::size_t(a.n_rows) && start.col_mate.size() == std::size_t(a.n_cols),
                    "max_cardinality_bipartite: the start matching has the wrong size");
  return augment_to_maximum(a, std::move(start));
}

#define MATCHBLAS_INSTANTIATE(W)                                                      \
  template void check_bipartite_csr(const Csr<W>&);                                  \
  template BipartiteMates max_cardinality_bipartite(const Csr<W>&);                  \
  template BipartiteMates max_cardinality_bipartite(const Csr<W>&, BipartiteMates);
MATCHBLAS_INSTANTIATE(float)
MATCHBLAS_INSTANTIATE(double)
#undef MATCHBLAS_INSTANTIATE

}  // namespace matchblas
