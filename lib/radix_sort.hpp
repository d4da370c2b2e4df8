// A parallel LSD radix sort of 64-bit keys, each carrying a 32-bit index:
// 8-bit digits, least significant first, each pass stable, so equal keys
// keep their indices' input order. A first pass counts every digit's values
// at once; a digit that every key shares is skipped (the high bytes of
// doubles near one scale, the low bytes of floats widened to doubles).
// Each pass that runs: the threads count their chunk's digits, the counts'
// prefix sums (digit-major, thread-minor) give each thread its places, and
// each thread moves its chunk there.
// Cost: O(n) per pass, at most 8 passes; 12 bytes per entry read and
// written a pass, plus as much again in scratch while it runs.
// order_key maps a double to a key whose unsigned order is the double's
// (-0 and +0 one key; NaN has none: the callers reject it first), and
// from_order_key maps it back.
#pragma once
#include <bit>
#include <cstdint>
#include <vector>

namespace matchblas {

void radix_sort_with_index(std::vector<std::uint64_t>& keys, std::vector<std::uint32_t>& index, int threads);

inline std::uint64_t order_key(double w) {
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(w == 0 ? 0.0 : w);
  return bits >> 63 ? ~bits : bits | (std::uint64_t(1) << 63);
}

inline double from_order_key(std::uint64_t key) {
  return std::bit_cast<double>(key >> 63 ? key & ~(std::uint64_t(1) << 63) : ~key);
}

}  // namespace matchblas
