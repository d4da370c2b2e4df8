// The packed offer word of a float weight, the one 64-bit word that both
// suitor-gpu's offers (matchers/general/suitor_gpu_search.cuh, PackedOffers)
// and the b-matchers' offer keys (matchers/b_matching/b_suitor_gpu_offers.cuh,
// PackedKeys) hold: the order-preserving bits of w (+0 for -0) above
// ~proposer, so that a larger word is a better offer under neighbour_beats
// (heavier, then smaller proposer; lib/greedy_order.hpp) and one atomicMax
// keeps the best. Never 0 for a vertex id >= 0 (~u has its high bit set),
// so 0 can mean "no offer".
// Source: the lock-free CPU Suitor's word (matchers/general/suitor_cas.cpp,
// Mazankiewicz sec. 2.3). Cost: a few integer operations. .cu files only.
#pragma once
#include <cuda_runtime.h>

#include "lib/types.hpp"

namespace matchblas::gpu {

// Proposer u's offer of weight w.
__device__ inline unsigned long long pack_offer(float w, vertex_t u) {
  const unsigned b = __float_as_uint(w + 0.0f);  // -0 + 0 == +0
  const unsigned key = (b & 0x80000000u) ? ~b : (b | 0x80000000u);
  return (static_cast<unsigned long long>(key) << 32) | static_cast<unsigned long long>(~static_cast<unsigned>(u));
}

// The weight of a packed offer.
__device__ inline float offer_weight(unsigned long long t) {
  const unsigned key = static_cast<unsigned>(t >> 32);
  return __uint_as_float((key & 0x80000000u) ? (key & 0x7fffffffu) : ~key);
}

// The proposer of a packed offer (t not 0).
__device__ inline vertex_t offer_proposer(unsigned long long t) {
  return static_cast<vertex_t>(~static_cast<unsigned>(t & 0xffffffffu));
}

}  // namespace matchblas::gpu
