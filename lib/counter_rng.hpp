// Counter-based random numbers: every draw is a pure function of
// (seed, stream, index), so parallel loops draw the same values for any
// thread count and any schedule. The mixer is splitmix64's finaliser
// (Steele, Lea, Flood 2014), applied to a combination of the three keys.
#pragma once
#include <cmath>
#include <cstdint>

namespace matchblas::rng {

constexpr std::uint64_t mix64(std::uint64_t z) noexcept {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// 64 random bits for draw `index` of `stream` under `seed`.
constexpr std::uint64_t bits(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) noexcept {
  return mix64(mix64(mix64(seed) ^ stream) ^ index);
}

// Uniform in [0, 1), 53 bits.
inline double uniform01(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) noexcept {
  return static_cast<double>(bits(seed, stream, index) >> 11) * 0x1.0p-53;
}

// Uniform in (0, 1].
inline double uniform_open_closed(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) noexcept {
  return 1.0 - uniform01(seed, stream, index);
}

}  // namespace matchblas::rng
