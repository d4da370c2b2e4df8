// When two neighbours' Louvain moves may be made together (louvain-gpu's
// settling steps, louvain_gpu.cu). Modularity is a sum over pairs of
// vertices, Q = (1/2m) sum_ij (A_ij - gamma k_i k_j / 2m) [c_i == c_j], so
// moving u from community a to b and v from c to d together changes it by
// exactly the two moves' gains (each computed with the other unmoved) plus
// the pair's own term,
//   2 (2m A_uv - gamma k_u k_v) ([b == d] + [a == c] - [b == c] - [a == d]) / (2m)^2;
// no other term involves both. The moves clash when that term is negative:
// one joins the community the other leaves ([b == c], [a == d]: a swap
// when both), or they part from one community or join one while the tot
// term outweighs their edge. Moves that do not clash add up, so a step may
// make them together, and a move that does not clash with a move made
// before it gains at least what it was decided to gain.
// Cost O(1).
#pragma once

#include "lib/host_device.hpp"
#include "lib/types.hpp"

namespace matchblas::community {

// 2m A_uv - gamma k_u k_v: the pair's term times (2m)^2 / 2, without
// contraction into fused multiply-adds on the device; gamma (k_u k_v), so
// that u and v compute the same bits whichever is first.
MATCHBLAS_HD inline double pair_term(double a_uv, double ku, double kv, double two_m, double gamma) {
#ifdef __CUDA_ARCH__
  return __dsub_rn(__dmul_rn(a_uv, two_m), __dmul_rn(gamma, __dmul_rn(ku, kv)));
#else
  return a_uv * two_m - gamma * (ku * kv);
#endif
}

// [b == d] + [a == c] - [b == c] - [a == d]: how the pair's term counts.
MATCHBLAS_HD inline int pair_overlap(vertex_t a, vertex_t b, vertex_t c, vertex_t d) {
  return int(b == d) + int(a == c) - int(b == c) - int(a == d);
}

// Whether u's move a -> b (degree ku) and v's move c -> d (degree kv),
// a_uv the weight of their edge, clash (the pair's term is negative).
MATCHBLAS_HD inline bool moves_clash(vertex_t a, vertex_t b, vertex_t c, vertex_t d, double a_uv, double ku,
                                     double kv, double two_m, double gamma) {
  const int overlap = pair_overlap(a, b, c, d);
  if (overlap == 0) return false;
  const double pair = pair_term(a_uv, ku, kv, two_m, gamma);
  return overlap > 0 ? pair < 0 : pair > 0;
}

// moves_clash, and also when the pair is drawn together (a positive
// term) but moves apart (b != d): made one after the other, the second
// might rather follow the first.
MATCHBLAS_HD inline bool moves_part(vertex_t a, vertex_t b, vertex_t c, vertex_t d, double a_uv, double ku,
                                    double kv, double two_m, double gamma) {
  const double pair = pair_term(a_uv, ku, kv, two_m, gamma);
  if (pair > 0 && b != d) return true;
  const int overlap = pair_overlap(a, b, c, d);
  return overlap > 0 ? pair < 0 : overlap < 0 && pair > 0;
}

}  // namespace matchblas::community
