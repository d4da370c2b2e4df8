// The exact references when this build lacks LEMON: have_exact() is false and
// every call throws matchblas::error saying how to get them. CMake compiles
// this file instead of exact_lemon.cpp when LEMON is not found or is turned
// off (MATCHBLAS_LEMON=OFF). Cost O(1).
#include "lib/error.hpp"
#include "matchers/general/exact_lemon.hpp"

namespace matchblas::detail {

bool lemon_available() noexcept { return false; }

std::vector<int> lemon_max_weight_matching(int, const std::vector<int>&, const std::vector<int>&,
                                           const std::vector<double>&, bool) {
  throw error(
      "exact matching needs LEMON, which this build lacks (install liblemon-dev and reconfigure)");
}

}  // namespace matchblas::detail
