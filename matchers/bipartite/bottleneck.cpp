// Bottleneck matching by a binary search over thresholds (see bottleneck.hpp
// for source, guarantee and cost).
#include "matchers/bipartite/bottleneck.hpp"

#include <algorithm>
#include <cmath>

namespace matchblas {
namespace {

// The entries of a with |a_ij| >= t.
Csr<double> at_least(const Csr<double>& a, double t) {
  Csr<double> s;
  s.n_rows = a.n_rows;
  s.n_cols = a.n_cols;
  s.offsets.assign(1, 0);
  s.offsets.reserve(std::size_t(a.n_rows) + 1);
  for (vertex_t i = 0; i < a.n_rows; ++i) {
    for (offset_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k)
      if (std::fabs(a.weights[k]) >= t) {
        s.cols.push_back(a.cols[k]);
        s.weights.push_back(a.weights[k]);
      }
    s.offsets.push_back(static_cast<offset_t>(s.cols.size()));
  }
  return s;
}

// The pairs of m whose entry in a is at least t.
BipartiteMates surviving(const Csr<double>& a, const BipartiteMates& m, double t) {
  BipartiteMates r;
  r.row_mate.assign(a.n_rows, -1);
  r.col_mate.assign(a.n_cols, -1);
  for (vertex_t i = 0; i < a.n_rows; ++i)
    for (offset_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k)
      if (a.cols[k] == m.row_mate[i] && std::fabs(a.weights[k]) >= t) {
        r.row_mate[i] = a.cols[k];
        r.col_mate[a.cols[k]] = i;
        ++r.matched;
        break;
      }
  return r;
}

}  // namespace

BottleneckMatching bottleneck_matching(const Csr<double>& a) {
  check_bipartite_csr(a);
  BottleneckMatching r;
  r.mates = max_cardinality_bipartite(a);
  if (r.mates.matched == 0) return r;
  std::vector<double> values(a.weights.size());
  std::transform(a.weights.begin(), a.weights.end(), values.begin(), [](double w) { return std::fabs(w); });
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  // values[lo] is feasible (r.mates is a maximum matching using entries >= it);
  // values above hi are not.
  std::size_t lo = 0, hi = values.size() - 1;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo + 1) / 2;
    const Csr<double> sub = at_least(a, values[mid]);
    BipartiteMates trial = max_cardinality_bipartite(sub, surviving(a, r.mates, values[mid]));
    ++r.thresholds_tried;
    if (trial.matched == r.mates.matched) {
      lo = mid;
      r.mates = std::move(trial);
    } else {
      hi = mid - 1;
    }
  }
  r.bottleneck = values[lo];
  return r;
}

}  // namespace matchblas
