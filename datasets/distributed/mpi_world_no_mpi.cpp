// The MPI world in a build without MPI (mpi_world.hpp): one rank, the
// collectives the identity, scatter_graph "needs MPI".
#include "datasets/distributed/mpi_world.hpp"
#include "lib/error.hpp"

namespace matchblas::mpi {

namespace {
[[noreturn]] void no_mpi() { throw error("this build of matchblas has no MPI (configure where libopenmpi-dev is installed)"); }
}  // namespace

int world_rank() { return 0; }
int world_size() { return 1; }
int local_rank() { return 0; }
std::string first_failure(const std::string& mine) { return mine; }
std::vector<std::int64_t> gather_on_root(const std::vector<std::int64_t>& mine) { return mine; }
double max_over_ranks(double x) { return x; }
double sum_over_ranks(double x) { return x; }
std::int64_t sum_over_ranks(std::int64_t x) { return x; }
std::int64_t max_over_ranks(std::int64_t x) { return x; }
std::vector<offset_t> whole_offsets(const DistGraph& g) {
  MATCHBLAS_EXPECTS(g.ranks == 1 && g.offsets.size() == std::size_t(g.n) + 1, "whole_offsets: one rank holds every row");
  return g.offsets;
}
template <class W>
DistGraph scatter_graph(const Csr<W>*, Partition) {
  no_mpi();
}
template DistGraph scatter_graph(const Csr<float>*, Partition);
template DistGraph scatter_graph(const Csr<double>*, Partition);

}  // namespace matchblas::mpi
