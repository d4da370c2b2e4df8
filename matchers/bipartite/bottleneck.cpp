// Bottleneck matching: the bound of the row and column maxima first, then a
// binary search over the thresholds below it (see bottleneck.hpp for source,
// guarantee and cost).
#include "matchers/bipartite/bottleneck.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "lib/error.hpp"
#include "matchers/bipartite/dm_blocks.hpp"
#include "ops/transpose.hpp"

namespace matchblas {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

// The pattern of the entries of a with |a_ij| >= t (no values: the
// maximum matchings read the pattern only).
Csr<double> pattern_at_least(const Csr<double>& a, double t) {
  Csr<double> s;
  s.n_rows = a.n_rows;
  s.n_cols = a.n_cols;
  s.offsets.resize(std::size_t(a.n_rows) + 1);
  s.cols.reserve(a.cols.size());
  s.offsets[0] = 0;
  for (vertex_t i = 0; i < a.n_rows; ++i) {
    for (offset_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k)
      if (std::fabs(a.weights[k]) >= t) s.cols.push_back(a.cols[k]);
    s.offsets[i + 1] = static_cast<offset_t>(s.cols.size());
  }
  return s;
}

// |a_ij| of each row's matched entry (-1 for an unmatched row).
std::vector<double> matched_values(const Csr<double>& a, const BipartiteMates& m) {
  std::vector<double> v(a.n_rows, -1);
  for (vertex_t i = 0; i < a.n_rows; ++i)
    if (m.row_mate[i] >= 0)
      for (offset_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k)
        if (a.cols[k] == m.row_mate[i]) {
          v[i] = std::fabs(a.weights[k]);
          break;
        }
  return v;
}

double smallest_matched(const std::vector<double>& values) {
  double s = inf;
  for (double x : values)
    if (x >= 0) s = std::min(s, x);
  return s;
}

// The pairs of m whose value is at least t.
BipartiteMates surviving(const BipartiteMates& m, const std::vector<double>& values, double t) {
  BipartiteMates r;
  r.row_mate.assign(m.row_mate.size(), -1);
  r.col_mate.assign(m.col_mate.size(), -1);
  for (std::size_t i = 0; i < m.row_mate.size(); ++i)
    if (values[i] >= t) {
      r.row_mate[i] = m.row_mate[i];
      r.col_mate[m.row_mate[i]] = static_cast<vertex_t>(i);
      ++r.matched;
    }
  return r;
}

// The bottleneck matching of every nonempty row of a, when a matching of
// them all exists; otherwise false, r.mates then a maximum matching of a.
bool match_every_row(const Csr<double>& a, BottleneckMatching& r) {
  const vertex_t m = a.n_rows, n = a.n_cols;
  // The bound: a matched row keeps one of its entries, so no matching of
  // every row does better than the smallest row maximum; when the
  // nonempty columns are as many as the rows, every one of them is matched
  // too, and the smallest column maximum bounds it as well.
  std::vector<double> col_max(n, -1);
  double bound = inf;
  vertex_t rows = 0, cols = 0;
  for (vertex_t i = 0; i < m; ++i) {
    if (a.offsets[i + 1] == a.offsets[i]) continue;
    ++rows;
    double row_max = 0;
    for (offset_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k) {
      const double x = std::fabs(a.weights[k]);
      row_max = std::max(row_max, x);
      col_max[a.cols[k]] = std::max(col_max[a.cols[k]], x);
    }
    bound = std::min(bound, row_max);
  }
  for (vertex_t j = 0; j < n; ++j) cols += col_max[j] >= 0;
  if (rows == cols)
    for (vertex_t j = 0; j < n; ++j)
      if (col_max[j] >= 0) bound = std::min(bound, col_max[j]);
  if (rows == 0) {
    r.mates.row_mate.assign(m, -1);
    r.mates.col_mate.assign(n, -1);
    return true;
  }
  // hi: a maximum matching of the entries >= hi_value; lo: a matching of
  // every row with entries >= lo_value.
  BipartiteMates hi = max_cardinality_bipartite(pattern_at_least(a, bound));
  ++r.thresholds_tried;
  if (hi.matched == rows) {
    r.mates = std::move(hi);
    r.bottleneck = smallest_matched(matched_values(a, r.mates));
    return true;
  }
  BipartiteMates lo = max_cardinality_bipartite(a, hi);
  ++r.thresholds_tried;
  if (lo.matched < rows) {
    r.mates = std::move(lo);
    return false;
  }
  std::vector<double> lo_values = matched_values(a, lo);
  double lo_value = smallest_matched(lo_values), hi_value = bound;
  std::vector<double> candidates;
  for (double w : a.weights)
    if (std::fabs(w) > lo_value && std::fabs(w) < hi_value) candidates.push_back(std::fabs(w));
  while (!candidates.empty()) {
    const auto mid = candidates.begin() + candidates.size() / 2;
    std::nth_element(candidates.begin(), mid, candidates.end());
    const double t = *mid;
    vertex_t kept = 0;
    for (double x : lo_values) kept += x >= t;
    BipartiteMates trial =
        max_cardinality_bipartite(pattern_at_least(a, t), kept > hi.matched ? surviving(lo, lo_values, t) : hi);
    ++r.thresholds_tried;
    if (trial.matched == rows) {
      lo = std::move(trial);
      lo_values = matched_values(a, lo);
      lo_value = smallest_matched(lo_values);
      std::erase_if(candidates, [&](double x) { return x <= lo_value; });
    } else {
      hi = std::move(trial);
      hi_value = t;
      std::erase_if(candidates, [&](double x) { return x >= hi_value; });
    }
  }
  r.mates = std::move(lo);
  r.bottleneck = lo_value;
  return true;
}

BottleneckMatching transposed(BottleneckMatching t) {
  std::swap(t.mates.row_mate, t.mates.col_mate);
  return t;
}

}  // namespace

BottleneckMatching bottleneck_matching(const Csr<double>& a) {
  check_bipartite_csr(a);
  if (a.weights.size() != a.cols.size())
    throw invalid_input("bottleneck: " + std::to_string(a.weights.size()) + " values for " +
                        std::to_string(a.cols.size()) + " entries");
  for (vertex_t i = 0; i < a.n_rows; ++i)
    for (offset_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k)
      if (std::isnan(a.weights[k]))
        throw invalid_input("bottleneck: the entry at row " + std::to_string(i) + ", column " +
                            std::to_string(a.cols[k]) + " is NaN");
  if (a.n_rows > a.n_cols) return transposed(bottleneck_matching(ops::transpose(a, ops::Backend::plain)));
  BottleneckMatching r;
  if (match_every_row(a, r)) {
    if (r.mates.matched == 0) r.bottleneck = 0;
    return r;
  }
  // Structurally rank deficient: every maximum matching keeps to the coarse
  // Dulmage-Mendelsohn blocks and matches every row of the horizontal and
  // square blocks and every column of the vertical one, so each block is a
  // problem of its own (the vertical one transposed).
  const Csr<double> at = ops::transpose(a, ops::Backend::plain);
  const DmBlocks d = coarse_dm_blocks(a, at, r.mates);
  const vertex_t rank = r.mates.matched;
  BottleneckMatching b;
  b.mates.row_mate.assign(a.n_rows, -1);
  b.mates.col_mate.assign(a.n_cols, -1);
  b.bottleneck = inf;
  b.thresholds_tried = r.thresholds_tried;
  for (int block = DmBlocks::horizontal; block <= DmBlocks::vertical; ++block) {
    if (d.rows[block].empty() || d.cols[block].empty()) continue;
    const bool more_rows = block == DmBlocks::vertical;
    BottleneckMatching s;
    if (!match_every_row(dm_block(more_rows ? at : a, d, block, more_rows), s))
      throw std::logic_error("bottleneck: a Dulmage-Mendelsohn block cannot be matched whole");
    add_dm_block(b.mates, s.mates, d, block, more_rows);
    b.bottleneck = std::min(b.bottleneck, s.bottleneck);
    b.thresholds_tried += s.thresholds_tried;
  }
  if (b.mates.matched != rank)
    throw std::logic_error("bottleneck: the blocks matched " + std::to_string(b.mates.matched) + " of a maximum of " +
                           std::to_string(rank));
  if (b.mates.matched == 0) b.bottleneck = 0;
  return b;
}

}  // namespace matchblas
