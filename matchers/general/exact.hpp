// Exact maximum weight matchings, the references every approximation is
// measured against (gap to optimality, GTO).
//
//   exact_matching          maximum weight matching of a general graph
//                           (LEMON 1.3 MaxWeightedMatching, Edmonds' blossom
//                           algorithm with dual variables, O(n m log n))
//   exact_perfect_matching  maximum weight perfect matching of a complete graph
//                           (LEMON MaxWeightedPerfectMatching); n must be even
//
// LEMON does not compile as C++20, so the wrapper lives in its own C++17
// translation unit (exact_lemon.cpp) behind this plain header. Without LEMON
// at build time, have_exact() is false and both functions throw
// matchblas::error saying so.
#pragma once
#include "lib/csr.hpp"
#include "lib/dense.hpp"
#include "lib/matching.hpp"

namespace matchblas {

bool have_exact() noexcept;

template <class W>
Matching exact_matching(const Csr<W>& g);

template <class W>
Matching exact_perfect_matching(const Dense<W>& g);

// A maximum weight matching of a complete graph of any order: n odd gets one
// zero-weight vertex (Hovland 2020 sec. 5.1), which is dropped from the result.
template <class W>
Matching exact_complete_matching(const Dense<W>& g);

}  // namespace matchblas
