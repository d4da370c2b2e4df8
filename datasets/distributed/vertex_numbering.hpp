// A fixed pseudo-random renumbering of the vertices 0..n-1 (a bijection:
// label(v) and its inverse id(l)), so that consecutive blocks of labels hold
// a fair sample of the graph whatever the order of its ids. R-MAT puts its
// hubs at the ids with few one bits, mostly the low ones; a block partition
// of the ids then gives some ranks far more work than others.
// What moves is a chunk of C consecutive ids (C = 1 below 2^17 vertices,
// then a power of two up to 64, so that there are at least 2^16 chunks):
// the chunks are permuted and each keeps its ids in order, so the words of
// neighbouring ids (R-MAT's hubs, a mesh's rows) still share cache lines.
// The last n mod C ids stay where they are.
// How the chunks are permuted: on k = bit width of K - 1 bits (K full
// chunks), f(x) = a multiply by an odd constant, an xor of the high half
// onto the low half, a second multiply and xor (each step invertible modulo
// 2^k, so f is a bijection of 0..2^k - 1), and cycle walking (apply f again
// while the result is K or more) restricts it to 0..K-1: the classic
// construction of a permutation of an arbitrary range from one of a power
// of two (J. Black, P. Rogaway, Ciphers with arbitrary finite domains,
// CT-RSA 2002); K <= 2^k < 2K, so fewer than two steps of f are expected.
// Cost: O(1) expected per label or id, no memory; the same on every rank.
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>

#include "lib/types.hpp"

namespace matchblas {

class VertexNumbering {
 public:
  VertexNumbering() = default;  // the identity: label(v) = id(v) = v

  // The spread numbering of 0..n-1 (a pure function of n).
  static VertexNumbering spread(vertex_t n) {
    VertexNumbering p;
    const std::uint64_t big = std::uint64_t(n) >> 16;
    p.chunk_bits_ = big == 0 ? 0 : std::min(6, int(std::bit_width(big)) - 1);
    p.chunks_ = std::uint64_t(n) >> p.chunk_bits_;
    if (p.chunks_ <= 2) return VertexNumbering{};  // nothing to spread
    p.identity_ = false;
    const int bits = std::bit_width(p.chunks_ - 1);
    p.mask_ = (std::uint64_t(1) << bits) - 1;
    p.shift_ = (bits + 1) / 2;  // 2 shift >= bits: x ^ (x >> s) is its own inverse
    p.a_inv_ = inverse(a_);
    p.b_inv_ = inverse(b_);
    return p;
  }

  bool identity() const { return identity_; }
  vertex_t chunk() const { return vertex_t(1) << chunk_bits_; }  // C: consecutive ids kept together

  vertex_t label(vertex_t v) const {
    if (identity_) return v;
    std::uint64_t x = std::uint64_t(v) >> chunk_bits_;
    if (x >= chunks_) return v;  // the last, partial chunk
    do x = forward(x);
    while (x >= chunks_);
    return vertex_t((x << chunk_bits_) | (std::uint64_t(v) & offset_mask()));
  }

  vertex_t id(vertex_t l) const {
    if (identity_) return l;
    std::uint64_t x = std::uint64_t(l) >> chunk_bits_;
    if (x >= chunks_) return l;
    do x = backward(x);
    while (x >= chunks_);
    return vertex_t((x << chunk_bits_) | (std::uint64_t(l) & offset_mask()));
  }

  bool operator==(const VertexNumbering&) const = default;

 private:
  static constexpr std::uint64_t a_ = 0x9e3779b97f4a7c15ull, b_ = 0xbf58476d1ce4e5b9ull;  // odd

  // The inverse of an odd c modulo 2^64 (Newton's iteration doubles the
  // correct low bits: 3, 6, 12, 24, 48, 96).
  static std::uint64_t inverse(std::uint64_t c) {
    std::uint64_t x = c;
    for (int i = 0; i < 5; ++i) x *= 2 - c * x;
    return x;
  }

  std::uint64_t forward(std::uint64_t x) const {
    x = (x * a_) & mask_;
    x ^= x >> shift_;
    x = (x * b_) & mask_;
    return x ^ (x >> shift_);
  }

  std::uint64_t offset_mask() const { return (std::uint64_t(1) << chunk_bits_) - 1; }

  std::uint64_t backward(std::uint64_t x) const {
    x ^= x >> shift_;
    x = (x * b_inv_) & mask_;
    x ^= x >> shift_;
    return (x * a_inv_) & mask_;
  }

  bool identity_ = true;
  std::uint64_t chunks_ = 0, mask_ = 0, a_inv_ = 0, b_inv_ = 0;  // chunks_: K, the full chunks
  int shift_ = 0, chunk_bits_ = 0;
};

}  // namespace matchblas
