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
void barrier() {}
void idle_barrier() {}
std::vector<vertex_t> gather_mates(const DistributedMatching&, vertex_t) { no_mpi(); }
void abort_all(int) { no_mpi(); }

}  // namespace matchblas::mpi
