// mirror_sums: whether a square matrix equals its transpose as a multiset
// of entries, in one streaming pass and no copy. Every entry (u, v, w) off
// the diagonal adds h(u, v, w) and takes away h(v, u, w), for two
// independent 64-bit hashes h (splitmix64's finalizer over the pair and the
// bits of w, -0 taken as +0), summed mod 2^64: both sums are 0 when the
// entries (u, v, w) and (v, u, w) agree as multisets (a symmetric matrix,
// duplicates and their order included), and a matrix that is not has both
// at 0 with chance about 2^-128. Nonzero sums prove it is not.
//   Users: community::check_input (symmetric graphs, then the exact check
// against the transpose only to name a bad row), prepass's symmetric mode
// (|A| symmetric).
//   Cost: O(n + entries), rows on OpenMP's threads; no memory.
#pragma once
#include <cstdint>
#include <cstring>

#include "lib/counter_rng.hpp"
#include "lib/csr.hpp"

namespace matchblas::ops {

struct MirrorSums {
  std::uint64_t a = 0, b = 0;
  bool zero() const { return a == 0 && b == 0; }
};

// The two hashes of entry (u, v, w); mirror_sums adds (u, v, w)'s and
// takes away (v, u, w)'s.
inline MirrorSums entry_hashes(vertex_t u, vertex_t v, double w) {
  constexpr std::uint64_t key_a = 0x243F6A8885A308D3ull, key_b = 0x13198A2E03707344ull;
  std::uint64_t bits;
  w = w == 0 ? 0.0 : w;
  std::memcpy(&bits, &w, sizeof bits);
  const std::uint64_t pair = (std::uint64_t(std::uint32_t(u)) << 32) | std::uint32_t(v);
  return {rng::mix64(rng::mix64(key_a ^ pair) ^ bits), rng::mix64(rng::mix64(key_b ^ pair) ^ bits)};
}

// The sums over g's off-diagonal entries of value(w) (g square and a
// consistent CSR: not checked here).
template <class Value>
MirrorSums mirror_sums(const Csr<double>& g, Value value) {
  std::uint64_t a = 0, b = 0;
#pragma omp parallel for schedule(dynamic, 4096) reduction(+ : a, b) if (g.num_entries() >= (1 << 16))
  for (vertex_t u = 0; u < g.n_rows; ++u)
    for (offset_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      const vertex_t v = g.cols[e];
      if (v == u) continue;
      const double w = value(g.weights[e]);
      const MirrorSums x = entry_hashes(u, v, w), y = entry_hashes(v, u, w);
      a += x.a - y.a;
      b += x.b - y.b;
    }
  return {a, b};
}

}  // namespace matchblas::ops
