// Weight ranks over the ranks in a build without MPI: the one rank's own
// (dist_weight_ranks.hpp).
#include "datasets/distributed/dist_weight_ranks.hpp"
#include "lib/weight_ranks.hpp"

namespace matchblas::mpi {

std::vector<float> weight_ranks_over_ranks(const std::vector<double>& weights, int threads) {
  Csr<double> g;
  g.weights = weights;
  return weight_ranks(g, threads);
}

}  // namespace matchblas::mpi
