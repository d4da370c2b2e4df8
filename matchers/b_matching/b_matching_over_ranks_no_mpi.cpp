// The check of a b-matching over MPI ranks in a build without MPI
// (b_matching.hpp): says so.
#include "lib/error.hpp"
#include "matchers/b_matching/b_matching.hpp"

namespace matchblas {

BMatchingOverRanks check_b_matching_over_ranks(const DistGraph&, const std::vector<int>&, const BMatching&) {
  throw error("checking a b-matching over ranks needs MPI, which this build lacks (configure where libopenmpi-dev "
              "is installed)");
}

}  // namespace matchblas
