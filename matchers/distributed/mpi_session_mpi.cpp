// The MPI process around the distributed matchers (mpi_session.hpp).
#include <mpi.h>

#include <time.h>

#include <cstdlib>

#include "lib/error.hpp"
#include "matchers/distributed/mpi_session.hpp"

namespace matchblas::mpi {

bool built() { return true; }

bool launched() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK", "MPI_LOCALNRANKS"})
    if (const char* v = std::getenv(name); v && *v) return true;
  return false;
}

Session::Session() {
  int ready = 0;
  MPI_Initialized(&ready);
  if (ready) throw error("MPI is already initialised in this process");
  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
    throw error("MPI_Init_thread failed");
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks_);
}

Session::~Session() { MPI_Finalize(); }

void barrier() { MPI_Barrier(MPI_COMM_WORLD); }

void idle_barrier() {
  MPI_Request req;
  MPI_Ibarrier(MPI_COMM_WORLD, &req);
  for (int done = 0;;) {
    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    if (done) return;
    const timespec ms{0, 1000000};
    nanosleep(&ms, nullptr);
  }
}

std::vector<vertex_t> gather_mates(const DistributedMatching& part, vertex_t n) {
  const int rank = world_rank(), ranks = world_size();
  const int mine = int(part.mate.size());
  std::vector<int> counts(std::size_t(ranks), 0), displs(std::size_t(ranks), 0);
  MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<vertex_t> all;
  if (rank == 0) {
    for (int r = 1; r < ranks; ++r) displs[r] = displs[r - 1] + counts[r - 1];
    all.assign(std::size_t(n), no_vertex);
  }
  MPI_Gatherv(part.mate.data(), mine, MPI_INT32_T, all.data(), counts.data(), displs.data(), MPI_INT32_T, 0,
              MPI_COMM_WORLD);
  // The blocks are consecutive in labels: all[l] is the mate of label l.
  if (rank == 0 && !part.numbering.identity()) {
    std::vector<vertex_t> by_id(std::size_t(n), no_vertex);
    for (vertex_t l = 0; l < n; ++l) by_id[std::size_t(part.numbering.id(l))] = all[std::size_t(l)];
    all.swap(by_id);
  }
  return all;
}

void abort_all(int status) {
  MPI_Abort(MPI_COMM_WORLD, status);
  std::abort();  // not reached
}

}  // namespace matchblas::mpi
