// Counter-based random numbers (generators, pattern weights, randomised
// matchers): every draw is a pure function of (seed, stream, index), so draws
// can be made in any order, by any number of threads, and always give the
// same values.
//
// Source: the splitmix64 finalizer (Steele, Lea, Flood 2014, "Fast splittable
// pseudorandom number generators"; constants of Stafford's variant 13), used
// as a keyed hash in the spirit of Random123's counter-based generators
// (Salmon et al. 2011). hash(seed, stream, i) = mix(key(seed, stream) ^ mix(i));
// for a fixed key it is a bijection of i, so one stream never repeats itself.
// Cost: two 64-bit mixes (4 multiplies) per draw; no state, no allocation.
#pragma once
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "lib/host_device.hpp"

namespace matchblas::rng {

// The splitmix64 output function: a bijection of 64-bit words with full
// avalanche.
MATCHBLAS_HD constexpr std::uint64_t mix64(std::uint64_t x) noexcept {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// One stream of draws: the key is mixed once, each draw mixes its index.
class Stream {
 public:
  MATCHBLAS_HD constexpr Stream(std::uint64_t seed, std::uint64_t stream) noexcept
      : key_(mix64(mix64(seed) ^ (stream * 0xD1B54A32D192ED03ull + 0x8CB92BA72F3D8DD7ull))) {}

  // 64 random bits for draw i.
  MATCHBLAS_HD constexpr std::uint64_t bits(std::uint64_t i) const noexcept {
    return mix64(key_ ^ mix64(i ^ 0x632BE59BD9B4E019ull));
  }
  // Uniform in [0, 1), multiples of 2^-53.
  MATCHBLAS_HD double uniform01(std::uint64_t i) const noexcept {
    return static_cast<double>(bits(i) >> 11) * 0x1.0p-53;
  }
  // Uniform in [0, 1], both ends included (53-bit grid).
  MATCHBLAS_HD double uniform_closed(std::uint64_t i) const noexcept {
    return static_cast<double>(bits(i) >> 11) / 0x1.fffffffffffffp+52;
  }
  // Uniform in (0, 1], multiples of 2^-53: never zero.
  MATCHBLAS_HD double uniform_open_closed(std::uint64_t i) const noexcept {
    return static_cast<double>((bits(i) >> 11) + 1) * 0x1.0p-53;
  }
  // Uniform integer in [0, bound), bound >= 1 (Lemire's multiply-shift; the
  // bias is below bound / 2^64).
  MATCHBLAS_HD std::uint64_t below(std::uint64_t i, std::uint64_t bound) const noexcept {
#ifdef __CUDA_ARCH__
    return __umul64hi(bits(i), bound);
#else
    __extension__ using u128 = unsigned __int128;
    return static_cast<std::uint64_t>((static_cast<u128>(bits(i)) * bound) >> 64);
#endif
  }
  // Exponential with rate lambda, by the inverse CDF -ln(1 - u) / lambda,
  // u uniform in [0, 1): finite and >= 0.
  // (The device's log1p may differ from the host's in the last bit.)
  MATCHBLAS_HD double exponential(std::uint64_t i, double lambda) const noexcept {
#ifdef __CUDA_ARCH__
    return -::log1p(-uniform01(i)) / lambda;
#else
    return -std::log1p(-uniform01(i)) / lambda;
#endif
  }

 private:
  std::uint64_t key_;
};

// Single-draw conveniences (the key is recomputed each call).
inline double uniform01(std::uint64_t seed, std::uint64_t stream, std::uint64_t i) noexcept {
  return Stream(seed, stream).uniform01(i);
}
inline double uniform_open_closed(std::uint64_t seed, std::uint64_t stream,
                                  std::uint64_t i) noexcept {
  return Stream(seed, stream).uniform_open_closed(i);
}
inline double exponential(std::uint64_t seed, std::uint64_t stream, std::uint64_t i,
                          double lambda) noexcept {
  return Stream(seed, stream).exponential(i, lambda);
}

// A seeded Fisher-Yates shuffle of v using draws base + 2 .. base + size of
// s (the same order for the same arguments on every machine).
template <class T>
void shuffle(std::vector<T>& v, const Stream& s, std::uint64_t base = 0) {
  for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[s.below(base + i, i)]);
}

}  // namespace matchblas::rng
