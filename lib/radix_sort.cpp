// The parallel LSD radix sort; see radix_sort.hpp.
#include "lib/radix_sort.hpp"

#include <omp.h>

#include <algorithm>
#include <memory>
#include <utility>

#include "lib/error.hpp"

namespace matchblas {

void radix_sort_with_index(std::vector<std::uint64_t>& keys, std::vector<std::uint32_t>& index, int threads) {
  MATCHBLAS_EXPECTS(keys.size() == index.size(), "radix_sort_with_index: as many keys as indices");
  const std::int64_t n = std::int64_t(keys.size());
  const int t = std::max(1, std::min<int>(threads > 0 ? threads : omp_get_max_threads(), int(std::max<std::int64_t>(1, n >> 15))));
  // The digits that vary: where some key's bit differs from another's.
  std::uint64_t any = 0, all = ~std::uint64_t(0);
#pragma omp parallel for schedule(static) num_threads(t) reduction(| : any) reduction(& : all)
  for (std::int64_t i = 0; i < n; ++i) {
    any |= keys[std::size_t(i)];
    all &= keys[std::size_t(i)];
  }
  const std::uint64_t varying = n > 0 ? any ^ all : 0;
  std::unique_ptr<std::uint64_t[]> key_scratch;
  std::unique_ptr<std::uint32_t[]> index_scratch;
  std::uint64_t* key_in = keys.data();
  std::uint32_t* index_in = index.data();
  std::uint64_t* key_out = nullptr;
  std::uint32_t* index_out = nullptr;
  std::vector<std::int64_t> count(std::size_t(t) * 256);
  for (int shift = 0; shift < 64; shift += 8) {
    if (((varying >> shift) & 0xff) == 0) continue;
    if (!key_out) {  // uninitialised: the passes' first touch writes them on the threads
      key_scratch.reset(new std::uint64_t[std::size_t(n)]);
      index_scratch.reset(new std::uint32_t[std::size_t(n)]);
      key_out = key_scratch.get();
      index_out = index_scratch.get();
    }
#pragma omp parallel num_threads(t)
    {
      const int p = omp_get_num_threads(), c = omp_get_thread_num();
      const std::int64_t lo = n * c / p, hi = n * (c + 1) / p;
      std::int64_t* mine = count.data() + std::size_t(c) * 256;
      std::fill(mine, mine + 256, 0);
      for (std::int64_t i = lo; i < hi; ++i) ++mine[(key_in[i] >> shift) & 0xff];
#pragma omp barrier
#pragma omp single
      {
        std::int64_t at = 0;
        for (int d = 0; d < 256; ++d)
          for (int q = 0; q < p; ++q) at += std::exchange(count[std::size_t(q) * 256 + std::size_t(d)], at);
      }
      for (std::int64_t i = lo; i < hi; ++i) {
        const std::int64_t to = mine[(key_in[i] >> shift) & 0xff]++;
        key_out[to] = key_in[i];
        index_out[to] = index_in[i];
      }
    }
    std::swap(key_in, key_out);
    std::swap(index_in, index_out);
  }
  if (key_in != keys.data()) {  // an odd number of passes: the result is in the scratch
#pragma omp parallel for schedule(static) num_threads(t)
    for (std::int64_t i = 0; i < n; ++i) {
      keys[std::size_t(i)] = key_in[i];
      index[std::size_t(i)] = index_in[i];
    }
  }
}

}  // namespace matchblas
