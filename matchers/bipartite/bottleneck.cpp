// Bottleneck matching: the bound of the row and column maxima first, then a
// binary search over the thresholds below it, finished by widest augmenting
// paths (see bottleneck.hpp for source, guarantee and cost).
#include "matchers/bipartite/bottleneck.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

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
  s.cols.resize(a.cols.size());
  offset_t p = 0;  // every column written, kept when >= t: no branch
  for (vertex_t i = 0; i < a.n_rows; ++i) {
    for (offset_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k) {
      s.cols[p] = a.cols[k];
      p += std::fabs(a.weights[k]) >= t;
    }
    s.offsets[i + 1] = p;
  }
  s.cols.resize(p);
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

// The next threshold between lo and hi (exclusive): the median of the
// values |a_ij| there, or of every stride-th of them when they are more
// than 2 * sample_size (so the copy stays small; the search then halves the
// range within a few percent). NaN when no value lies between.
double pivot(const Csr<double>& a, double lo, double hi, std::vector<double>& sample) {
  constexpr std::size_t sample_size = 4096;
  std::size_t count = 0;
  for (double w : a.weights) count += std::fabs(w) > lo && std::fabs(w) < hi;
  if (count == 0) return std::numeric_limits<double>::quiet_NaN();
  const std::size_t stride = count > 2 * sample_size ? count / sample_size : 1;
  sample.clear();
  std::size_t seen = 0;
  for (double w : a.weights)
    if (std::fabs(w) > lo && std::fabs(w) < hi && seen++ % stride == 0) sample.push_back(std::fabs(w));
  const auto mid = sample.begin() + sample.size() / 2;
  std::nth_element(sample.begin(), mid, sample.end());
  return *mid;
}

// Widest augmenting paths (MC64's job 2 searches): from each free nonempty
// row of m in turn, a path to a free column whose smallest |a_ij| is
// largest, the bound lowered to its width. Dijkstra-like: the columns
// reached at the bound (widths are capped there: any of them is as good)
// wait on a stack and go first, the others in a max-heap; a free column
// reached at the bound ends the search at once. When m's entries are all
// >= bound >= the optimum and every row can be matched, each path found is
// at least the optimum wide (Berge, in the entries >= the optimum), so the
// bound ends equal to it. False when a row has no path at all (m stays a
// valid matching).
bool widest_augmentations(const Csr<double>& a, BipartiteMates& m, double& bound, int& searches) {
  const vertex_t n = a.n_cols;
  std::vector<double> width(n);
  std::vector<vertex_t> seen(n, -1), done(n, -1), pred(n), stack;
  std::vector<std::pair<double, vertex_t>> heap;
  for (vertex_t root = 0; root < a.n_rows; ++root) {
    if (m.row_mate[root] >= 0 || a.offsets[root] == a.offsets[root + 1]) continue;
    ++searches;
    stack.clear();
    heap.clear();
    vertex_t found = -1;
    // Row i, reached by a path of width w, reaches its columns.
    const auto scan = [&](vertex_t i, double w) {
      for (offset_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k) {
        const vertex_t j = a.cols[k];
        const double x = std::min(w, std::fabs(a.weights[k]));
        if (done[j] == root || (seen[j] == root && width[j] >= x)) continue;
        seen[j] = root;
        width[j] = x;
        pred[j] = i;
        if (x < bound) {
          heap.emplace_back(x, j);
          std::push_heap(heap.begin(), heap.end());
        } else if (m.col_mate[j] < 0) {
          found = j;
          return;
        } else {
          stack.push_back(j);
        }
      }
    };
    scan(root, bound);
    while (found < 0) {
      vertex_t j;
      if (!stack.empty()) {
        j = stack.back();
        stack.pop_back();
      } else if (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end());
        j = heap.back().second;
        const double x = heap.back().first;
        heap.pop_back();
        if (x != width[j]) continue;  // reached wider since
      } else {
        return false;
      }
      if (done[j] == root) continue;
      done[j] = root;
      if (m.col_mate[j] < 0) found = j;  // the widest left: the heap's order
      else scan(m.col_mate[j], width[j]);
    }
    bound = std::min(bound, width[found]);
    flip_augmenting_path(m, pred, found);  // back to the root, which was free
  }
  return true;
}

// The bottleneck matching of every nonempty row of a, when a matching of
// them all exists; otherwise false, r.mates then a maximum matching of a.
bool match_every_row(const Csr<double>& a, const BottleneckOptions& options, BottleneckMatching& r) {
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
  if (hi.matched == rows) {  // every matched entry >= bound, which bounds the smallest: equal
    r.mates = std::move(hi);
    r.bottleneck = bound;
    return true;
  }
  // Few rows left free: widest augmenting paths from them finish it (each
  // search may scan the whole matrix, as a threshold test does).
  const auto widen = [&](BipartiteMates& from, double from_value) {
    r.bottleneck = from_value;
    const bool every_row = widest_augmentations(a, from, r.bottleneck, r.widest_searches);
    r.mates = std::move(from);
    return every_row;
  };
  if (rows - hi.matched <= options.widest_limit) {
    if (widen(hi, bound)) return true;
    r.mates = max_cardinality_bipartite(a, std::move(r.mates));
    ++r.thresholds_tried;
    return false;
  }
  BipartiteMates lo = max_cardinality_bipartite(a, hi);
  ++r.thresholds_tried;
  if (lo.matched < rows) {
    r.mates = std::move(lo);
    return false;
  }
  std::vector<double> lo_values = matched_values(a, lo);
  double lo_value = smallest_matched(lo_values), hi_value = bound;
  std::vector<double> sample;
  for (double t; !std::isnan(t = pivot(a, lo_value, hi_value, sample));) {
    vertex_t kept = 0;
    for (double x : lo_values) kept += x >= t;
    BipartiteMates trial =
        max_cardinality_bipartite(pattern_at_least(a, t), kept > hi.matched ? surviving(lo, lo_values, t) : hi);
    ++r.thresholds_tried;
    if (trial.matched == rows) {
      lo = std::move(trial);
      lo_values = matched_values(a, lo);
      lo_value = smallest_matched(lo_values);
    } else {
      hi = std::move(trial);
      hi_value = t;
      if (rows - hi.matched <= options.widest_limit) {
        if (!widen(hi, hi_value)) throw std::logic_error("bottleneck: a row lost its augmenting path");
        return true;
      }
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

BottleneckMatching bottleneck_matching(const Csr<double>& a, const BottleneckOptions& options) {
  check_bipartite_values(a, "bottleneck");
  if (a.n_rows > a.n_cols) return transposed(bottleneck_matching(ops::transpose(a, ops::Backend::plain), options));
  BottleneckMatching r;
  if (match_every_row(a, options, r)) {
    if (r.mates.matched == 0) r.bottleneck = 0;
    return r;
  }
  // Structurally rank deficient: every maximum matching keeps to the coarse
  // Dulmage-Mendelsohn blocks and matches every row of the horizontal and
  // square blocks and every column of the vertical one, so each block is a
  // problem of its own (the vertical one transposed, and taken first, so
  // that the transpose can go before the searches).
  Csr<double> at = ops::transpose(a, ops::Backend::plain);
  const DmBlocks d = coarse_dm_blocks(a, at, r.mates);
  Csr<double> vertical = dm_block(at, d, DmBlocks::vertical, true);
  at = {};
  const vertex_t rank = r.mates.matched;
  BottleneckMatching b;
  b.mates.row_mate.assign(a.n_rows, -1);
  b.mates.col_mate.assign(a.n_cols, -1);
  b.bottleneck = inf;
  b.thresholds_tried = r.thresholds_tried;
  b.widest_searches = r.widest_searches;
  for (int block : {DmBlocks::vertical, DmBlocks::horizontal, DmBlocks::square}) {
    if (d.rows[block].empty() || d.cols[block].empty()) continue;
    const bool more_rows = block == DmBlocks::vertical;
    BottleneckMatching s;
    if (!match_every_row(more_rows ? std::exchange(vertical, {}) : dm_block(a, d, block), options, s))
      throw std::logic_error("bottleneck: a Dulmage-Mendelsohn block cannot be matched whole");
    add_dm_block(b.mates, s.mates, d, block, more_rows);
    b.bottleneck = std::min(b.bottleneck, s.bottleneck);
    b.thresholds_tried += s.thresholds_tried;
    b.widest_searches += s.widest_searches;
  }
  if (b.mates.matched != rank)
    throw std::logic_error("bottleneck: the blocks matched " + std::to_string(b.mates.matched) + " of a maximum of " +
                           std::to_string(rank));
  if (b.mates.matched == 0) b.bottleneck = 0;
  return b;
}

}  // namespace matchblas
