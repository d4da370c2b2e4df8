// Weights as their ranks in float form; see weight_ranks.hpp.
#include "lib/weight_ranks.hpp"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <parallel/algorithm>
#include <string>

#include "lib/error.hpp"

namespace matchblas {

namespace {

constexpr std::uint32_t smallest_normal = 0x00800000u, largest_finite = 0x7f7fffffu;

}  // namespace

template <class W>
std::vector<float> weight_ranks(const Csr<W>& g, int threads) {
  const int t = threads > 0 ? threads : omp_get_max_threads();
  std::vector<W> distinct(g.weights.begin(), g.weights.end());
  for (std::size_t k = 0; k < distinct.size(); ++k)
    if (std::isnan(double(distinct[k])))
      throw invalid_input("weight_ranks: entry " + std::to_string(k) + " has a NaN weight");
  if (t > 1 && distinct.size() > (std::size_t(1) << 16))
    __gnu_parallel::sort(distinct.begin(), distinct.end(), __gnu_parallel::multiway_mergesort_tag(t));
  else
    std::sort(distinct.begin(), distinct.end());
  // -0 and +0 compare equal, so they are one weight (unique keeps the first).
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  if (distinct.size() > std::size_t(largest_finite - smallest_normal))
    throw error("weight_ranks: " + std::to_string(distinct.size()) + " distinct weights; at most " +
                std::to_string(largest_finite - smallest_normal) + " fit the float ranks");
  std::vector<float> out(g.weights.size());
  const std::int64_t entries = std::int64_t(out.size());
#pragma omp parallel for schedule(static) num_threads(t)
  for (std::int64_t k = 0; k < entries; ++k) {
    const W w = g.weights[std::size_t(k)];
    const auto rank = std::uint32_t(std::lower_bound(distinct.begin(), distinct.end(), w) - distinct.begin());
    out[std::size_t(k)] = std::bit_cast<float>(smallest_normal + rank);
  }
  return out;
}

template std::vector<float> weight_ranks(const Csr<float>&, int);
template std::vector<float> weight_ranks(const Csr<double>&, int);

}  // namespace matchblas
