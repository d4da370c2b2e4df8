// b-suitor-gpu over MPI ranks in a build without MPI (b_matching.hpp): says so.
#include "lib/error.hpp"
#include "matchers/b_matching/b_matching.hpp"

namespace matchblas {

BMatching b_suitor_gpu_ranks(const DistGraph&, const std::vector<int>&, const GpuOptions&, PartsExchange*,
                             GpuTimes*) {
  throw error("b-suitor-gpu over ranks needs MPI, which this build lacks (configure where libopenmpi-dev is installed)");
}

}  // namespace matchblas
