#include "tests/check/four_cycles.hpp"

#include <cmath>
#include <cstdint>
#include <unordered_map>

namespace matchblas::check {

FourCycle largest_4_cycle(const Csr<double>& a, const std::vector<vertex_t>& row_mate) {
  std::unordered_map<std::int64_t, double> value;
  value.reserve(a.cols.size());
  const auto key = [&](vertex_t i, vertex_t j) { return std::int64_t(i) * a.n_cols + j; };
  for (vertex_t i = 0; i < a.n_rows; ++i)
    for (offset_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k)
      value.emplace(key(i, a.cols[k]), std::fabs(a.weights[k]));  // keeps the first
  std::vector<vertex_t> matched;
  for (vertex_t i = 0; i < a.n_rows; ++i)
    if (row_mate[i] >= 0) matched.push_back(i);
  FourCycle best;
  for (std::size_t x = 0; x < matched.size(); ++x)
    for (std::size_t y = x + 1; y < matched.size(); ++y) {
      const vertex_t i = matched[x], k = matched[y], j = row_mate[i], l = row_mate[k];
      const auto il = value.find(key(i, l));
      if (il == value.end()) continue;
      const auto kj = value.find(key(k, j));
      if (kj == value.end()) continue;
      const double gain = il->second + kj->second - value.at(key(i, j)) - value.at(key(k, l));
      if (best.row < 0 || gain > best.gain) best = {i, k, gain};
    }
  return best;
}

}  // namespace matchblas::check
