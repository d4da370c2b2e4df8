// Weights as their ranks in float form; see weight_ranks.hpp.
#include "lib/weight_ranks.hpp"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>

#include "lib/error.hpp"
#include "lib/radix_sort.hpp"

namespace matchblas {

namespace {

constexpr std::uint32_t smallest_normal = 0x00800000u, largest_finite = 0x7f7fffffu;

}  // namespace

template <class W>
DistinctValues<W> distinct_values(const std::vector<W>& v, int threads) {
  const int t = threads > 0 ? threads : omp_get_max_threads();
  if (v.size() > std::size_t(UINT32_MAX)) throw error("distinct_values: more than 2^32 entries");
  // The entries by value: their order keys (exact for floats and doubles;
  // -0 and +0 one key) radix-sorted with their indices.
  const std::int64_t n = std::int64_t(v.size());
  std::vector<std::uint64_t> keys(v.size());
  std::vector<std::uint32_t> entry(v.size());
#pragma omp parallel for schedule(static) num_threads(t)
  for (std::int64_t k = 0; k < n; ++k) {
    keys[std::size_t(k)] = order_key(double(v[std::size_t(k)]));
    entry[std::size_t(k)] = std::uint32_t(k);
  }
  radix_sort_with_index(keys, entry, t);
  // Chunks of the sorted keys: each counts the values that start in it
  // (a key differs from the one before it), the counts' prefix sums number
  // them, and each chunk writes its entries' positions.
  const std::int64_t chunks = std::min<std::int64_t>(t, std::max<std::int64_t>(1, n >> 16));
  std::vector<std::int64_t> starts(std::size_t(chunks) + 1, 0);
  const auto first_of = [&](std::int64_t c) { return n * c / chunks; };
  const auto starts_here = [&](std::int64_t i) { return i == 0 || keys[std::size_t(i - 1)] != keys[std::size_t(i)]; };
#pragma omp parallel for schedule(static) num_threads(t)
  for (std::int64_t c = 0; c < chunks; ++c) {
    std::int64_t count = 0;
    for (std::int64_t i = first_of(c); i < first_of(c + 1); ++i) count += starts_here(i);
    starts[std::size_t(c) + 1] = count;
  }
  for (std::int64_t c = 0; c < chunks; ++c) starts[std::size_t(c) + 1] += starts[std::size_t(c)];
  DistinctValues<W> out;
  out.values.resize(std::size_t(starts.back()));
  out.position.resize(v.size());
#pragma omp parallel for schedule(static) num_threads(t)
  for (std::int64_t c = 0; c < chunks; ++c) {
    std::int64_t at = starts[std::size_t(c)] - 1;
    for (std::int64_t i = first_of(c); i < first_of(c + 1); ++i) {
      if (starts_here(i)) out.values[std::size_t(++at)] = W(from_order_key(keys[std::size_t(i)]));
      out.position[entry[std::size_t(i)]] = std::uint32_t(at);
    }
  }
  return out;
}

template <class W>
std::vector<float> weight_ranks(const Csr<W>& g, int threads) {
  const int t = threads > 0 ? threads : omp_get_max_threads();
  for (std::size_t k = 0; k < g.weights.size(); ++k)
    if (std::isnan(double(g.weights[k])))
      throw invalid_input("weight_ranks: entry " + std::to_string(k) + " has a NaN weight");
  const DistinctValues<W> d = distinct_values(g.weights, t);
  if (d.values.size() > std::size_t(largest_finite - smallest_normal))
    throw error("weight_ranks: " + std::to_string(d.values.size()) + " distinct weights; at most " +
                std::to_string(largest_finite - smallest_normal) + " fit the float ranks");
  std::vector<float> out(g.weights.size());
  const std::int64_t entries = std::int64_t(out.size());
#pragma omp parallel for schedule(static) num_threads(t)
  for (std::int64_t k = 0; k < entries; ++k)
    out[std::size_t(k)] = std::bit_cast<float>(smallest_normal + d.position[std::size_t(k)]);
  return out;
}

template DistinctValues<float> distinct_values(const std::vector<float>&, int);
template DistinctValues<double> distinct_values(const std::vector<double>&, int);
template std::vector<float> weight_ranks(const Csr<float>&, int);
template std::vector<float> weight_ranks(const Csr<double>&, int);

}  // namespace matchblas
