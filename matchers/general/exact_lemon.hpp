// The plain interface to LEMON's maximum weight matchings, over an edge list.
// LEMON's headers do not compile as C++20, so the wrapper is a C++17
// translation unit (exact_lemon.cpp, or exact_no_lemon.cpp when LEMON is
// absent) and this header stays C++17-clean: no project types, no std::span.
// The templates of exact.hpp (exact.cpp) check their inputs and call these.
#pragma once
#include <vector>

namespace matchblas::detail {

// True when this build has LEMON (exact_lemon.cpp), false otherwise.
bool lemon_available() noexcept;

// A maximum weight matching of the graph on vertices 0..n-1 with the
// undirected edges {u[k], v[k]} of weight w[k] (u[k] != v[k], all in range,
// w finite; not checked here), by LEMON 1.3 MaxWeightedMatching, or with
// `perfect` a maximum weight perfect matching by MaxWeightedPerfectMatching.
// Returns the mate array: mate[x] is x's partner, or -1 when x is free.
// Throws matchblas::error when `perfect` and the graph has no perfect
// matching, when LEMON returns an inconsistent matching, or when this build
// lacks LEMON.
std::vector<int> lemon_max_weight_matching(int n, const std::vector<int>& u,
                                           const std::vector<int>& v,
                                           const std::vector<double>& w, bool perfect);

}  // namespace matchblas::detail
