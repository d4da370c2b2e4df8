// Order keys on the device: the unsigned integer of a float or a double
// whose order is the number's (-0 and +0 one key; NaN has none: callers
// reject it first), and back. What 64-bit atomicMin / atomicMax and integer
// sorts of weights use (the host's twin: order_key in lib/radix_sort.hpp).
// Cost: a few integer operations. .cu files only.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

namespace matchblas::gpu {

template <class W>
using OrderKey = std::conditional_t<sizeof(W) == 4, std::uint32_t, std::uint64_t>;

template <class W>
__host__ __device__ inline OrderKey<W> order_key_of(W w) {
  using K = OrderKey<W>;
  constexpr K sign = K(1) << (8 * sizeof(K) - 1);
  W zero_signless = w == W(0) ? W(0) : w;
  K bits;
  memcpy(&bits, &zero_signless, sizeof bits);
  return bits & sign ? ~bits : bits | sign;
}

template <class W>
__host__ __device__ inline W weight_of_key(OrderKey<W> key) {
  using K = OrderKey<W>;
  constexpr K sign = K(1) << (8 * sizeof(K) - 1);
  const K bits = key & sign ? key & ~sign : ~key;
  W w;
  memcpy(&w, &bits, sizeof w);
  return w;
}

}  // namespace matchblas::gpu
