// The MPI process in a build without MPI (mpi_session.hpp): says so.
#include "lib/error.hpp"
#include "matchers/distributed/mpi_session.hpp"

namespace matchblas::mpi {

namespace {
[[noreturn]] void no_mpi() { throw error("this build of matchblas has no MPI (configure where libopenmpi-dev is installed)"); }
}  // namespace

bool built() { return false; }
bool launched() { return false; }
Session::Session() { no_mpi(); }
Session::~Session() = default;
int world_rank() { return 0; }
int world_size() { return 1; }
std::string first_failure(const std::string& mine) { return mine; }
void barrier() {}
void idle_barrier() {}
double max_over_ranks(double x) { return x; }
double sum_over_ranks(double x) { return x; }
std::int64_t sum_over_ranks(std::int64_t x) { return x; }
std::int64_t max_over_ranks(std::int64_t x) { return x; }
std::vector<vertex_t> gather_mates(const DistributedMatching&, vertex_t) { no_mpi(); }
template <class W>
DistGraph scatter_graph(const Csr<W>*, Partition) {
  no_mpi();
}
template DistGraph scatter_graph(const Csr<float>*, Partition);
template DistGraph scatter_graph(const Csr<double>*, Partition);
void abort_all(int) { no_mpi(); }

}  // namespace matchblas::mpi
