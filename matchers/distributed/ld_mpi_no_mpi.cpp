// The distributed matchers in a build without MPI (ld_mpi.hpp): say so.
#include "lib/error.hpp"
#include "matchers/distributed/ld_mpi.hpp"

namespace matchblas {

namespace {
[[noreturn]] DistributedMatching no_mpi() {
  throw error("the distributed matchers need MPI, which this build lacks (configure where libopenmpi-dev is installed)");
}
}  // namespace

DistributedMatching ld_mpi_sync_poll(const DistGraph&, RemoteReads) { no_mpi(); }
DistributedMatching ld_mpi_async_poll(const DistGraph&, RemoteReads) { no_mpi(); }
DistributedMatching ld_mpi_sync_notify(const DistGraph&, RemoteReads) { no_mpi(); }
DistributedMatching ld_mpi_async_notify(const DistGraph&, RemoteReads) { no_mpi(); }

}  // namespace matchblas
